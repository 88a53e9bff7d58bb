/**
 * `deno task bench graph [--corpora gostd,gin] [--index DIR] [--samples N] [--first-runs N]
 * [--json FILE]`: the code-graph tools on the real corpora (corpora/, see prepare_corpora.sh),
 * through a real stdio client.
 *
 * - Latency of each tool, p50/p95: **first call** (a fresh server per call: spawn, then one call;
 *   the time of that call alone), **warm** (one server, after one call of every tool has built the
 *   shared graph facets: `--samples` distinct targets per tool, each asked for the first time), and
 *   **repeat** (the same targets asked again).
 * - Quality on Go corpora, against an independent ground truth from the source text
 *   (scripts/graph_truth.ts: import declarations and `F(` / `pkg.F(` / `.M(` call sites found
 *   with regular expressions, no tree-sitter and no index): precision and recall of
 *   find_importers over every package with at most 200 importers (one file per package), and of
 *   find_references (call rows) for a deterministic sample of functions and of methods.
 *
 * - Quality on JavaScript corpora (express4): find_references of the methods assigned to plain
 *   objects against scripts/graph_truth_js.ts; on Python corpora (werkzeug, django):
 *   find_importers of every module against scripts/graph_truth_python.py (Python's `ast`, python3).
 *   `--quality-only` skips the latency runs.
 *
 * Targets on gostd: every tool p50 < 50 ms warm and < 500 ms first call; find_importers recall and
 * precision ≥ 0.98; find_references for functions and methods recall ≥ 0.9 at precision ≥ 0.9.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { decode } from "../mod.ts";
import { Store } from "../src/store/store.ts";
import { permissionFlags, permissionInputs } from "./serve.ts";
import {
  loadAverages,
  markdownTable,
  median,
  parseFlags,
  percentile,
  serverEnv,
  writeJson,
} from "./bench_util.ts";
import { dirOf, GoTruth } from "./graph_truth.ts";
import { JsTruth } from "./graph_truth_js.ts";

const CHECKOUT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const TOOLS = [
  "find_references",
  "find_importers",
  "get_call_hierarchy",
  "get_dependency_graph",
  "get_dependency_cycles",
  "get_blast_radius",
  "get_impact_preview",
  "get_class_hierarchy",
] as const;
type Tool = typeof TOOLS[number];

function _env(indexDir: string): Record<string, string> {
  // The real path: corpora/ is often a symlink, and the server checks real paths.
  return serverEnv(indexDir, Deno.realPathSync(join(CHECKOUT, "corpora")));
}

/**
 * CPU time (user + system) a process has used so far, in ms (Linux; NaN elsewhere). Read through
 * `cat`: Deno grants /proc/<pid> reads only with --allow-all, the bench runs with --allow-run.
 */
function _cpuMs(pid: number | null): number {
  if (pid === null) return NaN;
  try {
    const out = new Deno.Command("cat", { args: [`/proc/${pid}/stat`], stdout: "piped" })
      .outputSync();
    const stat = new TextDecoder().decode(out.stdout);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  } catch {
    return NaN;
  }
}

/** A stdio client of a spawned server, and a json tool call through it (bench_health.ts too). */
export { _call as callTool, _connect as connectServer };

/** The pid of the server behind a client. */
const serverPids = new WeakMap<Client, number | null>();

async function _connect(env: Record<string, string>): Promise<Client> {
  const flags = permissionFlags(permissionInputs((n) => env[n], CHECKOUT));
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...flags, join(CHECKOUT, "main.ts"), "serve"],
    env,
    cwd: CHECKOUT,
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-graph", version: "0" });
  await client.connect(transport);
  serverPids.set(client, transport.pid);
  return client;
}

async function _call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const r = await client.callTool({ name, arguments: { ...args, format: "json" } }, undefined, {
    timeout: 600_000,
  });
  const text = (r.content as { text: string }[])[0]!.text;
  if (r.isError) throw new Error(`${name} failed: ${text}`);
  return decode(text) as Record<string, unknown>;
}

/** Server-side `_meta.timing_ms` and server CPU time of the last timed call. */
let lastServerMs = NaN;
let lastServerCpuMs = NaN;

async function _timed(client: Client, name: string, args: Record<string, unknown>) {
  const pid = serverPids.get(client) ?? null;
  const cpu0 = _cpuMs(pid);
  const t0 = performance.now();
  const body = await _call(client, name, args);
  const ms = performance.now() - t0;
  lastServerCpuMs = _cpuMs(pid) - cpu0;
  lastServerMs = Number((body._meta as { timing_ms?: number } | undefined)?.timing_ms ?? NaN);
  return ms;
}

