/**
 * `deno task bench memory [--corpora gostd] [--v8-flags both|server|none|F] [--idle-s N]
 * [--rounds N] [--against DIR] [--idle-drop-s N] [--launcher-env] [--breakdown [--recycle BYTES]]
 * [--scale [--latency N]] [--json FILE]`: the memory of a real server over a session — a full
 * index, a few queries, then idle — and of a second repository of the same size (issue 32).
 *
 * Each round starts the stdio server as a client does (`deno run <the launcher's permission
 * flags> [V8 flags] main.ts serve`, spoken to by the MCP SDK's client), on a fresh index
 * directory, and samples the server's resident set (`/proc/<pid>/status`) every 100 ms:
 *
 * 1. `index_folder` on a copy of the corpus: wall time, peak RSS (VmHWM) during the index;
 * 2. a few queries an agent asks first (`search_symbols` ×3, `search_text` ×2, `get_file_outline`,
 *    `get_symbol_source`, `get_ranked_context`, `find_references`): RSS after them;
 * 3. idle for `--idle-s` seconds (default 75): RSS at 5 s, 30 s, 60 s and at the end ("idle");
 *    then one `search_symbols`, `search_text`, `get_ranked_context` and `find_references` on it,
 *    timed (what the idle server's drop of read models and search workers costs the next call);
 * 4. the same for a second copy of the corpus (another repo of the same size) in the same
 *    server: what it adds to the idle RSS.
 *
 * `--v8-flags both` (the default) runs each round twice, in turns: as the launcher starts the
 * server (`SERVER_V8_FLAGS` and `SERVER_PROCESS_ENV` of scripts/serve.ts) and with V8's and
 * glibc's defaults. `--against DIR` runs another checkout's server the same ways (as its own
 * launcher starts it, and with the defaults under `both`; e.g. `git archive main` unpacked, after
 * `deno install`) in the same turns: the previous figures side by side. `--idle-drop-s N` runs
 * every server with `CODEMUNCH_IDLE_DROP_S=N` (when a quiet server rests: it drops its read
 * models, closes its idle search workers and stops its parser workers). `--launcher-env` keeps
 * the launcher's environment (`MALLOC_ARENA_MAX=2`) in the set-ups with V8's defaults, so that
 * they differ from the launcher's in the V8 flags alone. The 1-minute load average is printed with each round; the table gives
 * medians.
 *
 * `--breakdown` instead runs one index in a child process (with `--expose-gc`, and the
 * launcher's V8 flags and environment unless `--v8-flags none`) and names where the
 * memory is at each stage: the main isolate's heap and external (typed array) bytes, each parser
 * worker's own heap, what closing the parser pool gives back, the anonymous and file-backed
 * resident pages, and the heap and external bytes each read-model facet holds (built one at a
 * time in a fresh view, garbage collected in between), with its build time. `--recycle BYTES`
 * runs that index with the parser pool's `recycleAfterBytes` (a worker that parsed a file that
 * large is replaced).
 *
 * `--scale` (the scale benchmark of issue 32, e.g. `--corpora gostd,linux --v8-flags server
 * --scale --idle-s 330`) leaves out the second repository and, after step 2, measures the rest
 * of what a large repository costs (bench_memory_scale.ts): the index's size on disk, the files
 * skipped by reason (the file-count and file-size settings), warm `search_symbols` and
 * `search_text` p50 over `--latency N` rounds (default 20) of the session's queries, and a
 * one-file change re-indexed by the same server; the idle of step 3 comes after it.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { decode } from "../mod.ts";
import { scaleProbe, type ScaleReport } from "./bench_memory_scale.ts";
import { permissionFlags, permissionInputs, SERVER_PROCESS_ENV, SERVER_V8_FLAGS } from "./serve.ts";
import {
  loadAverages,
  markdownTable,
  median,
  parseFlags,
  serverEnv,
  writeJson,
} from "./bench_util.ts";

const CHECKOUT = resolve(fileURLToPath(new URL("..", import.meta.url)));

/** Per corpus: the first queries of a session (a name, two descriptions, text, a phrase). */
export const SESSION_QUERIES: Record<
  string,
  { name: string; words: string[]; text: string; phrase: string; context: string }
