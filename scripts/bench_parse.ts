/**
 * `deno task bench parse [--corpus a,b] [--json FILE]`: parse throughput over real corpora
 * (`corpora/`, made by `scripts/prepare_corpora.sh`), side by side in one run:
 *
 * - **ceiling**: web-tree-sitter parsing the same files with nothing else (one thread);
 * - **1 worker** / **2 workers**: our parse + extract through `ParserPool`;
 * - **ctags**: Universal Ctags (`ctags --output-format=json`) on the same file list.
 *
 * Each measurement runs in its own process so its peak RSS (VmHWM) is its own. File reading is
 * not timed (all bytes are read first); grammars are loaded before the clock starts. Recall is the
 * share of ctags' function/class/method/type definitions (by file and name) that we also extract.
 */
import { posix } from "node:path";
import { cpuUsage } from "node:process";
import { Parser } from "web-tree-sitter";
import { languageForPath, type ParseResult, ParserPool } from "../src/parser/mod.ts";
import { loadLanguage } from "../src/parser/loader.ts";
import { SourceText } from "../src/parser/source_text.ts";
import { precheck } from "../src/parser/extract.ts";
import { loadAverages, markdownTable, parseFlags, writeJson } from "./bench_util.ts";

/** Corpora and the languages we measure in each (the corpus' own language). */
const CORPORA: Record<string, string[]> = {
  typescript: ["typescript", "javascript"],
  express: ["javascript"],
  gin: ["go"],
  gostd: ["go"],
  django: ["python"],
  // Real files of the languages the code corpora lack (`prepare_corpora.sh languages`).
  languages: [
    "clojure",
    "elm",
    "groovy",
    "haskell",
    "hcl",
    "latex",
    "nix",
    "perl",
    "powershell",
    "r",
    "sql",
  ],
};

/** ctags kinds that count as definitions for recall, per ctags language. */
const CTAGS_KINDS: Record<string, string[]> = {
  Python: ["class", "function", "member"],
  Go: ["func", "type", "struct", "interface", "talias", "methodSpec"],
  JavaScript: ["function", "class", "method", "generator", "getter", "setter"],
  TypeScript: ["function", "class", "interface", "enum", "method", "generator", "alias"],
};

const ROOT = new URL("../corpora/", import.meta.url);

interface PhaseResult {
  seconds: number;
  /** CPU seconds (user + system, all threads) spent in the timed section. */
  cpuSeconds: number;
  files: number;
  bytes: number;
  symbols: number;
  skipped: number;
  partial: number;
  rssMb: number;
  /** `file\tname` of every symbol (only for the recall phase). */
  names?: string[];
}

async function _walk(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(posix.join(dir, rel))) {
    const p = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory) out.push(...await _walk(dir, p));
    else if (e.isFile) out.push(p);
  }
  return out;
}

/**
 * The measured files of a corpus: those whose language is one of the corpus' languages, less
 * those our parser skips before parsing (minified or too large; the run reports them), so every
 * phase, the ceiling included, parses exactly the same files.
 */
async function corpusFiles(corpus: string, report = false): Promise<string[]> {
  const dir = new URL(`${corpus}/`, ROOT).pathname;
  const langs = CORPORA[corpus]!;
  const files = (await _walk(dir)).filter((f) => langs.includes(languageForPath(f)?.id ?? ""))
    .sort();
  const kept: string[] = [];
  for (const f of files) {
    const reason = precheck(new SourceText(await Deno.readFile(posix.join(dir, f))));
    if (reason === null) kept.push(f);
    else if (report) console.error(`bench: not measured: ${corpus}/${f}: ${reason}`);
  }
  return kept;
}

async function _readAll(corpus: string, files: string[]): Promise<Uint8Array[]> {
  const dir = new URL(`${corpus}/`, ROOT);
  return await Promise.all(files.map((f) => Deno.readFile(new URL(f, dir))));
}

