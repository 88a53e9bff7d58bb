/** Shared set-up of the watch tests: a watched folder behind a real runner, and polling helpers. */
import { deepStrictEqual, equal } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { DEFAULT_SETTINGS } from "../../src/server/config.ts";
import { DEFAULT_WATCH_SETTINGS, type WatchBatch } from "../../src/server/watch.ts";
import { inThreadParser, tempWorkspace, testConfig, writeTree } from "../ingest/_helpers.ts";

/** How long a change may take to reach a query (debounce + batch, on a loaded machine). */
export const BOUND_MS = 5000;

/** A folder indexed and watched by a runner (debounce 50 ms unless `settings` say otherwise). */
export async function watched(
  files: Record<string, string>,
  settings: Partial<typeof DEFAULT_WATCH_SETTINGS> = {},
) {
  const ws = tempWorkspace("codemunch-watch-");
  writeTree(ws.root, files);
  const logs: string[] = [];
  const runner = new ToolRunner({
    store: ws.store,
    ingest: testConfig(),
    parser: inThreadParser,
    cwd: ws.root,
    settings: DEFAULT_SETTINGS,
    watch: { ...DEFAULT_WATCH_SETTINGS, debounceMs: 50, ...settings },
    log: (m) => logs.push(m),
  });
  const r = await runner.call("index_folder", { path: ws.root, format: "json" });
  equal(r.isError, false, r.text);
  const repo = (JSON.parse(r.text) as { repo: string }).repo;
  const batches: WatchBatch[] = [];
  runner.watcher!.onBatch((b) => batches.push(b));
  const search = async (query: string) => {
    const out = await runner.call("search_symbols", {
      repo,
      query,
      max_results: 20,
      format: "json",
    });
    const body = decode(out.text) as { results: { name: string; file: string }[] };
    return body.results.filter((h) => h.name === query).map((h) => h.file);
  };
  /** Poll until `search(query)` gives `files`; returns the time it took. */
  const until = async (query: string, files: string[]) => {
    const t0 = performance.now();
    for (;;) {
      const got = await search(query);
      if (JSON.stringify(got) === JSON.stringify(files)) return performance.now() - t0;
      if (performance.now() - t0 > BOUND_MS) {
        deepStrictEqual(got, files, `${query} not seen within ${BOUND_MS} ms`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return {
    ws,
    runner,
    repo,
    logs,
    batches,
    search,
    until,
    dispose: async () => {
      await runner.close();
      try {
        ws.dispose();
      } catch { /* removed by the test */ }
    },
  };
}

/** Poll `cond` every 20 ms until it holds; fails after `bound` ms with `what`. */
export async function eventually(
  cond: () => boolean | Promise<boolean>,
  what: string,
  bound = BOUND_MS,
): Promise<void> {
  const t0 = performance.now();
  while (!(await cond())) {
    if (performance.now() - t0 > bound) throw new Error(`Not within ${bound} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
