/**
 * `deno task bench fresh [--corpus gostd] [--rounds 200] [--latency 200] [--json FILE]`:
 * freshness in the Quick-start setup — `init` (the real command, in a temporary HOME with a
 * client config) indexes a copy of the corpus, then a NEW server is started from the entry
 * `init` wrote, as a client starts one for each session (`bench_fresh_setup.ts`).
 *
 * Edit rounds, once with watch mode (the default) and once with `CODEMUNCH_WATCH=0` (the
 * stat check of fresh reads alone): each round appends a uniquely named function to one of 40
 * source files, then at once asks about it — in turn `search_symbols` for its name,
 * `get_symbol_source` for its id, `get_file_outline` of its file — and again every 5 ms until the
 * answer shows it. An answer that does not show an edit already saved is stale; edit-to-fresh is
 * the time from the save to the first answer that shows it. Targets: p50 < 500 ms, and no stale
 * answer in the rounds with watch mode.
 *
 * Added latency: `search_symbols` and `get_symbol_source` on names and ids of the corpus, each
 * asked once per server, in turns across four servers — fresh reads on/off × watch mode on/off
 * — so the machine's drift cancels out; the server's own `_meta.timing_ms` and the round trip.
 */
import { join } from "node:path";
import {
  loadAverages,
  markdownTable,
  median,
  parseFlags,
  percentile,
  writeJson,
} from "./bench_util.ts";
import { type BenchServer, type QuickStart, quickStart, startServer } from "./bench_fresh_setup.ts";

/** The three questions of a round, in turn. */
const KINDS = ["search_symbols", "get_symbol_source", "get_file_outline"] as const;
type Kind = typeof KINDS[number];

/** Files edited by the rounds (spread over the tree). */
const TARGET_FILES = 40;

/** Longest a round waits for an answer that shows its edit, in ms. */
const ROUND_BOUND_MS = 10_000;

/** One round's measures. */
interface Round {
  kind: Kind;
  stale: boolean;
  fresh_ms: number | null;
}

/** Source files of the main language worth editing (non-test, outside testdata and vendor). */
function _targets(root: string, ext: string, limit: number): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    const entries = [...Deno.readDirSync(join(root, rel))].sort((a, b) => a.name < b.name ? -1 : 1);
    for (const e of entries) {
      if (out.length >= limit * 20) return;
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory && !/^(testdata|vendor|internal|cmd|node_modules)$/.test(e.name)) {
        visit(child);
      } else if (e.isFile && e.name.endsWith(ext) && !e.name.endsWith("_test" + ext)) {
        out.push(child);
      }
    }
  };
  visit("");
  const step = Math.max(1, Math.floor(out.length / limit));
  return out.filter((_, i) => i % step === 0).slice(0, limit);
}

function _probeSource(ext: string, name: string, n: number): string {
  return ext === ".go"
    ? `\n// ${name} is a benchmark probe.\nfunc ${name}() int { return ${n} }\n`
    : ext === ".py"
    ? `\n\ndef ${name}():\n    return ${n}\n`
    : `\nexport function ${name}(): number {\n  return ${n};\n}\n`;
}

/** Whether an answer shows the probe. */
function _shows(kind: Kind, body: Record<string, unknown>, isError: boolean, probe: string) {
  if (isError) return false;
  if (kind === "search_symbols") {
    return (body.results as { name: string }[]).some((h) => h.name === probe);
  }
  if (kind === "get_symbol_source") return String(body.source ?? "").includes(probe);
  return (body.symbols as { name: string }[]).some((s) => s.name === probe);
}

/** The rounds with one server: edits, and the questions about them. */
async function _editRounds(
  q: QuickStart,
  server: BenchServer,
  files: string[],
  originals: Map<string, string>,
  ext: string,
  rounds: number,
  tag: string,
): Promise<Round[]> {
  const out: Round[] = [];
  const stamp = Date.now().toString(36);
  for (let i = 0; i < rounds; i++) {
    const kind = KINDS[i % KINDS.length]!;
    const file = files[i % files.length]!;
    const probe = `FreshProbe${stamp}${tag}${i}`;
    const args: Record<string, unknown> = kind === "search_symbols"
      ? { repo: server.repo, query: probe, max_results: 5 }
      : kind === "get_symbol_source"
      ? { repo: server.repo, symbol_id: `${file}::${probe}#function` }
      : { repo: server.repo, file_path: file };
    const t0 = performance.now();
    Deno.writeTextFileSync(
      join(q.folder, file),
      originals.get(file)! + _probeSource(ext, probe, i),
    );
    let first = true;
    let stale = false;
    let freshMs: number | null = null;
    while (performance.now() - t0 < ROUND_BOUND_MS) {
      const r = await server.call(kind, args);
      if (_shows(kind, r.body, r.isError, probe)) {
        freshMs = performance.now() - t0;
        break;
      }
      if (first) stale = true;
      first = false;
      await new Promise((done) => setTimeout(done, 5));
    }
    out.push({ kind, stale, fresh_ms: freshMs });
  }
  return out;
}