function _cpuSince(start: { user: number; system: number }): number {
  const now = cpuUsage(start);
  return (now.user + now.system) / 1e6;
}

/** Indices of the files parsed before timing (up to ~2 MB), so V8 has tiered up the wasm code. */
function _warmSet(bytes: Uint8Array[]): number[] {
  const out: number[] = [];
  let total = 0;
  for (let i = 0; i < bytes.length && total < 2_000_000; i++) {
    out.push(i);
    total += bytes[i]!.length;
  }
  return out;
}

/** One parser per language of `files`, bound to our grammar, warmed on the first ~2 MB. */
async function _ceilingParsers(files: string[], bytes: Uint8Array[]): Promise<Map<string, Parser>> {
  const parsers = new Map<string, Parser>();
  for (const f of files) {
    const spec = languageForPath(f)!;
    if (spec.extractor === undefined && !parsers.has(spec.id)) {
      const loaded = await loadLanguage(spec);
      const p = new Parser();
      p.setLanguage(loaded.parser.language);
      parsers.set(spec.id, p);
    }
  }
  for (let round = 0; round < 3; round++) {
    for (const i of _warmSet(bytes)) {
      parsers.get(languageForPath(files[i]!)!.id)!.parse(new SourceText(bytes[i]!).text)?.delete();
    }
  }
  return parsers;
}

/** The ceiling's work on some of the files: decode and parse each, nothing else. */
function _ceilingRun(
  parsers: Map<string, Parser>,
  files: string[],
  bytes: Uint8Array[],
  indices: Iterable<number>,
): void {
  for (const i of indices) {
    const source = new SourceText(bytes[i]!);
    parsers.get(languageForPath(files[i]!)!.id)!.parse(source.text)?.delete();
  }
}

/** A pool whose every worker has loaded every language and parsed the warm set three times. */
async function _warmPool(workers: number, files: string[], bytes: Uint8Array[]) {
  const pool = new ParserPool({ workers });
  const langs = [...new Set(files.map((f) => languageForPath(f)!.id))];
  const warm = langs.map((l) => files.find((f) => languageForPath(f)!.id === l)!);
  await Promise.all(
    warm.flatMap((f) => Array.from({ length: workers }, () => pool.parse(f, new Uint8Array()))),
  );
  for (let round = 0; round < 3; round++) {
    await Promise.all(
      _warmSet(bytes).flatMap((i) =>
        Array.from({ length: workers }, () => pool.parse(files[i]!, bytes[i]!))
      ),
    );
  }
  return pool;
}

/**
 * Our work on some of the files through a pool. Results are consumed as they arrive (as an
 * indexer would), not retained: a bench that keeps a million call records alive measures its own
 * garbage collector.
 */
async function _poolRun(
  pool: ParserPool,
  files: string[],
  bytes: Uint8Array[],
  indices: number[],
  onResult: (r: ParseResult) => void,
): Promise<void> {
  await Promise.all(indices.map((i) => pool.parse(files[i]!, bytes[i]!).then(onResult)));
}

async function phaseCeiling(corpus: string): Promise<PhaseResult> {
  const files = await corpusFiles(corpus);
  const bytes = await _readAll(corpus, files);
  const parsers = await _ceilingParsers(files, bytes);
  const cpuStart = cpuUsage();
  const start = performance.now();
  _ceilingRun(parsers, files, bytes, files.keys());
  const seconds = (performance.now() - start) / 1000;
  const cpuSeconds = _cpuSince(cpuStart);
  return {
    seconds,
    cpuSeconds,
    files: files.length,
    bytes: bytes.reduce((n, b) => n + b.length, 0),
    symbols: 0,
    skipped: 0,
    partial: 0,
    rssMb: NaN,
  };
}

