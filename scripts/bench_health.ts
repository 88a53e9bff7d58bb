/**
 * `deno task bench health [--corpora pytest,werkzeug,django] [--speed gostd] [--index DIR]
 * [--samples N] [--json FILE]`: the code-health tools on the real corpora (corpora/), through a
 * real stdio client.
 *
 * - Dead code, Python corpora: `find_dead_code` (min_confidence 0, every finding) against an
 *   independent truth, scripts/dead_truth_python.py (Python's `ast`, vulture's rule: a function,
 *   method or class is unused when its name is used nowhere in the package outside its own
 *   body). Precision and recall of the functions, methods and classes of non-test `.py` files
 *   (dunder names aside: the runtime calls them) at each confidence threshold. The rules were
 *   written looking at django and werkzeug; pytest is held out.
 * - Speed (`--speed`, default gostd): check_references of `--samples` + 1 function names spread
 *   over the index (the first call builds the mention index), then each dead-code call's first call
 *   (builds the shared analysis) and its p50 over `--samples` warm calls (default 10).
 *
 * - Untested symbols (`--coverage chi`, Go corpora, needs `go` on PATH): get_untested_symbols
 *   against the line coverage of the corpus's own suite (`go test -coverprofile`, in a copy;
 *   `--coverprofile FILE` reuses a profile): per function of `go tool cover -func`, 0% covered vs
 *   listed as untested (any confidence).
 *
 * - Rename safety (`--rename werkzeug,pytest,express4`, `--renames 30`, `--seed 30`): renames made
 *   in a copy of each corpus (bench-out/rename-copies), checked against the language's own
 *   parser (scripts/bench_rename.ts): plan recall and precision, and the share of plans that leave
 *   nothing unresolved once applied and re-indexed. Half the renames per language.
 *
 * Targets (issue 30): dead-code precision ≥ 0.9 at the default confidence (0.8); every tool p50
 * under 200 ms on gostd after the first call; rename plans recall ≥ 0.95 and leave no unresolved
 * reference.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Store } from "../src/store/store.ts";
import { callTool, connectServer } from "./bench_graph.ts";
import { copyCorpus, renameCorpus, type RenameResult } from "./bench_rename.ts";
import {
  loadAverages,
  markdownTable,
  median,
  parseFlags,
  serverEnv,
  writeJson,
} from "./bench_util.ts";

const CHECKOUT = resolve(fileURLToPath(new URL("..", import.meta.url)));
/**
 * The tools timed: the arguments of each call (`repo` added) and of its i-th warm call (varied so
 * that no answer is a repeat).
 */
const SPEED_CALLS: [string, Record<string, unknown>, (i: number) => Record<string, unknown>][] = [
  ["find_dead_code", {}, (i) => ({ max_results: 50 + i })],
  ["find_dead_code", { min_confidence: 0 }, (i) => ({ max_results: 50 + i })],
  ["get_dead_code_v2", {}, (i) => ({ max_results: 50 + i })],
  ["get_untested_symbols", {}, (i) => ({ max_results: 50 + i })],
  ["get_symbol_importance", {}, (i) => ({ top_n: 20 + i })],
  ["get_symbol_importance", { algorithm: "degree" }, (i) => ({ top_n: 20 + i })],
  ["get_coupling_metrics", {}, (i) => ({ max_results: 50 + i })],
  ["get_coupling_metrics", { module_path: "net/http" }, (i) => ({ max_results: 50 + i })],
  ["get_layer_violations", {}, (i) => ({ max_results: 50 + i })],
  [
    "winnow_symbols",
    {
      criteria: [
        { axis: "kind", op: "in", value: ["function", "method"] },
        { axis: "callers", op: ">=", value: 3 },
        { axis: "tested", op: "eq", value: false },
      ],
    },
    (i) => ({ max_results: 20 + i }),
  ],
  ["winnow_symbols", { rank_by: "complexity" }, (i) => ({ max_results: 20 + i })],
  ["get_repo_health", {}, (i) => ({ top_n: 1 + (i % 20) })],
];
/** Confidence thresholds the dead-code quality is reported at. */
const THRESHOLDS = [1, 0.9, 0.8, 0.7, 0.5, 0.3];

const _call = callTool;

/** One definition of the truth (scripts/dead_truth_python.py). */
interface TruthRow {
  file: string;
  name: string;
  kind: string;
  line: number;
  first_line: number;
  end_line: number;
  used: boolean;
}

