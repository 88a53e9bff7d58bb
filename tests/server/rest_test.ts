/**
 * A quiet server rests once no call came for `CODEMUNCH_IDLE_DROP_S`: it drops the read model of
 * every repo and closes its idle search workers (real SQLite, real worker threads), and the next
 * calls answer the same from what they build again. Calls that keep coming keep both.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { IDLE_DROP_MS } from "../../src/query/view.ts";
import { closeIdleWorkers, poolLoad, setIdleCloseMs } from "../../src/query/search_pool.ts";
import { DEFAULT_SETTINGS } from "../../src/server/config.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { inThreadParser, tempWorkspace, testConfig, writeTree } from "../ingest/_helpers.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A runner resting after 1 s, on a small indexed folder; `use` gets its call function. */
async function withRunner(
  use: (
    runner: ToolRunner,
    call: (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>,
    repo: string,
  ) => Promise<void>,
): Promise<void> {
  const ws = tempWorkspace("codemunch-rest-");
  const runner = new ToolRunner({
    store: ws.store,
    ingest: testConfig(),
    parser: inThreadParser,
    cwd: ws.root,
    settings: { ...DEFAULT_SETTINGS, idleDropS: 1 },
    log: () => {},
  });
  try {
    writeTree(ws.root, {
      "a.py": "def alpha():\n    return 'needle'\n",
      "b.py": "from a import alpha\n\ndef beta():\n    return alpha()\n",
    });
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await runner.call(name, { format: "json", ...args });
      equal(r.isError, false, r.text);
      return JSON.parse(r.text) as Record<string, unknown>;
    };
    const repo = String((await call("index_folder", { path: ws.root })).repo);
    await use(runner, call, repo);
  } finally {
    await runner.close();
    closeIdleWorkers();
    setIdleCloseMs(IDLE_DROP_MS);
    ws.dispose();
  }
}

Deno.test("runner: a quiet server drops its views and closes idle search workers; same answers after", async () => {
  await withRunner(async (runner, call, repo) => {
    const ask = async () => ({
      symbols: (await call("search_symbols", { repo, query: "alpha" })).results,
      text: (await call("search_text", { repo, query: "needle" })).results,
      refs: (await call("find_references", { repo, identifier: "alpha" })).references,
    });
    const before = await ask();
    equal(runner.views.size, 1);
    ok(poolLoad().idle >= 1, "search_text left an idle worker");
    equal(runner.rests, 0);
    // The workers' own idle close comes 30 s later: within 15 s only the rest closes them.
    const t0 = Date.now();
    while (runner.rests === 0 || poolLoad().idle > 0) {
      ok(Date.now() - t0 < 15_000, "the quiet server rests");
      await sleep(50);
    }
    equal(runner.rests, 1);
    equal(runner.views.size, 0, "every view is dropped");
    equal(poolLoad().idle, 0, "every idle search worker is closed");
    deepEqual(await ask(), before);
    equal(runner.views.size, 1, "the next call builds a view again");
  });
});

Deno.test("runner: calls that keep coming keep the views and the search workers", async () => {
  await withRunner(async (runner, call, repo) => {
    await call("search_text", { repo, query: "needle" });
    const view = runner.views.open(repo);
    // A call every 0.3 s for 2.5 s: never 1 s quiet.
    for (let i = 0; i < 8; i++) {
      await sleep(300);
      await call("search_symbols", { repo, query: "beta" });
    }
    equal(runner.rests, 0);
    equal(runner.views.open(repo), view, "the same view");
    ok(poolLoad().idle >= 1, "the idle search worker is kept");
  });
});
