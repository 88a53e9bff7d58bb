/**
 * `deno task bench index [--corpora a,b] [--rounds N] [--threads N] [--workers N] [--v8-flags F]
 * [--json FILE]`:
 * the full index against the two-core parse-only ceiling, measured in one run and in turns, on
 * the real corpora (corpora/, see prepare_corpora.sh; default: the Go standard library and Django).
 *
 * Each corpus is copied to a temporary folder (the one-file change must not touch corpora/).
 * Then, `--rounds` times (default 3), in alternating order (full then ceiling, ceiling then full,
 * …) so that the drift of a shared machine's speed falls on both alike:
 *
 * - **full index**: a fresh process (with the server's V8 flags, `SERVER_V8_FLAGS` of
 *   scripts/serve.ts, or `--v8-flags`; `--v8-flags none` for V8's defaults) builds a new index through the real tools (`ToolRunner`:
 *   `index_folder`, then `search_symbols` for a known name until it answers correctly), then
 *   changes one file and calls `index_folder` again. It reports the index call's wall and CPU
 *   time (the whole process, and its main thread), the time to the first correct
 *   `search_symbols` answer counted from the start of `index_folder`, the phase timings, peak RSS
 *   (the kernel's high-water mark, VmHWM), the one-file re-index time, and DB and source sizes;
 * - **ceiling**: a fresh process parses the same files (those the index parsed: status ok or
 *   partial, with the language the index gave them) with web-tree-sitter and nothing else, one
 *   parser per thread in `--threads` threads (default: the machine's cores), see bench_ceiling.ts.
 *
 * The table gives the medians of the rounds and the ratios of the medians; `--json` writes every
 * round. The 1-minute load average is sampled before each measurement (8 helpers share the build
 * machine: CPU seconds are the steadier comparison). `ctags -R` runs once per corpus, for scale.
 */
import { join } from "node:path";
import { loadAverages, markdownTable, median, parseFlags, writeJson } from "./bench_util.ts";
import { SERVER_V8_FLAGS } from "./serve.ts";
import { type CeilingFile, type CeilingResult, measureCeiling } from "./bench_ceiling.ts";
import { appendedFunction } from "./bench_memory_scale.ts";

const DEFAULT_CORPORA = ["gostd", "django"];

/** Per corpus: a symbol name whose `search_symbols` answer must list it (the "correct answer"). */
const PROBES: Record<string, string> = {
  gostd: "NewServeMux",
  django: "QuerySet",
  gin: "Default",
  express: "createApplication",
  typescript: "createProgram",
  linux: "kmalloc",
};

/** What the full-index child reports. */
interface FullReport {
  files: number;
  symbols: number;
  source_bytes: number;
  db_bytes: number;
  /** Wall time of the `index_folder` call. */
  wall_ms: number;
  /** From the start of `index_folder` to the first correct `search_symbols` answer. */
  first_answer_ms: number;
  /** Rank (1-based) of the probe name in that answer. */
  first_answer_rank: number;
  timings: Record<string, number>;
  /** CPU seconds of the index call: whole process, and its main thread. */
  cpu_s: number;
  main_thread_cpu_s: number;
  /** CPU seconds of the parser workers' threads, and of V8's helper threads (GC, compilers). */
  worker_cpu_s: number;
  v8_helper_cpu_s: number;
  peak_rss_mb: number;
  /** VmHWM when `index_folder` returned, before the first answer built the query facets. */
  peak_rss_index_mb: number;
  /** Wall time of `index_folder` after a one-file change (warm server). */
  one_file_ms: number;
  one_file_changed: number;
  /** The one-file re-index's phase timings, and the file changed. */
  one_file_timings: Record<string, number>;
  one_file_path: string;
  /** The files the index parsed (ok or partial), for the ceiling. */
  parsed: CeilingFile[];
}

/** One round of one corpus. */
interface Round {
  order: string;
  load_full: number;
  load_ceiling: number;
  full: Omit<FullReport, "parsed">;
  ceiling: CeilingResult & { peak_rss_mb: number };
}