/** A test file by the usual Python conventions (the truth's population leaves them out). */
function _pythonTest(path: string): boolean {
  return /(?:^|\/)(?:tests?|testing)\//.test(path) ||
    /(?:^|\/)(?:test_[^/]*|[^/]*_test|conftest)\.py$/.test(path);
}

interface DeadQuality {
  corpus: string;
  threshold: number;
  population: number;
  unused: number;
  found: number;
  tp: number;
  precision: number;
  recall: number;
  falsePositives: string[];
}

async function _pythonDeadQuality(
  client: Client,
  repo: string,
  corpus: string,
  root: string,
): Promise<DeadQuality[]> {
  const out = new Deno.Command("python3", {
    args: [join(CHECKOUT, "scripts", "dead_truth_python.py"), root],
    stdout: "piped",
  }).outputSync();
  if (!out.success) throw new Error("scripts/dead_truth_python.py failed");
  const truth = (JSON.parse(new TextDecoder().decode(out.stdout)) as TruthRow[])
    .filter((t) => !_pythonTest(t.file) && !/^__\w+__$/.test(t.name));
  const byKey = new Map<string, TruthRow>();
  for (const t of truth) {
    for (let l = t.first_line; l <= t.line; l++) byKey.set(`${t.file}:${l}:${t.name}`, t);
  }
  const body = await _call(client, "find_dead_code", {
    repo,
    min_confidence: 0,
    max_results: 5000,
  });
  const found =
    (body.dead_symbols as { file: string; line: number; name: string; confidence: number }[])
      .filter((d) => d.file.endsWith(".py"));
  const unused = truth.filter((t) => !t.used);
  return THRESHOLDS.map((threshold) => {
    const ours = found.filter((d) => d.confidence >= threshold);
    const matched = ours.map((d) => ({ d, t: byKey.get(`${d.file}:${d.line}:${d.name}`) }));
    const tp = matched.filter((m) => m.t !== undefined && !m.t.used);
    const fps = matched.filter((m) => m.t === undefined || m.t.used);
    const hit = new Set(tp.map((m) => m.t!));
    return {
      corpus,
      threshold,
      population: truth.length,
      unused: unused.length,
      found: ours.length,
      tp: tp.length,
      precision: ours.length === 0 ? 1 : tp.length / ours.length,
      recall: unused.length === 0 ? 1 : unused.filter((t) => hit.has(t)).length / unused.length,
      falsePositives: fps.slice(0, 8).map((m) =>
        `${m.d.file}:${m.d.line} ${m.d.name} (${m.d.confidence}${
          m.t === undefined ? ", not in truth" : ", used"
        })`
      ),
    };
  });
}

/** Agreement of get_untested_symbols with the line coverage of a corpus's own test suite. */
interface CoverageAgreement {
  corpus: string;
  functions: number;
  uncovered: number;
  untested: number;
  agree: number;
  precision: number;
  recall: number;
  accuracy: number;
  disagreements: string[];
}

/**
 * `go tool cover -func` of a Go corpus's suite (`go test -coverprofile`, run in a copy of the
 * corpus unless `profile` is given): file:line → coverage percent, per function.
 */
