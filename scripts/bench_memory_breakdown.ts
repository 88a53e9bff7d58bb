/**
 * The in-process part of `deno task bench memory --breakdown` (run in a child with
 * `--expose-gc`): one full index through the real tools, then the session's first queries, with
 * the memory named at each stage (see bench_memory.ts).
 */
import { markdownTable, parseFlags } from "./bench_util.ts";
import { SESSION_QUERIES } from "./bench_memory.ts";
import { Store } from "../src/store/mod.ts";
import { SETTLE_MS, ToolRunner } from "../src/server/runner.ts";
import { ParserPool } from "../src/parser/mod.ts";
import { type Facet, RepoView } from "../src/query/view.ts";

const MB = 1024 * 1024;

/** Run the breakdown (flags: the folder after `--breakdown-child`, `--index`, `--corpus`). */
export async function breakdownChild(flags: Map<string, string>): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("bench memory: the breakdown needs --expose-gc");
  const folder = flags.get("breakdown-child")!;
  const q = SESSION_QUERIES[flags.get("corpus") ?? "gostd"] ?? SESSION_QUERIES.gostd!;
  const stages: unknown[][] = [];
  const stage = (name: string, note = "") => {
    gc();
    gc();
    const m = Deno.memoryUsage();
    const s = _status();
    stages.push([
      name,
      s.rss,
      s.anon,
      s.file,
      s.hwm,
      m.heapUsed / MB,
      m.heapTotal / MB,
      m.external / MB,
      note,
    ]);
  };
  stage("modules loaded");
  const store = new Store(flags.get("index")!);
  const recycle = flags.get("recycle");
  const pool = new ParserPool(
    recycle === undefined ? {} : { recycleAfterBytes: Number(recycle) },
  );
  const runner = new ToolRunner({ store, parser: pool, log: () => {} });
  const call = async (name: string, args: Record<string, unknown>) => {
    const t = performance.now();
    const r = await runner.call(name, { format: "json", ...args });
    if (r.isError) throw new Error(`${name} failed: ${r.text}`);
    return { body: JSON.parse(r.text) as Record<string, unknown>, ms: performance.now() - t };
  };
  const indexed = await call("index_folder", { path: folder });
  const repo = String(indexed.body.repo);
  const workers = await pool.memory();
  stage(
    "after index_folder (pool alive)",
    `index ${(indexed.ms / 1000).toFixed(1)} s; parser workers' heaps: ${
      workers.map((w) =>
        `${(w.heapTotal / MB).toFixed(0)} MB (${(w.heapUsed / MB).toFixed(0)} used)`
      )
        .join(", ")
    }`,
  );
  await pool.close();
  await new Promise((r) => setTimeout(r, 5000));
  stage("parser pool closed (+5 s)");
  const first = await call("search_symbols", { repo, query: q.name, max_results: 5 });
  stage("first search_symbols", `${first.ms.toFixed(0)} ms`);
  const top = (first.body.results as { id: string; file: string }[])[0];
  for (const words of q.words) await call("search_symbols", { repo, query: words });
  const text = await call("search_text", { repo, query: q.text });
  await call("search_text", { repo, query: q.phrase });
  stage("search_text ×2", `first ${text.ms.toFixed(0)} ms`);
  if (top !== undefined) {
    await call("get_file_outline", { repo, file_path: top.file });
    await call("get_symbol_source", { repo, symbol_id: top.id });
  }
  const context = await call("get_ranked_context", { repo, query: q.context });
  const refs = await call("find_references", { repo, identifier: q.name });
  stage(
    "outline, source, ranked context, references",
    `context ${context.ms.toFixed(0)} ms, references ${refs.ms.toFixed(0)} ms`,
  );
  // What a quiet server gives back (ToolRunner's settle after SETTLE_MS, done here at once to
  // name its share), then what the search worker's idle close of its memory map adds.
  store.releaseMemory();
  stage("read connections' page caches released");
  await new Promise((r) => setTimeout(r, SETTLE_MS + 5000));
  stage(`idle ${(SETTLE_MS + 5000) / 1000} s`, "settled; the search_text worker closed its map");
  const view = runner.views.open(repo);
  const built = view.builtFacets();
  console.log(
    `\nMemory by stage (MB; heap and external are the main isolate's, after a full GC)\n`,
  );
  console.log(markdownTable(
    ["stage", "RSS", "anon", "file", "VmHWM", "heap used", "heap total", "external", "note"],
    stages,
  ));
  console.log(
    "\nRead-model facets the queries built, each built again alone in a fresh view (MB held " +
      "after a full GC, in build order: a facet's share excludes what earlier ones hold)\n",
  );
  console.log(markdownTable(["facet", "heap", "external", "build ms"], _facetSizes(view, built)));
  await runner.close();
}

/** Build each facet in a fresh view of the same state, one by one, measuring what it holds. */
function _facetSizes(view: RepoView, facets: readonly Facet<unknown>[]): unknown[][] {
  const gc = (globalThis as { gc?: () => void }).gc!;
  const fresh = new RepoView(view.repo, view.index, view.state, view.gitHead, view.history);
  const rows: unknown[][] = [];
  gc();
  gc();
  let before = Deno.memoryUsage();
  for (const f of facets) {
    const t = performance.now();
    fresh.get(f);
    const ms = performance.now() - t;
    gc();
    gc();
    const now = Deno.memoryUsage();
    rows.push([
      f.name,
      (now.heapUsed - before.heapUsed) / MB,
      (now.external - before.external) / MB,
      ms,
    ]);
    before = now;
  }
  return rows;
}

/** This process' resident set, its anonymous and file-backed parts and its peak, in MB. */
function _status(): { rss: number; anon: number; file: number; hwm: number } {
  const s = Deno.readTextFileSync("/proc/self/status");
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? NaN) / 1024;
  return { rss: kb("VmRSS"), anon: kb("RssAnon"), file: kb("RssFile"), hwm: kb("VmHWM") };
}

if (import.meta.main) await breakdownChild(parseFlags(Deno.args));