> = {
  gostd: {
    name: "NewServeMux",
    words: ["read a file", "http server handler"],
    text: "redirectTrailingSlash",
    phrase: "http server handler",
    context: "parse an http request",
  },
  django: {
    name: "QuerySet",
    words: ["render a template", "database connection"],
    text: "get_or_create",
    phrase: "the given field",
    context: "validate a form field",
  },
  linux: {
    name: "kmalloc",
    words: ["allocate memory", "schedule a task"],
    text: "spin_lock_irqsave",
    phrase: "the caller must hold",
    context: "register a network device",
  },
};

/** One measured session of one server. */
interface Session {
  /** `this` or `base` (see `Variant`). */
  code: string;
  flags: string;
  load: number;
  index_ms: number;
  /** VmHWM when the first index returned. */
  peak_index_mb: number;
  after_queries_mb: number;
  idle_5s_mb: number;
  idle_30s_mb: number;
  idle_60s_mb: number;
  idle_mb: number;
  /**
   * The first calls on the first repo after its idle period, in ms (what a drop of its read
   * model and search workers costs the next question): search_symbols, search_text,
   * get_ranked_context, find_references.
   */
  after_idle_ms: [number, number, number, number];
  /** The same after the second repository's index and queries. */
  second_index_ms: number;
  second_peak_mb: number;
  second_idle_mb: number;
  peak_mb: number;
  /** `--scale`: the scale figures (the second repository's fields are then NaN). */
  scale?: ScaleReport;
}

/** One server set-up of a run: a checkout, the V8 flags and environment it runs with. */
interface Variant {
  /** `this` or `base` (the `--against` checkout). */
  code: string;
  checkout: string;
  /** The V8 flags, or `none`. */
  v8: string;
  /** Process environment besides the server's own variables (the launcher's, or none). */
  env: Readonly<Record<string, string>>;
}

/**
 * The set-ups to run in turns: this checkout as its launcher starts it and with the defaults
 * (`--v8-flags both`), and the `--against` checkout the same ways (its own launcher's flags; with
 * `--v8-flags none`, the defaults alone).
 */
async function _variants(flags: Map<string, string>): Promise<Variant[]> {
  const which = flags.get("v8-flags") ?? "both";
  const server = SERVER_V8_FLAGS.slice("--v8-flags=".length);
  // `--idle-drop-s N`: the servers rest after N s without a call (a shorter delay than the
  // default, so that an idle period of the run shows what the rest gives back).
  const drop = flags.get("idle-drop-s");
  const ours = drop === undefined ? {} : { CODEMUNCH_IDLE_DROP_S: drop };
  const launcher: Variant = {
    code: "this",
    checkout: CHECKOUT,
    v8: server,
    env: { ...SERVER_PROCESS_ENV, ...ours },
  };
  // `--launcher-env`: V8's defaults, but the launcher's process environment.
  const plain = (own: Readonly<Record<string, string>> | undefined) =>
    flags.has("launcher-env") ? { ...own, ...ours } : ours;
  const defaults: Variant = {
    code: "this",
    checkout: CHECKOUT,
    v8: "none",
    env: plain(SERVER_PROCESS_ENV),
  };
  const variants = which === "both"
    ? [launcher, defaults]
    : which === "server"
    ? [launcher]
    : [{ ...defaults, v8: which }];
  const against = flags.get("against");
  if (against !== undefined) {
    const checkout = resolve(against);
    const base = await import(join(checkout, "scripts", "serve.ts")) as {
      SERVER_V8_FLAGS?: string;
      SERVER_PROCESS_ENV?: Record<string, string>;
    };
    const v8 = base.SERVER_V8_FLAGS?.slice("--v8-flags=".length) || "none";
    variants.push({ code: "base", checkout, v8, env: { ...base.SERVER_PROCESS_ENV, ...ours } });
    const baseDefaults = {
      code: "base",
      checkout,
      v8: "none",
      env: plain(base.SERVER_PROCESS_ENV),
    };
    if (which === "both") variants.push(baseDefaults);
    if (which === "none") variants[variants.length - 1] = baseDefaults;
  }
  return variants;
}