/** `n` elements spread evenly over `items` (deterministic). */
function _spread<T>(items: readonly T[], n: number): T[] {
  if (items.length === 0) return [];
  // Few items (a small corpus): repeat them so every run has a target.
  if (items.length <= n) return Array.from({ length: n }, (_, i) => items[i % items.length]!);
  const step = items.length / n;
  return Array.from({ length: n }, (_, i) => items[Math.floor(i * step)]!);
}

/** Arguments per tool for `n` distinct targets of a repo, from its index. */
function _targets(store: Store, repo: string, n: number): Record<Tool, Record<string, unknown>[]> {
  const index = store.repo(repo);
  const isTest = (p: string) => /(^|\/)(testdata|tests?)\/|_test\.go$|\.test\.[jt]s$/.test(p);
  const functions = index.symbolsOfKinds(["function", "method"]).filter((s) => !isTest(s.file));
  const classes = index.symbolsOfKinds(["class", "type"]).filter((s) => !isTest(s.file));
  const files = index.listFiles().map((f) => f.path).filter((p) =>
    !isTest(p) && /\.(go|py|[jt]sx?)$/.test(p)
  );
  const fns = _spread(functions, n + 1);
  const fls = _spread(files, n + 1);
  const cls = _spread(classes, n + 1);
  return {
    find_references: fns.map((s) => ({ identifier: s.id })),
    find_importers: fls.map((f) => ({ file_path: f })),
    get_call_hierarchy: fns.map((s) => ({ symbol_id: s.id })),
    get_dependency_graph: fls.map((f) => ({ file: f, direction: "both", depth: 2 })),
    get_dependency_cycles: fls.map(() => ({})),
    get_blast_radius: fns.map((s) => ({ symbol: s.id })),
    get_impact_preview: fns.map((s) => ({ symbol_id: s.id })),
    get_class_hierarchy: cls.map((s) => ({ class_name: s.id })),
  };
}

interface Quality {
  what: string;
  samples: number;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  /** A few disagreements, for checking by hand. */
  examples: string[];
}

function _quality(
  what: string,
  pairs: { gt: Set<string>; ours: Set<string>; label: string }[],
): Quality {
  let tp = 0, fp = 0, fn = 0;
  const examples: string[] = [];
  for (const { gt, ours, label } of pairs) {
    for (const k of ours) {
      if (gt.has(k)) tp++;
      else {
        fp++;
        if (examples.length < 6) examples.push(`extra ${label} @ ${k}`);
      }
    }
    for (const k of gt) {
      if (!ours.has(k)) {
        fn++;
        if (examples.length < 12) examples.push(`missed ${label} @ ${k}`);
      }
    }
  }
  return {
    what,
    samples: pairs.length,
    tp,
    fp,
    fn,
    precision: tp + fp === 0 ? 1 : tp / (tp + fp),
    recall: tp + fn === 0 ? 1 : tp / (tp + fn),
    examples,
  };
}

async function _goQuality(
  client: Client,
  store: Store,
  repo: string,
  root: string,
  samples: number,
): Promise<Quality[]> {
  const index = store.repo(repo);
  const goFiles = index.listFiles().map((f) => f.path).filter((p) => p.endsWith(".go"));
  const modules: Record<string, string> = {};
  try {
    const m = /^\s*module\s+"?([^\s"]+)/m.exec(Deno.readTextFileSync(join(root, "go.mod")));
    if (m) modules[""] = m[1]!;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const truth = new GoTruth(goFiles, (p) => Deno.readTextFileSync(join(root, p)), modules);
  // find_importers: one file per package, every package with 1..200 importers.
  const importerPairs = [];
  for (const dir of [...truth.dirs].sort()) {
    const file = goFiles.filter((f) => dirOf(f) === dir && !f.endsWith("_test.go")).sort()[0];
    if (file === undefined) continue;
    const gt = new Set(truth.importers(file));
    if (gt.size === 0 || gt.size > 200) continue;
    const body = await _call(client, "find_importers", { repo, file_path: file, max_results: 200 });
    const ours = new Set((body.importers as { file: string }[]).map((i) => i.file));
    importerPairs.push({ gt, ours, label: file });
  }
  const out = [_quality("find_importers", importerPairs)];
  // find_references: functions and methods outside tests, with 1..200 call sites in the truth.
  const symbols = index.symbolsOfKinds(["function", "method"]).filter((s) =>
    s.language === "go" && !s.file.endsWith("_test.go") && !s.file.includes("testdata/")
  );
  for (const kind of ["function", "method"] as const) {
    const pool = symbols.filter((s) =>
      s.kind === kind && (kind === "method" || s.qualified_name === s.name)
    );
    const pairs = [];
    for (const s of _spread(pool, samples * 3)) {
      if (pairs.length >= samples) break;
      const gt = kind === "function"
        ? truth.functionCalls(s.file, s.name)
        : truth.methodCalls(dirOf(s.file), s.name, s.qualified_name.split(".")[0]);
      if (gt.size === 0 || gt.size > 200) continue;
      const body = await _call(client, "find_references", {
        repo,
        identifier: s.id,
        max_results: 200,
      });
      const ours = new Set(
        (body.references as { file: string; line: number; kind: string }[])
          .filter((r) => r.kind === "call").map((r) => `${r.file}:${r.line}`),
      );
      pairs.push({ gt, ours, label: s.id });
    }
    out.push(_quality(`find_references (${kind}s)`, pairs));
  }
  return out;
}