/** The files among `files` that the index holds. */
async function _indexed(server: BenchServer, files: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const f of files) {
    const r = await server.call("get_file_outline", { repo: server.repo, file_path: f });
    if (!r.isError) out.push(f);
  }
  return out;
}

/** Names and ids of the corpus's symbols, for the latency turns. */
async function _corpusQueries(server: BenchServer, files: readonly string[], n: number) {
  const names: string[] = [];
  const ids: string[] = [];
  for (const f of files) {
    const r = await server.call("get_file_outline", { repo: server.repo, file_path: f });
    if (r.isError) continue;
    for (const s of r.body.symbols as { id: string; name: string }[]) {
      if (names.length < n && !names.includes(s.name)) names.push(s.name);
      if (ids.length < n) ids.push(s.id);
    }
    if (names.length >= n && ids.length >= n) break;
  }
  return { names, ids };
}

/** A server's first search and read build its in-memory facets: not part of the turns. */
async function _warm(server: BenchServer, names: readonly string[], ids: readonly string[]) {
  await server.call("search_symbols", { repo: server.repo, query: names[0], max_results: 10 });
  await server.call("get_symbol_source", { repo: server.repo, symbol_id: ids[0] });
}

/** Latency of the four configurations, in turns; per configuration and tool: ms lists. */
async function _latency(
  servers: readonly { label: string; server: BenchServer }[],
  names: readonly string[],
  ids: readonly string[],
): Promise<Map<string, { timing: number[]; trip: number[] }>> {
  const out = new Map<string, { timing: number[]; trip: number[] }>();
  const record = (key: string, r: { body: Record<string, unknown>; ms: number }) => {
    const m = out.get(key) ?? { timing: [], trip: [] };
    m.timing.push(Number((r.body._meta as { timing_ms?: number } | undefined)?.timing_ms));
    m.trip.push(r.ms);
    out.set(key, m);
  };
  const turns = Math.min(names.length, ids.length);
  for (let i = 0; i < turns; i++) {
    for (let k = 0; k < servers.length; k++) {
      const { label, server } = servers[(i + k) % servers.length]!;
      record(
        `${label}|search_symbols`,
        await server.call("search_symbols", {
          repo: server.repo,
          query: names[i],
          max_results: 10,
        }),
      );
      record(
        `${label}|get_symbol_source`,
        await server.call("get_symbol_source", { repo: server.repo, symbol_id: ids[i] }),
      );
    }
  }
  return out;
}

function _roundRows(label: string, rounds: readonly Round[]) {
  const rows: unknown[][] = [];
  for (const kind of [...KINDS, "all"] as const) {
    const of = kind === "all" ? rounds : rounds.filter((r) => r.kind === kind);
    const ms = of.map((r) => r.fresh_ms).filter((v): v is number => v !== null);
    rows.push([
      `${label}: ${kind}`,
      of.length,
      of.filter((r) => r.stale).length,
      of.length - ms.length,
      median(ms),
      percentile(ms, 95),
      Math.max(...ms),
    ]);
  }
  return rows;
}