/** Entry point for the dispatcher. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const names = (flags.get("corpora") ?? "gostd").split(",");
  if (flags.has("breakdown")) {
    for (const name of names) await _breakdown(name, flags);
    return;
  }
  const rounds = Number(flags.get("rounds") ?? 1);
  const idleS = Number(flags.get("idle-s") ?? 75);
  const scale = flags.has("scale") ? Number(flags.get("latency") ?? 20) : undefined;
  const variants = await _variants(flags);
  console.error(`bench memory: ${loadAverages()}`);
  const rows: unknown[][] = [];
  const results: Record<string, Session[]> = {};
  for (const name of names) {
    const work = Deno.makeTempDirSync({ prefix: `bench-memory-${name}-` });
    try {
      const src = join(CHECKOUT, "corpora", name);
      for (const copy of scale === undefined ? ["a", "b"] : ["a"]) {
        await _run("cp", ["-rL", src, join(work, copy, name)]);
      }
      const sessions: Session[] = [];
      for (let r = 0; r < rounds; r++) {
        // Alternate the order of the variants from round to round (drift falls on all).
        const order = r % 2 === 0 ? variants : [...variants].reverse();
        for (const v of order) {
          const s = await _session(name, work, v, idleS, scale);
          console.error(`bench memory: ${name} round ${r + 1}: ${JSON.stringify(s)}`);
          sessions.push(s);
        }
      }
      results[name] = sessions;
      for (const v of variants) rows.push(_row(name, v, sessions));
    } finally {
      Deno.removeSync(work, { recursive: true });
    }
  }
  console.log(`\n${loadAverages()}\n`);
  console.log(
    `Server RSS over a session (MB, medians): index, the first queries, idle ${idleS} s, then a ` +
      "second repository of the same size\n",
  );
  console.log(markdownTable([
    "corpus",
    "code",
    "V8 flags, env",
    "rounds",
    "index s",
    "peak during index",
    "after queries",
    "idle 5 s",
    "idle 30 s",
    "idle 60 s",
    "idle",
    "first calls after idle, ms",
    "2nd repo adds",
    "peak (session)",
    "load",
  ], rows));
  console.log(
    "\nFirst calls after idle: search_symbols / search_text / get_ranked_context / " +
      "find_references on the first repo, once its idle period ended (before the second index)",
  );
  console.log("Targets: idle ≤ 200 MB, peak during the index ≤ 400 MB (gostd)");
  if (scale !== undefined) _scaleTable(results);
  await writeJson(flags, results);
}

/** The V8 flags and environment of a set-up, in words. */
function _label(v: Variant): string {
  const env = Object.entries(v.env).map(([k, x]) => `${k}=${x}`);
  return [v.v8 === "none" ? "V8 defaults" : v.v8, ...env].join(", ");
}