/** The call rows `find_references` gives for a symbol id, as `file:line`. */
async function _callRows(client: Client, repo: string, id: string): Promise<Set<string>> {
  const body = await _call(client, "find_references", { repo, identifier: id, max_results: 200 });
  return new Set(
    (body.references as { file: string; line: number; kind: string }[])
      .filter((r) => r.kind === "call").map((r) => `${r.file}:${r.line}`),
  );
}

/**
 * JavaScript: find_references of the methods assigned to plain objects (`res.render = function`)
 * against the text truth of scripts/graph_truth_js.ts, every method with 1..200 calls.
 */
async function _jsQuality(
  client: Client,
  store: Store,
  repo: string,
  root: string,
): Promise<Quality[]> {
  const index = store.repo(repo);
  const files = index.listFiles().map((f) => f.path).filter((p) => /\.[cm]?js$/.test(p));
  const truth = new JsTruth(files, (p) => Deno.readTextFileSync(join(root, p)));
  if (truth.methods.length === 0) return [];
  const pairs = [];
  const seen = new Set<string>();
  for (const m of truth.methods) {
    const key = `${m.object}.${m.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const gt = truth.calls(m.object, m.name);
    if (gt.size === 0 || gt.size > 200) continue;
    const id = index.symbolsOfFile(m.file).find((s) => s.qualified_name === key)?.id;
    if (id === undefined) continue;
    pairs.push({ gt, ours: await _callRows(client, repo, id), label: id });
  }
  return [_quality("find_references (object methods)", pairs)];
}

/**
 * Python: find_importers of every module against the imports Python's own parser (`ast`) reads
 * and resolves (scripts/graph_truth_python.py, run with python3), every module with 1..200
 * importers.
 */
async function _pythonQuality(client: Client, repo: string, root: string): Promise<Quality[]> {
  const out = new Deno.Command("python3", {
    args: [join(CHECKOUT, "scripts", "graph_truth_python.py"), root],
    stdout: "piped",
  }).outputSync();
  if (!out.success) throw new Error("scripts/graph_truth_python.py failed");
  const importsOf = JSON.parse(new TextDecoder().decode(out.stdout)) as Record<string, string[]>;
  const importers = new Map<string, Set<string>>();
  for (const [file, targets] of Object.entries(importsOf)) {
    for (const t of targets) {
      let set = importers.get(t);
      if (set === undefined) importers.set(t, set = new Set());
      set.add(file);
    }
  }
  const pairs = [];
  for (const file of [...importers.keys()].sort()) {
    const gt = importers.get(file)!;
    if (gt.size > 200) continue;
    const body = await _call(client, "find_importers", { repo, file_path: file, max_results: 200 });
    const ours = new Set((body.importers as { file: string }[]).map((i) => i.file));
    pairs.push({ gt, ours, label: file });
  }
  return [_quality("find_importers", pairs)];
}

/** Latency of every tool on one corpus: first calls, then warm and repeated; the warm client. */
async function _latency(
  env: Record<string, string>,
  store: Store,
  repo: string,
  corpus: string,
  samples: number,
  firstRuns: number,
  latency: Record<string, unknown>[],
  loads: string[],
): Promise<Client> {
  const targets = _targets(store, repo, samples);
  // First call after a server start, per tool (alternating tools, fresh server each time).
  const first = new Map<Tool, number[]>(TOOLS.map((t) => [t, []]));
  const firstServer = new Map<Tool, number[]>(TOOLS.map((t) => [t, []]));
  const firstCpu = new Map<Tool, number[]>(TOOLS.map((t) => [t, []]));
  for (let run = 0; run < firstRuns; run++) {
    for (const tool of TOOLS) {
      if (targets[tool].length === 0) continue;
      const c = await _connect(env);
      await c.listTools();
      first.get(tool)!.push(await _timed(c, tool, { repo, ...targets[tool][run]! }));
      firstServer.get(tool)!.push(lastServerMs);
      firstCpu.get(tool)!.push(lastServerCpuMs);
      await c.close();
    }
  }
  // Baseline: the first call of a tool that reads almost nothing (list_repos), same conditions.
  const baseline: number[] = [];
  const baselineCpu: number[] = [];
  for (let run = 0; run < firstRuns; run++) {
    const c = await _connect(env);
    await c.listTools();
    baseline.push(await _timed(c, "list_repos", {}));
    baselineCpu.push(lastServerCpuMs);
    await c.close();
  }
  latency.push({
    corpus,
    tool: "(list_repos, baseline)",
    first_p50: median(baseline),
    first_cpu_p50: median(baselineCpu),
  });
  loads.push(loadAverages());
  // Warm: one server; one call of every tool first (facets built), then distinct targets.
  const client = await _connect(env);
  for (const tool of TOOLS) {
    if (targets[tool].length > 0) await _call(client, tool, { repo, ...targets[tool][samples]! });
  }
  const warm = new Map<Tool, number[]>(TOOLS.map((t) => [t, []]));
  const repeat = new Map<Tool, number[]>(TOOLS.map((t) => [t, []]));
  for (let i = 0; i < samples; i++) {
    for (const tool of TOOLS) {
      if (targets[tool].length === 0) continue;
      warm.get(tool)!.push(await _timed(client, tool, { repo, ...targets[tool][i]! }));
    }
  }
  for (let i = 0; i < samples; i++) {
    for (const tool of TOOLS) {
      if (targets[tool].length === 0) continue;
      repeat.get(tool)!.push(await _timed(client, tool, { repo, ...targets[tool][i]! }));
    }
  }
  loads.push(loadAverages());
  for (const tool of TOOLS) {
    const f = first.get(tool)!, w = warm.get(tool)!, r = repeat.get(tool)!;
    latency.push({
      corpus,
      tool,
      first_p50: median(f),
      first_p95: percentile(f, 95),
      first_server_p50: median(firstServer.get(tool)!),
      first_cpu_p50: median(firstCpu.get(tool)!),
      warm_p50: median(w),
      warm_p95: percentile(w, 95),
      repeat_p50: median(r),
      repeat_p95: percentile(r, 95),
    });
  }
  return client;
}

/** Run the benchmark. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const corpora = (flags.get("corpora") ?? "gostd").split(",").filter((c) => c !== "");
  const samples = Number(flags.get("samples") ?? 20);
  const firstRuns = Number(flags.get("first-runs") ?? 3);
  const qualityOnly = flags.has("quality-only");
  const indexDir = resolve(flags.get("index") ?? join(CHECKOUT, "bench-out", "graph-index"));
  const env = _env(indexDir);
  const latency: Record<string, unknown>[] = [];
  const quality: (Quality & { corpus: string })[] = [];
  const loads: string[] = [loadAverages()];
  for (const corpus of corpora) {
    const dir = Deno.realPathSync(join(CHECKOUT, "corpora", corpus));
    let client = await _connect(env);
    const indexed = await _call(client, "index_folder", { path: dir });
    const repo = String(indexed.repo);
    await client.close();
    const store = new Store(indexDir);
    if (!qualityOnly) {
      client = await _latency(env, store, repo, corpus, samples, firstRuns, latency, loads);
    } else client = await _connect(env);
    const languages = new Set(store.repo(repo).listFiles().map((f) => f.language));
    const measured = [
      ...(languages.has("go") ? await _goQuality(client, store, repo, dir, samples * 2) : []),
      ...(languages.has("javascript") ? await _jsQuality(client, store, repo, dir) : []),
      ...(languages.has("python") ? await _pythonQuality(client, repo, dir) : []),
    ];
    for (const q of measured) quality.push({ corpus, ...q });
    await client.close();
  }
  loads.push(loadAverages());
  console.log(
    markdownTable(
      [
        "corpus",
        "tool",
        "first p50",
        "first p95",
        "first (server) p50",
        "first (server CPU) p50",
        "warm p50",
        "warm p95",
        "repeat p50",
      ],
      latency.map((l) => [
        l.corpus,
        l.tool,
        l.first_p50,
        l.first_p95,
        l.first_server_p50,
        l.first_cpu_p50,
        l.warm_p50,
        l.warm_p95,
        l.repeat_p50,
      ]),
    ),
  );
  console.log(
    "\n" + markdownTable(
      ["corpus", "measure", "samples", "precision", "recall", "tp", "fp", "fn"],
      quality.map((q) => [
        q.corpus,
        q.what,
        q.samples,
        q.precision.toFixed(4),
        q.recall.toFixed(4),
        q.tp,
        q.fp,
        q.fn,
      ]),
    ),
  );
  for (const q of quality) {
    if (q.examples.length > 0) {
      console.log(`\n${q.corpus} ${q.what}:\n  ${q.examples.join("\n  ")}`);
    }
  }
  console.log(
    `\nms, client-side; first (server) = the tool's own _meta.timing_ms; first (server CPU) = CPU time the server process used during the call (10 ms ticks; what the call costs on an idle machine); ${
      loads.join(", ")
    }`,
  );
  await writeJson(flags, { latency, quality, load: loads });
}

if (import.meta.main) await main(Deno.args);