async function phasePool(
  corpus: string,
  workers: number,
  keepNames: boolean,
): Promise<PhaseResult> {
  const files = await corpusFiles(corpus);
  const bytes = await _readAll(corpus, files);
  const pool = await _warmPool(workers, files, bytes);
  try {
    const cpuStart = cpuUsage();
    const start = performance.now();
    let symbols = 0;
    let skipped = 0;
    let partial = 0;
    const names: string[] = [];
    await _poolRun(pool, files, bytes, [...files.keys()], (r) => {
      symbols += r.symbols.length;
      if (r.status === "partial") partial++;
      if (r.status === "skipped") {
        skipped++;
        if (keepNames) console.error(`bench: skipped ${corpus}/${r.file}: ${r.reason}`);
      }
      if (keepNames) { for (const s of r.symbols) names.push(`${r.file}\t${s.name}`); }
    });
    const seconds = (performance.now() - start) / 1000;
    const cpuSeconds = _cpuSince(cpuStart);
    const result: PhaseResult = {
      seconds,
      cpuSeconds,
      files: files.length,
      bytes: bytes.reduce((n, b) => n + b.length, 0),
      symbols,
      skipped,
      partial,
      rssMb: NaN,
    };
    if (keepNames) result.names = names;
    return result;
  } finally {
    await pool.close();
  }
}

/** Wall seconds of the ceiling, 1 worker and 2 workers over the same files, measured in turns. */
interface MixedResult {
  ceiling: number;
  one: number;
  two: number;
  rounds: number;
}

/**
 * The ratios measured in one process, in turns: the files are dealt into `_MIXED_ROUNDS` hands
 * (file i into hand i mod n), and each hand is parsed by the ceiling (this thread), then a
 * 1-worker pool, then a 2-worker pool, the order rotating from hand to hand. A shared machine's
 * speed drifts over seconds (separate runs of the same code differ by up to a third here), and
 * taking turns gives every contender the same share of the slow and fast spells.
 */
async function phaseMixed(corpus: string): Promise<MixedResult> {
  const files = await corpusFiles(corpus);
  const bytes = await _readAll(corpus, files);
  const parsers = await _ceilingParsers(files, bytes);
  const one = await _warmPool(1, files, bytes);
  const two = await _warmPool(2, files, bytes);
  try {
    const totals = [0, 0, 0];
    const ignore = () => {};
    const runs: ((hand: number[]) => Promise<void>)[] = [
      (hand) => Promise.resolve(_ceilingRun(parsers, files, bytes, hand)),
      (hand) => _poolRun(one, files, bytes, hand, ignore),
      (hand) => _poolRun(two, files, bytes, hand, ignore),
    ];
    for (let round = 0; round < _MIXED_ROUNDS; round++) {
      const hand = [...files.keys()].filter((i) => i % _MIXED_ROUNDS === round);
      for (let k = 0; k < runs.length; k++) {
        const which = (round + k) % runs.length;
        const start = performance.now();
        await runs[which]!(hand);
        totals[which]! += (performance.now() - start) / 1000;
      }
    }
    return { ceiling: totals[0]!, one: totals[1]!, two: totals[2]!, rounds: _MIXED_ROUNDS };
  } finally {
    await one.close();
    await two.close();
  }
}

const _MIXED_ROUNDS = 6;