/** The table row of one set-up: medians of its sessions. */
function _row(name: string, v: Variant, sessions: readonly Session[]): unknown[] {
  const mine = sessions.filter((s) => s.code === v.code && s.flags === _label(v));
  const med = (f: (s: Session) => number) => median(mine.map(f));
  const loads = mine.map((s) => s.load);
  return [
    name,
    v.code,
    _label(v),
    mine.length,
    med((s) => s.index_ms) / 1000,
    med((s) => s.peak_index_mb),
    med((s) => s.after_queries_mb),
    med((s) => s.idle_5s_mb),
    med((s) => s.idle_30s_mb),
    med((s) => s.idle_60s_mb),
    med((s) => s.idle_mb),
    [0, 1, 2, 3].map((i) => med((s) => s.after_idle_ms[i]!).toFixed(0)).join(" / "),
    med((s) => s.second_idle_mb - s.idle_mb),
    med((s) => s.peak_mb),
    `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
  ];
}

/**
 * Run one server through a session on the two copies of a corpus; with `scale` (the latency
 * rounds of `--scale`), on the first copy only, with the scale figures before the idle.
 */
async function _session(
  name: string,
  work: string,
  v: Variant,
  idleS: number,
  scale?: number,
): Promise<Session> {
  const indexDir = Deno.makeTempDirSync({ prefix: "bench-memory-index-" });
  const env = serverEnv(indexDir, work, { ...v.env });
  // The checkout read is the one run (permissionInputs names the launcher's own, this one).
  const perms = permissionFlags({
    ...permissionInputs((n) => env[n], v.checkout),
    checkout: v.checkout,
  });
  const v8Args = v.v8 === "none" ? [] : [`--v8-flags=${v.v8}`];
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...perms, ...v8Args, join(v.checkout, "main.ts"), "serve"],
    env,
    cwd: v.checkout,
    // `--scale`: the server's own errors in the bench's log (a crash at scale must say why).
    stderr: scale === undefined ? "ignore" : "inherit",
  });
  const client = new Client({ name: "bench-memory", version: "0" });
  await client.connect(transport);
  const pid = transport.pid!;
  const load = Deno.loadavg()[0]!;
  try {
    const t0 = performance.now();
    const folder = join(work, "a", name);
    const first = await _repoSession(client, folder, name, pid);
    const indexMs = first.indexMs;
    const peakIndex = first.peakIndexMb;
    const afterQueries = (await _status(pid)).rss;
    const scaled = scale === undefined ? undefined : await scaleProbe(_call, client, {
      folder,
      repo: first.repo,
      indexDir,
      indexed: first.indexed,
      queries: SESSION_QUERIES[name] ?? SESSION_QUERIES.gostd!,
      first: first.firstMs,
      changeFile: first.topFile ?? first.firstFile,
      rounds: scale,
      rss: async () => (await _status(pid)).rss,
    });
    if (scaled !== undefined) console.error(`bench memory: ${name} ${JSON.stringify(scaled)}`);
    const idle = await _idle(pid, idleS);
    const afterIdle = await _firstCalls(client, first.repo, name);
    const second = scale === undefined
      ? await _repoSession(client, join(work, "b", name), name, pid)
      : undefined;
    const secondPeak = second === undefined ? NaN : (await _status(pid)).hwm;
    const secondIdle = second === undefined ? NaN : (await _idle(pid, idleS)).end;
    console.error(`bench memory: session ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    return {
      code: v.code,
      flags: _label(v),
      load,
      index_ms: indexMs,
      peak_index_mb: peakIndex,
      after_queries_mb: afterQueries,
      idle_5s_mb: idle.at5,
      idle_30s_mb: idle.at30,
      idle_60s_mb: idle.at60,
      idle_mb: idle.end,
      after_idle_ms: afterIdle,
      second_peak_mb: secondPeak,
      second_idle_mb: secondIdle,
      peak_mb: (await _status(pid)).hwm,
      second_index_ms: second?.indexMs ?? NaN,
      ...(scaled === undefined ? {} : { scale: scaled }),
    };
  } finally {
    await client.close();
    Deno.removeSync(indexDir, { recursive: true });
  }
}

/**
 * Index a folder and ask the session's first queries; the index call's wall time and the
 * server's VmHWM when it returned (the queries' facets come after), the repo and its
 * `index_folder` response, the top hit's file and the first indexed one, and the times of the
 * first `search_symbols` and `search_text` (cold).
 */