/** Entry point for the dispatcher. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  if (flags.has("child")) return await _fullChild(flags);
  if (flags.has("ceiling")) return await _ceilingChild(flags);
  const names = (flags.get("corpora") ?? DEFAULT_CORPORA.join(",")).split(",");
  const rounds = Number(flags.get("rounds") ?? 3);
  const threads = Number(flags.get("threads") ?? navigator.hardwareConcurrency ?? 2);
  const loadBefore = loadAverages();
  const rows: unknown[][] = [];
  const phaseRows: unknown[][] = [];
  const serialRows: unknown[][] = [];
  const results: Record<string, unknown> = {};
  for (const name of names) {
    const src = join("corpora", name);
    try {
      Deno.statSync(src);
    } catch {
      console.error(`bench index: corpus "${name}" missing (run scripts/prepare_corpora.sh)`);
      continue;
    }
    const work = Deno.makeTempDirSync({ prefix: `bench-index-${name}-` });
    try {
      const copy = join(work, name);
      await _run("cp", ["-r", src, copy]);
      const ctags = await _ctags(copy, join(work, "tags"));
      const list = join(work, "parsed.json");
      const done: Round[] = [];
      for (let r = 0; r < rounds; r++) {
        // Round 0 runs the full index first: it lists the files the ceiling parses.
        const fullFirst = r % 2 === 0;
        let full: FullReport | undefined;
        let ceiling: (CeilingResult & { peak_rss_mb: number }) | undefined;
        let loadFull = NaN;
        let loadCeiling = NaN;
        for (const step of fullFirst ? ["full", "ceiling"] : ["ceiling", "full"]) {
          const load = Deno.loadavg()[0]!;
          if (step === "full") {
            loadFull = load;
            // `--v8-flags max-semi-space-size=8,…` (the leading dashes may be left out).
            const v8 = (flags.get("v8-flags") ?? SERVER_V8_FLAGS.slice("--v8-flags=".length))
              .split(",").map((f) => f === "none" || f.startsWith("--") ? f : `--${f}`).join(",");
            full = await _spawnJson<FullReport>(v8 === "none" ? [] : [`--v8-flags=${v8}`], [
              "--child",
              copy,
              "--index",
              join(work, `index-${r}`),
              "--probe",
              PROBES[name] ?? "main",
              ...(flags.has("workers") ? ["--workers", flags.get("workers")!] : []),
            ]);
            Deno.removeSync(join(work, `index-${r}`), { recursive: true });
            if (r === 0) Deno.writeTextFileSync(list, JSON.stringify(full.parsed));
          } else {
            loadCeiling = load;
            ceiling = await _spawnJson<CeilingResult & { peak_rss_mb: number }>([], [
              "--ceiling",
              list,
              "--root",
              copy,
              "--threads",
              String(threads),
            ]);
          }
          console.error(`bench index: ${name} round ${r + 1}/${rounds}: ${step} done`);
        }
        const { parsed: _parsed, ...fullOut } = full!;
        done.push({
          order: fullFirst ? "full, ceiling" : "ceiling, full",
          load_full: loadFull,
          load_ceiling: loadCeiling,
          full: fullOut,
          ceiling: ceiling!,
        });
      }
      const med = (f: (r: Round) => number) => median(done.map(f));
      const cWall = med((r) => r.ceiling.wall_ms);
      const cCpu = med((r) => r.ceiling.cpu_s);
      const fWall = med((r) => r.full.wall_ms);
      const fCpu = med((r) => r.full.cpu_s);
      const first = med((r) => r.full.first_answer_ms);
      const f0 = done[0]!.full;
      rows.push([
        name,
        f0.files,
        f0.symbols,
        rounds,
        cWall / 1000,
        fWall / 1000,
        fWall / cWall,
        cCpu,
        fCpu,
        fCpu / cCpu,
        med((r) => r.full.main_thread_cpu_s),
        first / 1000,
        first / cWall,
        med((r) => r.full.peak_rss_index_mb),
        med((r) => r.full.peak_rss_mb),
        med((r) => r.full.one_file_ms),
        f0.db_bytes / f0.source_bytes,
        ctags.ms / 1000,
        `${Math.min(...done.map((r) => Math.min(r.load_full, r.load_ceiling))).toFixed(1)}–${
          Math.max(...done.map((r) => Math.max(r.load_full, r.load_ceiling))).toFixed(1)
        }`,
      ]);
      const t = (k: string) => med((r) => r.full.timings[k] ?? NaN);
      phaseRows.push([
        name,
        t("total_ms"),
        t("walk_ms"),
        t("read_hash_ms"),
        t("parse_ms"),
        t("store_ms"),
        t("text_index_ms"),
        t("symbol_index_ms"),
        t("secondary_index_ms"),
        t("resolve_ms"),
        t("commit_ms"),
        med((r) => r.full.first_answer_ms - r.full.wall_ms),
      ]);
      // The serial part (issue 32): the main thread's CPU S cannot be split; the rest P (parser
      // workers, V8's helpers) can. On N cores: Amdahl's S + P/N (no overlap of the two), and
      // max(S, (S + P)/N) (the main thread's work overlapping the workers', as the pipeline
      // does). The 2-core figures are the check against the measured wall.
      const main = med((r) => r.full.main_thread_cpu_s);
      const rest = fCpu - main;
      const amdahl = (n: number) => main + rest / n;
      const overlap = (n: number) => Math.max(main, fCpu / n);
      serialRows.push([
        name,
        flags.get("workers") ?? String(navigator.hardwareConcurrency ?? 2),
        fWall / 1000,
        fCpu,
        main,
        main / fCpu,
        med((r) => r.full.worker_cpu_s),
        med((r) => r.full.v8_helper_cpu_s),
        `${amdahl(2).toFixed(1)} / ${overlap(2).toFixed(1)}`,
        `${amdahl(8).toFixed(1)} / ${overlap(8).toFixed(1)}`,
        `${amdahl(16).toFixed(1)} / ${overlap(16).toFixed(1)}`,
        `${(amdahl(16) / (cCpu / 16)).toFixed(1)}x / ${(overlap(16) / (cCpu / 16)).toFixed(1)}x`,
      ]);
      results[name] = {
        ctags_ms: ctags.ms,
        ctags_cpu_s: ctags.cpu_s,
        source_bytes: f0.source_bytes,
        db_bytes: f0.db_bytes,
        median: {
          ceiling_wall_ms: cWall,
          ceiling_cpu_s: cCpu,
          full_wall_ms: fWall,
          full_cpu_s: fCpu,
          wall_ratio: fWall / cWall,
          cpu_ratio: fCpu / cCpu,
          first_answer_ms: first,
          first_answer_ratio: first / cWall,
          peak_rss_index_mb: med((r) => r.full.peak_rss_index_mb),
          peak_rss_mb: med((r) => r.full.peak_rss_mb),
          one_file_ms: med((r) => r.full.one_file_ms),
          db_over_source: f0.db_bytes / f0.source_bytes,
        },
        rounds: done,
      };
    } finally {
      Deno.removeSync(work, { recursive: true });
    }
  }
  console.log(`\nLoad averages at start: ${loadBefore}; at end: ${loadAverages()}\n`);
  console.log(
    `Full index vs the ${threads}-thread parse-only ceiling, medians of the rounds (measured ` +
      "in turns); seconds unless named\n",
  );
  console.log(markdownTable([
    "corpus",
    "files",
    "symbols",
    "rounds",
    "ceiling wall",
    "full wall",
    "wall ×",
    "ceiling CPU",
    "full CPU",
    "CPU ×",
    "main-thread CPU",
    "first answer",
    "first answer ×",
    "RSS at index end MB",
    "peak RSS MB",
    "1-file ms",
    "DB/source",
    "ctags wall",
    "load (1 min)",
  ], rows));
  console.log(
    "\nFull index phases (ms, medians; store includes the secondary indexes; after = first " +
      "answer − index wall)\n",
  );
  console.log(markdownTable([
    "corpus",
    "total",
    "walk",
    "read+hash",
    "parse",
    "store",
    "text index",
    "symbol index",
    "secondary indexes",
    "resolve",
    "commit",
    "after",
  ], phaseRows));
  console.log(
    "\nThe serial part (seconds; CPU of the index call by thread; projected wall on N cores = " +
      "Amdahl S + P/N / overlapped max(S, (S+P)/N), S = main-thread CPU, P = the rest; the " +
      "last column over the ceiling's CPU / 16, the parse-only ceiling on 16 cores)\n",
  );
  console.log(markdownTable([
    "corpus",
    "parser workers",
    "full wall",
    "full CPU",
    "main-thread CPU S",
    "main share",
    "parser workers CPU",
    "V8 helpers CPU",
    "2 cores",
    "8 cores",
    "16 cores",
    "16 cores / 16-core ceiling",
  ], serialRows));
  await writeJson(flags, results);
}

/** Run this script in a new process with `args`; its stdout is one JSON value. */
async function _spawnJson<T>(denoFlags: string[], args: string[]): Promise<T> {
  const out = await new Deno.Command(Deno.execPath(), {
    // -A: the child reads its own CPU times from /proc/self, which Deno grants only to -A.
    args: ["run", "-A", ...denoFlags, new URL(import.meta.url).pathname, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`bench index: child ${args.join(" ")} failed`);
  return JSON.parse(new TextDecoder().decode(out.stdout)) as T;
}

async function _ceilingChild(flags: Map<string, string>): Promise<void> {
  const files = JSON.parse(Deno.readTextFileSync(flags.get("ceiling")!)) as CeilingFile[];
  const threads = Number(flags.get("threads") ?? 2);
  const r = await measureCeiling(flags.get("root")!, files, threads);
  console.log(JSON.stringify({ ...r, peak_rss_mb: (_highWaterMark() ?? NaN) / 1024 / 1024 }));
  // The ceiling's workers hold wasm memory the process need not wait to free.
  Deno.exit(0);
}

/**
 * A full index (`indexLocalFolder`, what `index_folder` runs, for its phase timings), the first
 * correct `search_symbols` answer through the real tool on the same store, then a one-file
 * change re-indexed with the same (warm) parser pool, as a running server does.
 */
async function _fullChild(flags: Map<string, string>): Promise<void> {
  const { Store } = await import("../src/store/mod.ts");
  const { ToolRunner } = await import("../src/server/runner.ts");
  const { indexLocalFolder } = await import("../src/ingest/index_local.ts");
  const { ParserPool } = await import("../src/parser/mod.ts");
  const { DEFAULT_INGEST_CONFIG } = await import("../src/ingest/config.ts");
  const folder = flags.get("child")!;
  const probe = flags.get("probe")!;
  const store = new Store(flags.get("index")!);
  // The pool's default size (the machine's cores) unless `--workers` says otherwise.
  const pool = new ParserPool(
    flags.has("workers") ? { workers: Number(flags.get("workers")) } : {},
  );
  const runner = new ToolRunner({ store, parser: pool, log: () => {} });
  try {
    const cpu0 = _cpuSeconds();
    const t0 = performance.now();
    const indexed = await indexLocalFolder(store, DEFAULT_INGEST_CONFIG, pool, { path: folder });
    const wall = performance.now() - t0;
    const cpu1 = _cpuSeconds();
    const indexRss = _highWaterMark() ?? NaN;
    const repo = indexed.repo;
    let rank = 0;
    let firstAnswer = NaN;
    // Asked until it answers correctly (at once, unless an index is finished in the background).
    for (let attempt = 0; attempt < 10_000 && rank === 0; attempt++) {
      const r = await runner.call("search_symbols", { repo, query: probe, format: "json" });
      if (r.isError) throw new Error(`search_symbols failed: ${r.text}`);
      const names = (JSON.parse(r.text).results as { name: string }[]).map((s) => s.name);
      rank = names.indexOf(probe) + 1;
      firstAnswer = performance.now() - t0;
      if (rank === 0) await new Promise((r) => setTimeout(r, 20));
    }
    if (rank === 0) throw new Error(`search_symbols never listed ${probe}`);
    const peakRss = _highWaterMark() ?? NaN;
    const index = store.repo(repo);
    const files = index.listFiles();
    const parsed = files.filter((f) => f.status !== "skipped")
      .map((f) => ({ path: f.path, language: f.language }));
    // Change one file the way an editor does: append a function, new mtime.
    // A Go or Python file (as before), else a C file (linux).
    const target = files.find((f) => f.language === "go" || f.language === "python") ??
      files.find((f) => f.language === "c")!;
    const original = index.fileBytes(target.path)!;
    const extra = appendedFunction(target.path).code;
    Deno.writeFileSync(
      join(folder, target.path),
      new Uint8Array([...original, ...new TextEncoder().encode(extra)]),
    );
    const t1 = performance.now();
    const again = await indexLocalFolder(store, DEFAULT_INGEST_CONFIG, pool, { path: folder });
    const oneFile = performance.now() - t1;
    // Put the file back, for the next round.
    Deno.writeFileSync(join(folder, target.path), original);
    const dbPath = store.dbPath(repo);
    let db = Deno.statSync(dbPath).size;
    try {
      db += Deno.statSync(dbPath + "-wal").size;
    } catch { /* no WAL left */ }
    const report: FullReport = {
      files: indexed.file_count,
      symbols: indexed.symbol_count,
      source_bytes: files.reduce((n, f) => n + f.size, 0),
      db_bytes: db,
      wall_ms: wall,
      first_answer_ms: firstAnswer,
      first_answer_rank: rank,
      timings: { ...indexed.timings },
      cpu_s: cpu1.process - cpu0.process,
      main_thread_cpu_s: cpu1.main - cpu0.main,
      // The parser workers start with the index (none is alive at cpu0).
      worker_cpu_s: cpu1.workers - Math.min(cpu0.workers, cpu1.workers),
      v8_helper_cpu_s: cpu1.v8 - cpu0.v8,
      peak_rss_mb: peakRss / 1024 / 1024,
      peak_rss_index_mb: indexRss / 1024 / 1024,
      one_file_ms: oneFile,
      one_file_changed: again.changed,
      one_file_timings: { ...again.timings },
      one_file_path: target.path,
      parsed,
    };
    console.log(JSON.stringify(report));
  } finally {
    await pool.close();
    store.close();
  }
}

/** This process' peak resident set (VmHWM) in bytes, or undefined where it cannot be read. */
function _highWaterMark(): number | undefined {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(Deno.readTextFileSync("/proc/self/status"))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) of this process and of its main thread, from /proc (Linux). */
function _cpuSeconds(): { process: number; main: number; workers: number; v8: number } {
  const read = (path: string) => {
    try {
      const fields = Deno.readTextFileSync(path).split(") ")[1]!.split(" ");
      return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks
    } catch {
      return NaN;
    }
  };
  // Each live thread by its name: `worker-N` are the parser pool's workers (node:worker_threads),
  // `V8 …` V8's own helpers (concurrent GC and compilation), the main thread is `deno`.
  let workers = 0;
  let v8 = 0;
  for (const t of Deno.readDirSync("/proc/self/task")) {
    if (Number(t.name) === Deno.pid) continue;
    let comm = "";
    try {
      comm = Deno.readTextFileSync(`/proc/self/task/${t.name}/comm`).trim();
    } catch {
      continue; // the thread ended meanwhile
    }
    const cpu = read(`/proc/self/task/${t.name}/stat`);
    if (!Number.isFinite(cpu)) continue;
    if (comm.startsWith("worker-")) workers += cpu;
    else if (comm.startsWith("V8 ")) v8 += cpu;
  }
  return {
    process: read("/proc/self/stat"),
    main: read(`/proc/self/task/${Deno.pid}/stat`),
    workers,
    v8,
  };
}

/** Wall time and CPU seconds (user + system, from bash's `time`) of `ctags -R`. */
async function _ctags(folder: string, tagsFile: string): Promise<{ ms: number; cpu_s: number }> {
  const t = performance.now();
  const out = await new Deno.Command("bash", {
    args: [
      "-c",
      'TIMEFORMAT="%U %S"; time ctags -R -f "$1" "$2" 2>/dev/null',
      "_",
      tagsFile,
      folder,
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - t;
  if (!out.success) throw new Error("ctags failed");
  const [user, sys] = new TextDecoder().decode(out.stderr).trim().split(/\s+/).slice(-2).map(
    Number,
  );
  return { ms, cpu_s: (user ?? NaN) + (sys ?? NaN) };
}

async function _run(cmd: string, args: string[]): Promise<void> {
  const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "null" }).output();
  if (!out.success) throw new Error(`${cmd} failed`);
}

if (import.meta.main) await main(Deno.args);