async function phaseCtags(corpus: string): Promise<PhaseResult & { tags: string[] }> {
  const files = await corpusFiles(corpus);
  const dir = new URL(`${corpus}/`, ROOT).pathname;
  const list = await Deno.makeTempFile({ suffix: ".txt" });
  const out = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(list, files.join("\n") + "\n");
    const start = performance.now();
    const cmd = new Deno.Command("/usr/bin/time", {
      args: ["-f", "%M", "ctags", "--output-format=json", "--fields=+l", "-f", out, "-L", list],
      cwd: dir,
      stdout: "null",
      stderr: "piped",
    });
    const { code, stderr } = await cmd.output();
    const seconds = (performance.now() - start) / 1000;
    const errText = new TextDecoder().decode(stderr).trim();
    if (code !== 0) throw new Error(`ctags failed: ${errText}`);
    const rssKb = Number(errText.split("\n").pop());
    const tags: string[] = [];
    for (const line of (await Deno.readTextFile(out)).split("\n")) {
      if (line === "") continue;
      const t = JSON.parse(line) as {
        _type: string;
        name: string;
        path: string;
        kind?: string;
        language?: string;
      };
      if (t._type !== "tag" || t.kind === undefined || t.language === undefined) continue;
      if (!(CTAGS_KINDS[t.language] ?? []).includes(t.kind)) continue;
      if (t.name.startsWith("AnonymousFunction") || t.name.startsWith("__anon")) continue;
      tags.push(`${t.path}\t${t.name}`);
    }
    let total = 0;
    for (const f of files) total += (await Deno.stat(posix.join(dir, f))).size;
    return {
      seconds,
      cpuSeconds: NaN,
      files: files.length,
      bytes: total,
      symbols: tags.length,
      skipped: 0,
      partial: 0,
      rssMb: rssKb / 1024,
      tags,
    };
  } finally {
    await Deno.remove(list);
    await Deno.remove(out);
  }
}

async function _runPhase(args: string[]): Promise<unknown> {
  // Under /usr/bin/time: its last stderr line is the phase's peak RSS in KB.
  const cmd = new Deno.Command("/usr/bin/time", {
    args: [
      "-f",
      "%M",
      Deno.execPath(),
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-sys",
      "--allow-run",
      new URL(import.meta.url).pathname,
      ...args,
    ],
    stdout: "piped",
    stderr: "piped",
  });
  const { code, stdout, stderr } = await cmd.output();
  const lines = new TextDecoder().decode(stderr).trimEnd().split("\n");
  const rssKb = Number(lines.pop());
  if (lines.length > 0) console.error(lines.join("\n"));
  if (code !== 0) throw new Error(`bench phase ${args.join(" ")} failed (exit ${code})`);
  const result = JSON.parse(new TextDecoder().decode(stdout)) as PhaseResult;
  if (typeof result.rssMb !== "number" || !Number.isFinite(result.rssMb)) {
    result.rssMb = rssKb / 1024;
  }
  return result;
}