async function _repoSession(
  client: Client,
  folder: string,
  name: string,
  pid: number,
): Promise<{
  indexMs: number;
  peakIndexMb: number;
  repo: string;
  indexed: Record<string, unknown>;
  topFile: string | undefined;
  firstFile: string;
  firstMs: { symbols_ms: number; text_ms: number };
}> {
  const q = SESSION_QUERIES[name] ?? SESSION_QUERIES.gostd!;
  const t0 = performance.now();
  const indexed = await _call(client, "index_folder", { path: folder });
  const indexMs = performance.now() - t0;
  const peakIndexMb = (await _status(pid)).hwm;
  const repo = String(indexed.repo);
  const ts = performance.now();
  const hits = await _call(client, "search_symbols", { repo, query: q.name, max_results: 5 });
  const symbolsMs = performance.now() - ts;
  const top = (hits.results as { id: string; file: string }[])[0];
  for (const words of q.words) await _call(client, "search_symbols", { repo, query: words });
  const tt = performance.now();
  await _call(client, "search_text", { repo, query: q.text });
  const textMs = performance.now() - tt;
  await _call(client, "search_text", { repo, query: q.phrase });
  if (top !== undefined) {
    await _call(client, "get_file_outline", { repo, file_path: top.file });
    await _call(client, "get_symbol_source", { repo, symbol_id: top.id });
  }
  await _call(client, "get_ranked_context", { repo, query: q.context });
  await _call(client, "find_references", { repo, identifier: q.name });
  return {
    indexMs,
    peakIndexMb,
    repo,
    indexed,
    topFile: top?.file,
    firstFile: String((indexed.files as string[])[0]),
    firstMs: { symbols_ms: symbolsMs, text_ms: textMs },
  };
}

/** The `--scale` table: one row per session. */
function _scaleTable(results: Record<string, Session[]>): void {
  const rows: unknown[][] = [];
  for (const [name, sessions] of Object.entries(results)) {
    for (const s of sessions) {
      const x = s.scale;
      if (x === undefined) continue;
      const skipped = Object.entries(x.skipped).map(([k, n]) => `${k} ${n}`).join(", ");
      rows.push([
        name,
        x.files,
        x.symbols,
        skipped || "none",
        x.files_skipped_cap,
        s.index_ms / 1000,
        s.peak_index_mb,
        s.peak_mb,
        s.idle_30s_mb,
        s.idle_mb,
        x.db_mb,
        `${x.first_symbols_ms.toFixed(0)} / ${x.first_text_ms.toFixed(0)}`,
        `${x.symbols_p50_ms.toFixed(1)} / ${x.symbols_p90_ms.toFixed(1)}`,
        `${x.symbols_uncached_p50_ms.toFixed(1)} / ${x.symbols_uncached_p90_ms.toFixed(1)}`,
        `${x.text_p50_ms.toFixed(1)} / ${x.text_p90_ms.toFixed(1)}`,
        `${x.one_file_ms.toFixed(0)} (${x.one_file_change}; found ${
          x.added_found ? "yes" : "NO"
        } in ${x.added_search_ms.toFixed(0)})`,
        `${x.folder_one_file_ms.toFixed(0)} (${x.one_file_changed} changed)`,
        s.load.toFixed(1),
      ]);
    }
  }
  console.log(
    "\nScale (--scale; MB, ms unless named; queries timed at the client, over stdio)\n",
  );
  console.log(markdownTable([
    "corpus",
    "files",
    "symbols",
    "skipped by reason",
    "over file cap",
    "index s",
    "peak during index",
    "session peak",
    "idle 30 s",
    "idle (end)",
    "DB MB",
    "first search_symbols / search_text",
    "search_symbols p50 / p90 (repeated)",
    "search_symbols p50 / p90 (new questions)",
    "search_text p50 / p90",
    "1-file re-index: index_file (then search_symbols finds the new function)",
    "1-file change: index_folder",
    "load",
  ], rows));
}