function _goFunctionCoverage(root: string, profile: string | undefined): Map<string, number> {
  const go = (args: string[], cwd: string) => {
    const out = new Deno.Command("go", { args, cwd, stdout: "piped", stderr: "piped" })
      .outputSync();
    if (!out.success) {
      throw new Error(`go ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
    }
    return new TextDecoder().decode(out.stdout);
  };
  const copy = Deno.makeTempDirSync({ prefix: "codemunch-cover-" });
  try {
    new Deno.Command("cp", { args: ["-r", `${root}/.`, copy] }).outputSync();
    const cover = profile ?? join(copy, "cover.out");
    if (profile === undefined) go(["test", `-coverprofile=${cover}`, "./..."], copy);
    const module = /^module\s+(\S+)/m.exec(Deno.readTextFileSync(join(root, "go.mod")))![1]!;
    const out = new Map<string, number>();
    for (const line of go(["tool", "cover", `-func=${cover}`], copy).split("\n")) {
      const m = /^(\S+?):(\d+):\s+\S+\s+([\d.]+)%$/.exec(line.trim());
      if (m === null || !m[1]!.startsWith(module + "/")) continue;
      out.set(`${m[1]!.slice(module.length + 1)}:${m[2]}`, Number(m[3]));
    }
    return out;
  } finally {
    Deno.removeSync(copy, { recursive: true });
  }
}

async function _coverageAgreement(
  client: Client,
  repo: string,
  corpus: string,
  root: string,
  profile: string | undefined,
): Promise<CoverageAgreement> {
  const coverage = _goFunctionCoverage(root, profile);
  const body = await _call(client, "get_untested_symbols", { repo, max_results: 2000 });
  const ours = new Set(
    (body.symbols as { file: string; line: number }[]).map((s) => `${s.file}:${s.line}`),
  );
  const uncovered = [...coverage].filter(([, pct]) => pct === 0).map(([k]) => k);
  const untested = [...coverage.keys()].filter((k) => ours.has(k));
  const agree = untested.filter((k) => coverage.get(k) === 0).length;
  const same = [...coverage].filter(([k, pct]) => ours.has(k) === (pct === 0)).length;
  const disagreements = [...coverage].filter(([k, pct]) => ours.has(k) !== (pct === 0))
    .slice(0, 10).map(([k, pct]) =>
      `${k} covered ${pct}%, ours ${ours.has(k) ? "untested" : "reached"}`
    );
  return {
    corpus,
    functions: coverage.size,
    uncovered: uncovered.length,
    untested: untested.length,
    agree,
    precision: untested.length === 0 ? 1 : agree / untested.length,
    recall: uncovered.length === 0 ? 1 : agree / uncovered.length,
    accuracy: coverage.size === 0 ? 1 : same / coverage.size,
    disagreements,
  };
}

/** get_coupling_metrics against a direct scan of a Go corpus's import declarations. */
interface CouplingAgreement {
  corpus: string;
  modules: number;
  scanEdges: number;
  ourEdges: number;
  both: number;
  precision: number;
  recall: number;
  exact: number;
  disagreements: string[];
}

/** The import paths a Go file declares (`import "p"`, aliases, and `import ( … )` blocks). */
export function goImportPaths(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/\/\/[^\n]*/g, "");
  const out: string[] = [];
  for (const m of code.matchAll(/^\s*import\s*(?:[\w.]+\s+)?"([^"]+)"/gm)) out.push(m[1]!);
  for (const block of code.matchAll(/^\s*import\s*\(([^)]*)\)/gm)) {
    for (const m of block[1]!.matchAll(/(?:^|\n)\s*(?:[\w.]+\s+)?"([^"]+)"/g)) out.push(m[1]!);
  }
  return out;
}

/**
 * Package-level import edges of a Go standard-library tree read straight from the files (not
 * from our graph): each indexed .go file's declared imports, an import path mapped to the
 * folder Go would load it from (cmd's vendor for cmd, then the std vendor, then the path
 * itself), kept when that folder holds an indexed .go file. Compared edge by edge with
 * get_coupling_metrics' dependencies of every module.
 */
async function _couplingAgreement(
  client: Client,
  repo: string,
  corpus: string,
  root: string,
  store: Store,
): Promise<CouplingAgreement> {
  const goFiles = store.repo(repo).listFiles().map((f) => f.path).filter((p) => p.endsWith(".go"));
  const folders = new Set(goFiles.map((p) => p.slice(0, Math.max(0, p.lastIndexOf("/")))));
  const scan = new Map<string, Set<string>>();
  for (const path of goFiles) {
    const from = path.slice(0, Math.max(0, path.lastIndexOf("/")));
    const text = Deno.readTextFileSync(join(root, path));
    for (const imp of goImportPaths(text)) {
      const candidates = [
        ...(from.startsWith("cmd/") || from === "cmd" ? [`cmd/vendor/${imp}`] : []),
        `vendor/${imp}`,
        imp,
      ];
      const to = candidates.find((c) => folders.has(c));
      if (to === undefined || to === from) continue;
      let set = scan.get(from);
      if (set === undefined) scan.set(from, set = new Set());
      set.add(to);
    }
  }
  let scanEdges = 0, ourEdges = 0, both = 0, exact = 0;
  const disagreements: string[] = [];
  const ca = new Map<string, number>();
  for (const deps of scan.values()) for (const d of deps) ca.set(d, (ca.get(d) ?? 0) + 1);
  for (const module of [...folders].sort()) {
    const body = await _call(client, "get_coupling_metrics", {
      repo,
      module_path: module,
      max_results: 1000,
    });
    const ours = new Set(body.dependencies as string[]);
    const theirs = scan.get(module) ?? new Set<string>();
    scanEdges += theirs.size;
    ourEdges += ours.size;
    for (const d of ours) if (theirs.has(d)) both++;
    if (ours.size === theirs.size && body.ca === (ca.get(module) ?? 0)) exact++;
    const missing = [...theirs].filter((d) => !ours.has(d));
    const extra = [...ours].filter((d) => !theirs.has(d));
    if ((missing.length > 0 || extra.length > 0) && disagreements.length < 12) {
      disagreements.push(
        `${module}: missing ${missing.slice(0, 3).join(" ") || "-"}; extra ${
          extra.slice(0, 3).join(" ") || "-"
        }`,
      );
    }
  }
  return {
    corpus,
    modules: folders.size,
    scanEdges,
    ourEdges,
    both,
    precision: ourEdges === 0 ? 1 : both / ourEdges,
    recall: scanEdges === 0 ? 1 : both / scanEdges,
    exact,
    disagreements,
  };
}

interface Speed {
  corpus: string;
  call: string;
  first: number;
  p50: number;
  /** The slowest warm call. */
  max: number;
}

/** `n` functions and methods spread over a repo's index (the targets of the per-symbol calls). */
function _spread(store: Store, repo: string, n: number): { name: string; id: string }[] {
  const all = store.repo(repo).symbolsOfKinds(["function", "method"]);
  const step = Math.max(1, Math.floor(all.length / n));
  return Array.from({ length: Math.min(n, all.length) }, (_, i) => all[i * step]!);
}

/** `n` calls of `tool`, the i-th with `args(i)`: the time of each, in ms. */
async function _timeCalls(
  client: Client,
  repo: string,
  tool: string,
  args: (i: number) => Record<string, unknown>,
  n: number,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await _call(client, tool, { repo, ...args(i) });
    times.push(performance.now() - t);
  }
  return times;
}

/** A speed row: the first call, and the median of the others. */
function _speedRow(corpus: string, call: string, times: number[]): Speed {
  const warm = times.slice(1);
  return { corpus, call, first: times[0] ?? NaN, p50: median(warm), max: Math.max(...warm) };
}

async function _speed(
  client: Client,
  repo: string,
  corpus: string,
  samples: number,
  symbols: { name: string; id: string }[],
): Promise<Speed[]> {
  const n = symbols.length;
  const out: Speed[] = [];
  const refs = await _timeCalls(client, repo, "check_references", (i) => ({
    identifier: symbols[i]!.name,
  }), n);
  out.push(_speedRow(corpus, `check_references (${n} names spread over the index)`, refs));
  for (const [tool, args, vary] of SPEED_CALLS) {
    const times = await _timeCalls(client, repo, tool, (i) => ({
      ...args,
      ...(i === 0 ? {} : vary(i - 1)),
    }), samples + 1);
    out.push(_speedRow(corpus, `${tool} ${JSON.stringify(args)}`, times));
  }
  // A different symbol each call (the first builds the call graph's reverse and name index).
  const related = await _timeCalls(client, repo, "get_related_symbols", (i) => ({
    symbol_id: symbols[i]!.id,
  }), n);
  out.push(
    _speedRow(corpus, `get_related_symbols (${n} functions spread over the index)`, related),
  );
  return out;
}

/** First call and warm p50 of each refactoring tool (a different symbol per call). */
async function _refactorSpeed(
  client: Client,
  repo: string,
  corpus: string,
  symbols: { id: string; name: string }[],
  samples: number,
): Promise<Speed[]> {
  const n = symbols.length;
  const checks = await _timeCalls(client, repo, "check_rename_safe", (i) => ({
    symbol_id: symbols[i]!.id,
    new_name: `${symbols[i]!.name}Rn`,
  }), n);
  const plans = await _timeCalls(client, repo, "plan_refactoring", (i) => ({
    symbol: symbols[i]!.id,
    refactor_type: "rename",
    new_name: `${symbols[i]!.name}Rn2`,
  }), n);
  const extract = await _timeCalls(client, repo, "get_extraction_candidates", (i) => ({
    max_results: 50 + i,
  }), samples + 1);
  return [
    _speedRow(corpus, `check_rename_safe (${n} functions spread over the index)`, checks),
    _speedRow(corpus, `plan_refactoring rename (the same ${n}, another new name)`, plans),
    _speedRow(corpus, "get_extraction_candidates (whole repo)", extract),
  ];
}

/** Renames per corpus: half of `total` per language, shared out over its corpora. */
function _renameShares(corpora: string[], total: number): Map<string, number> {
  const python = corpora.filter((c) => ["werkzeug", "pytest", "django"].includes(c));
  const js = corpora.filter((c) => !python.includes(c));
  const out = new Map<string, number>();
  const share = (list: string[], n: number) =>
    list.forEach((c, i) => out.set(c, Math.floor(n / list.length) + (i < n % list.length ? 1 : 0)));
  const half = python.length === 0 || js.length === 0 ? total : Math.ceil(total / 2);
  share(python, python.length === 0 ? 0 : half);
  share(js, js.length === 0 ? 0 : total - (python.length === 0 ? 0 : half));
  return out;
}

async function _renames(
  env: Record<string, string>,
  indexDir: string,
  copies: string,
  corpora: string[],
  total: number,
  seed: number,
): Promise<RenameResult[]> {
  const out: RenameResult[] = [];
  for (const [corpus, count] of _renameShares(corpora, total)) {
    const root = copyCorpus(Deno.realPathSync(join(CHECKOUT, "corpora", corpus)), copies, corpus);
    const client = await connectServer(env);
    try {
      const repo = String((await _call(client, "index_folder", { path: root })).repo);
      out.push(...await renameCorpus(client, indexDir, repo, corpus, root, count, seed));
    } finally {
      await client.close();
      Deno.removeSync(root, { recursive: true });
    }
  }
  return out;
}

function _renameReport(renames: RenameResult[]): void {
  const byLanguage = new Map<string, RenameResult[]>();
  for (const r of renames) byLanguage.set(r.language, [...(byLanguage.get(r.language) ?? []), r]);
  const rows = [...byLanguage, ["all", renames] as const].map(([language, list]) => {
    const truth = list.reduce((n, r) => n + r.truth, 0);
    const edits = list.reduce((n, r) => n + r.edits, 0);
    const hits = list.reduce((n, r) => n + r.hits, 0);
    return [
      language,
      list.length,
      truth,
      edits,
      hits,
      (truth === 0 ? 1 : hits / truth).toFixed(3),
      (edits === 0 ? 1 : hits / edits).toFixed(3),
      list.reduce((n, r) => n + r.stringEdits, 0),
      `${list.filter((r) => r.clean).length}/${list.length}`,
    ];
  });
  console.log(
    "\n" + markdownTable(
      [
        "renames",
        "count",
        "truth sites",
        "plan code edits",
        "both",
        "recall",
        "precision",
        "string edits",
        "clean after re-index",
      ],
      rows,
    ),
  );
  for (const r of renames.filter((r) => !r.clean || r.hits < r.truth || r.hits < r.edits)) {
    console.log(
      `  ${r.symbol}: ${r.hits}/${r.truth} sites, ${r.edits} edits${
        r.why.length > 0 ? `; ${r.why.join("; ")}` : ""
      }${r.misses.length > 0 ? `; missed ${r.misses.join(", ")}` : ""}${
        r.extras.length > 0 ? `; not in the truth ${r.extras.join(", ")}` : ""
      }`,
    );
  }
}

export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const corpora = (flags.get("corpora") ?? "pytest,werkzeug,django").split(",").filter((c) =>
    c !== ""
  );
  const speedCorpora = (flags.get("speed") ?? "gostd").split(",").filter((c) => c !== "");
  const coverageCorpora = (flags.get("coverage") ?? "").split(",").filter((c) => c !== "");
  const coverage: CoverageAgreement[] = [];
  const samples = Number(flags.get("samples") ?? 10);
  const indexDir = resolve(flags.get("index") ?? join(CHECKOUT, "bench-out", "health-index"));
  const renameCorpora = (flags.get("rename") ?? "").split(",").filter((c) => c !== "");
  const copies = join(CHECKOUT, "bench-out", "rename-copies");
  Deno.mkdirSync(copies, { recursive: true });
  const env = serverEnv(
    indexDir,
    `${Deno.realPathSync(join(CHECKOUT, "corpora"))}:${Deno.realPathSync(copies)}`,
  );
  const loads = [loadAverages()];
  const quality: DeadQuality[] = [];
  const speed: Speed[] = [];
  const coupling: CouplingAgreement[] = [];
  for (const corpus of [...new Set([...corpora, ...speedCorpora, ...coverageCorpora])]) {
    const dir = Deno.realPathSync(join(CHECKOUT, "corpora", corpus));
    const client = await connectServer(env);
    try {
      const repo = String((await _call(client, "index_folder", { path: dir })).repo);
      if (speedCorpora.includes(corpus)) {
        const symbols = _spread(new Store(indexDir), repo, samples + 1);
        speed.push(...await _speed(client, repo, corpus, samples, symbols));
        speed.push(...await _refactorSpeed(client, repo, corpus, symbols, samples));
        coupling.push(await _couplingAgreement(client, repo, corpus, dir, new Store(indexDir)));
      }
      if (coverageCorpora.includes(corpus)) {
        const profile = flags.get("coverprofile");
        coverage.push(await _coverageAgreement(client, repo, corpus, dir, profile));
      }
      if (corpora.includes(corpus)) {
        quality.push(...await _pythonDeadQuality(client, repo, corpus, dir));
      }
    } finally {
      await client.close();
    }
  }
  const renames = renameCorpora.length === 0 ? [] : await _renames(
    env,
    indexDir,
    copies,
    renameCorpora,
    Number(flags.get("renames") ?? 30),
    Number(flags.get("seed") ?? 30),
  );
  loads.push(loadAverages());
  console.log(markdownTable(
    [
      "corpus",
      "min_confidence",
      "truth population",
      "truth unused",
      "found",
      "tp",
      "precision",
      "recall",
    ],
    quality.map((q) => [
      q.corpus,
      q.threshold,
      q.population,
      q.unused,
      q.found,
      q.tp,
      q.precision.toFixed(3),
      q.recall.toFixed(3),
    ]),
  ));
  for (const q of quality.filter((q) => q.threshold === 0.8 || q.threshold === 0.5)) {
    if (q.falsePositives.length > 0) {
      console.log(
        `\n${q.corpus} ≥ ${q.threshold}, not unused by the truth:\n  ${
          q.falsePositives.join("\n  ")
        }`,
      );
    }
  }
  console.log(
    "\n" + markdownTable(
      ["corpus", "call", "first ms", "warm p50 ms", "warm max ms"],
      speed.map((s) => [s.corpus, s.call, s.first.toFixed(0), s.p50.toFixed(1), s.max.toFixed(1)]),
    ),
  );
  if (coupling.length > 0) {
    console.log(
      "\n" + markdownTable(
        [
          "corpus",
          "modules",
          "scan edges",
          "our edges",
          "both",
          "precision",
          "recall",
          "Ca and Ce exact",
        ],
        coupling.map((c) => [
          c.corpus,
          c.modules,
          c.scanEdges,
          c.ourEdges,
          c.both,
          c.precision.toFixed(3),
          c.recall.toFixed(3),
          `${c.exact}/${c.modules}`,
        ]),
      ),
    );
    for (const c of coupling) {
      console.log(`\n${c.corpus} coupling disagreements:\n  ${c.disagreements.join("\n  ")}`);
    }
  }
  if (coverage.length > 0) {
    console.log(
      "\n" + markdownTable(
        [
          "corpus",
          "functions",
          "0% covered",
          "untested (ours)",
          "both",
          "precision",
          "recall",
          "agreement",
        ],
        coverage.map((c) => [
          c.corpus,
          c.functions,
          c.uncovered,
          c.untested,
          c.agree,
          c.precision.toFixed(3),
          c.recall.toFixed(3),
          c.accuracy.toFixed(3),
        ]),
      ),
    );
    for (const c of coverage) {
      console.log(`\n${c.corpus} disagreements:\n  ${c.disagreements.join("\n  ")}`);
    }
  }
  if (renames.length > 0) _renameReport(renames);
  console.log(`\nms client-side over stdio; ${loads.join(", ")}`);
  await writeJson(flags, { quality, speed, coverage, renames, coupling, load: loads });
}

if (import.meta.main) await main(Deno.args);