/** Entry point used by `scripts/bench.ts`. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const phase = flags.get("phase");
  const corpus = flags.get("corpus");
  if (phase !== undefined && corpus !== undefined) {
    let result: unknown;
    if (phase === "ceiling") result = await phaseCeiling(corpus);
    else if (phase === "pool1") result = await phasePool(corpus, 1, true);
    else if (phase === "pool2") result = await phasePool(corpus, 2, false);
    else if (phase === "ctags") result = await phaseCtags(corpus);
    else if (phase === "mixed") result = await phaseMixed(corpus);
    else throw new Error(`unknown phase: ${phase}`);
    console.log(JSON.stringify(result));
    return;
  }
  const corpora = (corpus ?? Object.keys(CORPORA).join(",")).split(",");
  const loadBefore = loadAverages();
  const rows: unknown[][] = [];
  const mixedRows: unknown[][] = [];
  const recallRows: unknown[][] = [];
  const json: Record<string, unknown> = {};
  for (const c of corpora) {
    try {
      await Deno.stat(new URL(`${c}/`, ROOT));
    } catch {
      console.error(`bench: corpus ${c} missing: run scripts/prepare_corpora.sh`);
      continue;
    }
    await corpusFiles(c, true);
    console.error(`bench: ${c}: ceiling`);
    const ceiling = await _runPhase(["--phase", "ceiling", "--corpus", c]) as PhaseResult;
    console.error(`bench: ${c}: 1 worker`);
    const one = await _runPhase(["--phase", "pool1", "--corpus", c]) as PhaseResult;
    console.error(`bench: ${c}: 2 workers`);
    const two = await _runPhase(["--phase", "pool2", "--corpus", c]) as PhaseResult;
    console.error(`bench: ${c}: ctags`);
    const ctags = await _runPhase(["--phase", "ctags", "--corpus", c]) as PhaseResult & {
      tags: string[];
    };
    console.error(`bench: ${c}: ceiling, 1 worker and 2 workers in turns`);
    const mixed = await _runPhase(["--phase", "mixed", "--corpus", c]) as MixedResult;
    const ours = new Set(one.names ?? []);
    const byLanguage = new Map<string, { total: number; found: number }>();
    for (const tag of ctags.tags) {
      const lang = languageForPath(tag.split("\t")[0]!)?.id ?? "?";
      const entry = byLanguage.get(lang) ?? { total: 0, found: 0 };
      entry.total++;
      if (ours.has(tag)) entry.found++;
      byLanguage.set(lang, entry);
    }
    const mb = ceiling.bytes / 1e6;
    const mbps = (r: PhaseResult) => r.bytes / 1e6 / r.seconds;
    rows.push([
      c,
      ceiling.files,
      mb,
      mbps(ceiling),
      mbps(one),
      `${Math.round((100 * mbps(one)) / mbps(ceiling))}%`,
      `${Math.round((100 * ceiling.cpuSeconds) / one.cpuSeconds)}%`,
      mbps(two),
      `${(mbps(two) / mbps(one)).toFixed(2)}x`,
      mbps(ctags),
      `${(mbps(two) / mbps(ctags)).toFixed(2)}x`,
      `${Math.round(one.files / one.seconds)} / ${Math.round(two.files / two.seconds)}`,
      `${Math.round(one.symbols / one.seconds)} / ${Math.round(two.symbols / two.seconds)}`,
      `${Math.round(ceiling.rssMb)} / ${Math.round(one.rssMb)} / ${Math.round(two.rssMb)} / ${
        Math.round(ctags.rssMb)
      }`,
      `${one.skipped} / ${one.partial}`,
    ]);
    mixedRows.push([
      c,
      mixed.rounds,
      mb / mixed.ceiling,
      mb / mixed.one,
      mb / mixed.two,
      `${Math.round((100 * mixed.ceiling) / mixed.one)}%`,
      `${(mixed.one / mixed.two).toFixed(2)}x`,
    ]);
    for (const [lang, { total, found }] of byLanguage) {
      recallRows.push([c, lang, total, found, `${((100 * found) / total).toFixed(1)}%`]);
    }
    const { names: _n, ...oneOut } = one;
    const { tags: _t, ...ctagsOut } = ctags;
    json[c] = {
      ceiling,
      one: oneOut,
      two,
      ctags: ctagsOut,
      mixed,
      recall: Object.fromEntries(byLanguage),
    };
  }
  console.log("\nParse throughput (MB/s; RSS = peak resident MB of each run's process)");
  console.log(`Load averages at start: ${loadBefore}; at end: ${loadAverages()}\n`);
  console.log(markdownTable([
    "corpus",
    "files",
    "MB",
    "ceiling MB/s",
    "1 worker MB/s",
    "1w / ceiling",
    "1w / ceiling (CPU)",
    "2 workers MB/s",
    "2w / 1w",
    "ctags MB/s",
    "2w / ctags",
    "files/s 1w / 2w",
    "symbols/s 1w / 2w",
    "RSS ceiling / 1w / 2w / ctags",
    "skipped / partial",
  ], rows));
  console.log(
    "\nThe same three measured in turns in one process (each hand of files: ceiling, 1 worker, " +
      "2 workers, in rotating order; MB/s)\n",
  );
  console.log(markdownTable([
    "corpus",
    "hands",
    "ceiling MB/s",
    "1 worker MB/s",
    "2 workers MB/s",
    "1w / ceiling",
    "2w / 1w",
  ], mixedRows));
  console.log("\nRecall of ctags' function/class/method/type definitions (by file and name)\n");
  console.log(markdownTable(["corpus", "language", "ctags defs", "found", "recall"], recallRows));
  await writeJson(flags, json);
}

if (import.meta.main) await main(Deno.args);
