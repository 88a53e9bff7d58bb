/**
 * A repo's view that goes unused for `idleDropMs` is dropped with everything it built: the next
 * call gets a fresh view that builds what it needs again, with the same answers. A view in use
 * is kept.
 */
import { deepEqual, equal, notEqual, ok, throws } from "node:assert/strict";
import { indexLocalFolder } from "../../src/ingest/index_local.ts";
import { FILES, PATHS } from "../../src/query/files.ts";
import { IDLE_DROP_MS, RepoViews } from "../../src/query/view.ts";
import { setIdleCloseMs } from "../../src/query/search_pool.ts";
import { DEFAULT_SETTINGS, settingsFromEnv } from "../../src/server/config.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { inThreadParser, tempWorkspace, testConfig, writeTree } from "../ingest/_helpers.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("views: an unused view is dropped after idleDropMs and rebuilt on demand", async () => {
  const ws = tempWorkspace("codemunch-view-idle-");
  try {
    writeTree(ws.root, { "a.py": "def a():\n    pass\n", "b.py": "def b():\n    pass\n" });
    const o = await indexLocalFolder(ws.store, testConfig(), inThreadParser, { path: ws.root });
    const views = new RepoViews(ws.store, { idleDropMs: 2000 });
    const first = views.open(o.repo);
    const paths = first.get(PATHS);
    first.get(FILES);
    // Used more often than the delay: kept, with its facets.
    for (let i = 0; i < 5; i++) {
      await sleep(100);
      equal(views.open(o.repo), first);
    }
    equal(views.idleDrops, 0);
    // Unused: dropped (bounded wait; the sweep runs once the delay has passed).
    const t0 = Date.now();
    while (views.idleDrops === 0) {
      ok(Date.now() - t0 < 20_000, "the unused view is dropped");
      await sleep(20);
    }
    const second = views.open(o.repo);
    notEqual(second, first);
    equal(second.has(PATHS), false, "a fresh view builds its facets again");
    deepEqual(second.get(PATHS), paths);
  } finally {
    ws.dispose();
  }
  throws(() => new RepoViews(ws.store, { idleDropMs: 0 }), RangeError);
});

Deno.test("server: CODEMUNCH_IDLE_DROP_S reaches the read model; answers are the same after a drop", async () => {
  equal(settingsFromEnv(() => undefined).idleDropS, 300);
  equal(settingsFromEnv((n) => ({ CODEMUNCH_IDLE_DROP_S: "60" })[n]).idleDropS, 60);
  throws(
    () => settingsFromEnv((n) => ({ CODEMUNCH_IDLE_DROP_S: "0" })[n]),
    /CODEMUNCH_IDLE_DROP_S/,
  );
  const ws = tempWorkspace("codemunch-view-idle-runner-");
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
      "a.py": "def alpha():\n    pass\n",
      "b.py": "def beta():\n    alpha()\n",
    });
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await runner.call(name, { format: "json", ...args });
      equal(r.isError, false, r.text);
      return JSON.parse(r.text) as Record<string, unknown>;
    };
    const repo = String((await call("index_folder", { path: ws.root })).repo);
    const hits = async () => (await call("search_symbols", { repo, query: "alpha" })).results;
    const before = await hits();
    const t0 = Date.now();
    while (runner.views.idleDrops === 0) {
      ok(Date.now() - t0 < 20_000, "the idle view is dropped");
      await sleep(50);
    }
    deepEqual(await hits(), before);
  } finally {
    await runner.close();
    setIdleCloseMs(IDLE_DROP_MS);
    ws.dispose();
  }
});