/**
 * Time the first calls on a repo after an idle period: one of each tool that needs a facet or a
 * search worker the idle server may have dropped (BENCHMARKS.md, session 10).
 */
async function _firstCalls(
  client: Client,
  repo: string,
  name: string,
): Promise<[number, number, number, number]> {
  const q = SESSION_QUERIES[name] ?? SESSION_QUERIES.gostd!;
  const timed = async (tool: string, args: Record<string, unknown>) => {
    const t0 = performance.now();
    await _call(client, tool, { repo, ...args });
    return performance.now() - t0;
  };
  return [
    await timed("search_symbols", { query: q.name, max_results: 5 }),
    await timed("search_text", { query: q.text }),
    await timed("get_ranked_context", { query: q.context }),
    await timed("find_references", { identifier: q.name }),
  ];
}

/** Sample the RSS while the server is idle for `seconds`. */
async function _idle(
  pid: number,
  seconds: number,
): Promise<{ at5: number; at30: number; at60: number; end: number }> {
  const t0 = performance.now();
  let at5 = NaN;
  let at30 = NaN;
  let at60 = NaN;
  for (;;) {
    const s = (performance.now() - t0) / 1000;
    if (Number.isNaN(at5) && s >= 5) at5 = (await _status(pid)).rss;
    if (Number.isNaN(at30) && s >= 30) at30 = (await _status(pid)).rss;
    if (Number.isNaN(at60) && s >= 60) at60 = (await _status(pid)).rss;
    if (s >= seconds) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { at5, at30, at60, end: (await _status(pid)).rss };
}

async function _call(client: Client, name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: { format: "json", ...args } }, undefined, {
    timeout: 3_600_000,
  });
  const text = (r.content as { text: string }[])[0]!.text;
  if (r.isError) throw new Error(`${name} failed: ${text}`);
  return decode(text) as Record<string, unknown>;
}

/**
 * Resident set and its high-water mark of a process, in MB (Linux). Read by `cat`: Deno 2.9
 * lets only `--allow-all` read another process' `/proc/<pid>/status`.
 */
async function _status(pid: number): Promise<{ rss: number; hwm: number }> {
  const out = await new Deno.Command("cat", { args: [`/proc/${pid}/status`], stderr: "null" })
    .output();
  const s = new TextDecoder().decode(out.stdout);
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? NaN) / 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

/** The in-process breakdown, in a child with `--expose-gc` and the server's V8 flags. */
async function _breakdown(name: string, flags: Map<string, string>): Promise<void> {
  const work = Deno.makeTempDirSync({ prefix: `bench-memory-${name}-` });
  try {
    const folder = join(work, name);
    await _run("cp", ["-rL", join(CHECKOUT, "corpora", name), folder]);
    const v8 = flags.get("v8-flags") ?? SERVER_V8_FLAGS.slice("--v8-flags=".length);
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--config",
        join(CHECKOUT, "deno.dev.json"),
        `--v8-flags=${v8 === "none" ? "" : v8 + ","}--expose-gc`,
        fileURLToPath(new URL("./bench_memory_breakdown.ts", import.meta.url)),
        "--breakdown-child",
        folder,
        "--index",
        join(work, "index"),
        "--corpus",
        name,
        ...(flags.has("recycle") ? ["--recycle", flags.get("recycle")!] : []),
      ],
      // As the launcher starts the server, unless asked for the defaults.
      env: v8 === "none" ? {} : { ...SERVER_PROCESS_ENV },
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!out.success) throw new Error("bench memory: the breakdown child failed");
  } finally {
    Deno.removeSync(work, { recursive: true });
  }
}

async function _run(cmd: string, args: string[]): Promise<void> {
  Deno.mkdirSync(args.at(-1)!.replace(/\/[^/]*$/, ""), { recursive: true });
  const out = await new Deno.Command(cmd, { args, stdout: "null", stderr: "null" }).output();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")} failed`);
}

if (import.meta.main) await main(Deno.args);