/** Run the benchmark. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const corpus = flags.get("corpus") ?? "gostd";
  const rounds = Number(flags.get("rounds") ?? 200);
  const latencyTurns = Number(flags.get("latency") ?? 200);
  const ext = corpus === "gostd" || corpus === "gin" ? ".go" : corpus === "django" ? ".py" : ".ts";
  const q = await quickStart(corpus);
  console.error(`bench fresh: init indexed ${q.folder} in ${Math.round(q.initMs)} ms`);
  const files = _targets(q.folder, ext, TARGET_FILES);
  const originals = new Map(files.map((f) => [f, Deno.readTextFileSync(join(q.folder, f))]));
  const servers: { label: string; server: BenchServer }[] = [];
  try {
    for (
      const [label, env] of [
        ["watch on, fresh reads on (default)", {}],
        ["watch on, fresh reads off", { CODEMUNCH_FRESH_READS: "0" }],
        ["watch off, fresh reads on", { CODEMUNCH_WATCH: "0" }],
        ["watch off, fresh reads off", { CODEMUNCH_WATCH: "0", CODEMUNCH_FRESH_READS: "0" }],
      ] as const
    ) {
      servers.push({ label, server: await startServer(q, env) });
    }
    const first = servers[0]!.server;
    // Only files the index holds (a rule may exclude one: too large, ignored).
    const held = await _indexed(first, files);
    files.splice(0, files.length, ...held);
    const { names, ids } = await _corpusQueries(first, _targets(q.folder, ext, 400), latencyTurns);
    for (const { server } of servers) await _warm(server, names, ids);
    const latency = await _latency(servers, names.slice(1), ids.slice(1));
    // Only one server may follow the folder during the rounds (two writers would share the
    // index), and the rounds without watch mode must not meet another server's watcher.
    await servers[1]!.server.close();
    await servers[3]!.server.close();
    const watchOn = await _editRounds(q, first, files, originals, ext, rounds, "W");
    await first.close();
    const watchOff = await _editRounds(q, servers[2]!.server, files, originals, ext, rounds, "S");
    _report(corpus, q, rounds, latency, watchOn, watchOff, first.logs);
    await writeJson(flags, {
      corpus,
      load: loadAverages(),
      init_ms: q.initMs,
      latency: Object.fromEntries(latency),
      rounds_watch_on: watchOn,
      rounds_watch_off: watchOff,
    });
  } finally {
    for (const [file, text] of originals) Deno.writeTextFileSync(join(q.folder, file), text);
    await new Promise((done) => setTimeout(done, 500));
    for (const { server } of servers) await server.close().catch(() => {});
    Deno.removeSync(q.home, { recursive: true });
  }
}

function _report(
  corpus: string,
  q: QuickStart,
  rounds: number,
  latency: Map<string, { timing: number[]; trip: number[] }>,
  watchOn: readonly Round[],
  watchOff: readonly Round[],
  logs: readonly string[],
): void {
  console.log(
    `\nFresh in the Quick-start setup on ${corpus} (init ${
      Math.round(q.initMs)
    } ms, then new servers from the entry it wrote; ${loadAverages()})\n`,
  );
  console.log(markdownTable(
    ["rounds", "n", "stale first answers", "never fresh", "p50 ms", "p95 ms", "max ms"],
    [..._roundRows("watch on", watchOn), ..._roundRows("watch off (stat check)", watchOff)],
  ));
  const base = (tool: string, label: string) => median(latency.get(`${label}|${tool}`)!.timing);
  const rows: unknown[][] = [];
  for (const tool of ["search_symbols", "get_symbol_source"]) {
    for (const [label, m] of latency) {
      if (!label.endsWith(`|${tool}`)) continue;
      const name = label.slice(0, -tool.length - 1);
      const off = name.startsWith("watch on")
        ? base(tool, "watch on, fresh reads off")
        : base(tool, "watch off, fresh reads off");
      rows.push([
        `${tool} — ${name}`,
        m.timing.length,
        median(m.timing),
        percentile(m.timing, 95),
        median(m.timing) - off,
        median(m.trip),
      ]);
    }
  }
  console.log("\nPer-query latency (each question asked once per server, in turns)\n");
  console.log(markdownTable(
    ["tool — server", "n", "p50 ms", "p95 ms", "added p50 ms", "round trip p50 ms"],
    rows,
  ));
  const onMs = watchOn.map((r) => r.fresh_ms).filter((v): v is number => v !== null);
  const stale = watchOn.filter((r) => r.stale).length;
  console.log(
    `\nTargets (watch on, ${rounds} rounds): edit-to-fresh p50 < 500 ms — ${
      median(onMs) < 500 ? "met" : "NOT met"
    } (${median(onMs).toFixed(1)} ms); stale answers 0 — ${
      stale === 0 ? "met" : "NOT met"
    } (${stale})`,
  );
  const search = median(latency.get("watch on, fresh reads on (default)|search_symbols")!.timing);
  console.log(
    `search_symbols p50 < 5 ms with fresh reads — ${search < 5 ? "met" : "NOT met"} (${
      search.toFixed(2)
    } ms)`,
  );
  console.log(
    `\nServer log: ${logs.filter((l) => /codemunch: (watching|warning)/.test(l)).join(" | ")}`,
  );
}

if (import.meta.main) await main(Deno.args);
