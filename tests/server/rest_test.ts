/**
 * A quiet server rests once no call came for `CODEMUNCH_IDLE_DROP_S`: it drops the read model of
 * every repo, closes its idle search workers and stops its parser workers, the spare too (real
 * SQLite, real worker threads), and the next calls answer the same from what they build again.
 * Calls that keep coming keep all of them.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { IDLE_DROP_MS } from "../../src/query/view.ts";
import { closeIdleWorkers, poolLoad, setIdleCloseMs } from "../../src/query/search_pool.ts";
import { DEFAULT_SETTINGS } from "../../src/server/config.ts";
import { ParserPool } from "../../src/parser/pool.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { DEFAULT_WATCH_SETTINGS, type WatchBatch } from "../../src/server/watch.ts";
import { inThreadParser, tempWorkspace, testConfig, writeTree } from "../ingest/_helpers.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A runner resting after 1 s, on a small indexed folder; `use` gets its call function and the
 * folder. `ownPool`: the runner parses in its own parser pool (real workers) instead of in-thread;
 * `watch`: watch mode on (the folder indexed is watched).
 */
async function withRunner(
  use: (
    runner: ToolRunner,
    call: (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>,
    repo: string,
    root: string,
  ) => Promise<void>,
  { ownPool = false, watch = false } = {},
): Promise<void> {
  const ws = tempWorkspace("codemunch-rest-");
  const runner = new ToolRunner({
    store: ws.store,
    ingest: testConfig(),
    ...(ownPool ? {} : { parser: inThreadParser }),
    cwd: ws.root,
    settings: { ...DEFAULT_SETTINGS, idleDropS: 1 },
    ...(watch ? { watch: { ...DEFAULT_WATCH_SETTINGS, debounceMs: 50 } } : {}),
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
    await use(runner, call, repo, ws.root);
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

Deno.test("runner: the rest stops the parser workers, the spare too; the next index starts them again", async () => {
  await withRunner(async (runner, call, repo, root) => {
    ok(runner.parserWorkers >= 1, "the index ran in the runner's parser workers");
    const t0 = Date.now();
    while (runner.rests === 0) {
      ok(Date.now() - t0 < 15_000, "the quiet server rests");
      await sleep(50);
    }
    equal(runner.parserWorkers, 0, "no parser worker is left, not even a spare");
    // A change after the rest: the next index parses it in new workers, and answers see it.
    writeTree(root, { "c.py": "def gamma():\n    return 'needle'\n" });
    const again = await call("index_folder", { path: root });
    equal(again.repo, repo);
    ok(runner.parserWorkers >= 1, "the index started parser workers again");
    const hits = (await call("search_symbols", { repo, query: "gamma" })).results as {
      name: string;
    }[];
    equal(hits[0]?.name, "gamma");
    const text = (await call("search_text", { repo, query: "needle" })).results as unknown[];
    equal(text.length, 2, "a.py and the new c.py");
    // Quiet again: the second rest stops them again.
    while (runner.rests < 2) {
      ok(Date.now() - t0 < 30_000, "the quiet server rests again");
      await sleep(50);
    }
    equal(runner.parserWorkers, 0);
  }, { ownPool: true });
});

Deno.test("runner: a watched change re-indexed after the rest is activity: the server rests again after it", async () => {
  await withRunner(async (runner, call, repo, root) => {
    const batches: WatchBatch[] = [];
    runner.watcher!.onBatch((b) => batches.push(b));
    const t0 = Date.now();
    while (runner.rests === 0) {
      ok(Date.now() - t0 < 15_000, "the quiet server rests");
      await sleep(50);
    }
    equal(runner.parserWorkers, 0);
    writeTree(root, { "c.py": "def gamma():\n    return 1\n" });
    while (batches.length === 0) {
      ok(Date.now() - t0 < 20_000, "the watcher re-indexes the change");
      await sleep(20);
    }
    // No call came since: only the re-index makes the server rest a second time.
    while (runner.rests < 2 || runner.parserWorkers > 0) {
      ok(Date.now() - t0 < 30_000, "the server rests again after the re-index");
      await sleep(50);
    }
    equal(runner.views.size, 0, "the prewarm's view is dropped too");
    const hits = (await call("search_symbols", { repo, query: "gamma" })).results as {
      name: string;
    }[];
    equal(hits[0]?.name, "gamma");
  }, { ownPool: true, watch: true });
});

Deno.test("ParserPool.rest: nothing stopped while a job runs; after a rest the spare is gone and parses answer the same", async () => {
  const enc = new TextEncoder();
  const go = enc.encode("package b\n\nfunc B() {}\n");
  const pool = new ParserPool({ workers: 2, idleStopMs: 100 });
  try {
    const first = await pool.parse("b.go", go);
    const running = pool.parse("b.go", go);
    equal(pool.rest(), 0, "a pool with a job running is left alone");
    deepEqual(await running, first);
    // The idle stop keeps one fresh spare; the rest stops it too.
    const t0 = Date.now();
    while (pool.idleStops === 0) {
      ok(Date.now() - t0 < 10_000, "the idle stop");
      await sleep(20);
    }
    equal(pool.running, 1, "the spare");
    equal(pool.rest(), 1);
    equal(pool.running, 0);
    await sleep(300);
    equal(pool.running, 0, "no spare comes back by itself");
    deepEqual(await pool.parse("b.go", go), first);
    equal(pool.running, 1);
  } finally {
    await pool.close();
  }
});
