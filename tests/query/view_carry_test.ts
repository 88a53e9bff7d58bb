/**
 * Facets carried across a small change: after a few files are re-indexed in this process, the
 * next view keeps the ranking prior (centrality) and, while no file was added or removed, the
 * path facets — instead of rebuilding them for the whole repo (seconds on a large repo after
 * every edit). Anything else, and any other change, is built again.
 */
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { indexLocalFolder } from "../../src/ingest/index_local.ts";
import { CENTRALITY } from "../../src/query/centrality.ts";
import { FILES, PATHS, PATHS_BY_ID } from "../../src/query/files.ts";
import { MAX_CARRIED_CHANGES } from "../../src/query/view.ts";
import { reindexFiles } from "../../src/tools/reindex.ts";
import {
  inThreadParser,
  tempWorkspace,
  testConfig,
  workspaceContext,
  writeTree,
} from "../ingest/_helpers.ts";

Deno.test("views: a small change carries the prior and (same paths) the path facets", async () => {
  const ws = tempWorkspace("codemunch-carry-");
  try {
    writeTree(ws.root, {
      "a.py": "def a():\n    b()\n",
      "b.py": "def b():\n    pass\n",
    });
    const o = await indexLocalFolder(ws.store, testConfig(), inThreadParser, { path: ws.root });
    const ctx = workspaceContext(ws);
    const first = ctx.views.open(o.repo);
    const prior = first.get(CENTRALITY);
    const paths = first.get(PATHS_BY_ID);
    first.get(PATHS);
    first.get(FILES);

    writeTree(ws.root, { "b.py": "def b():\n    return 2\n" });
    await reindexFiles(ctx, ws.root, ["b.py"]);
    const second = ctx.views.open(o.repo);
    ok(second !== first);
    equal(second.get(CENTRALITY), prior, "the prior is carried");
    equal(second.get(PATHS_BY_ID), paths, "no file added or removed: the path facets too");
    equal(second.has(FILES), false, "what lists files (sizes, mtimes) is built again");
    equal(second.carriedChanges, 1);

    writeTree(ws.root, { "c.py": "def c():\n    pass\n" });
    await reindexFiles(ctx, ws.root, ["c.py"]);
    const third = ctx.views.open(o.repo);
    equal(third.get(CENTRALITY), prior);
    equal(third.has(PATHS_BY_ID), false, "a file was added: path facets are built again");
    equal(third.get(PATHS).length, 3);

    // A folder index is not a small change: nothing is carried.
    writeTree(ws.root, { "d.py": "def d():\n    pass\n" });
    await indexLocalFolder(ws.store, testConfig(), inThreadParser, { path: ws.root });
    const fourth = ctx.views.open(o.repo);
    equal(fourth.has(CENTRALITY), false);

    // The prior drifts at most MAX_CARRIED_CHANGES small changes from the index.
    let view = fourth;
    view.get(CENTRALITY);
    for (let i = 0; i <= MAX_CARRIED_CHANGES; i++) {
      writeTree(ws.root, { "b.py": `def b():\n    return ${i + 10}\n` });
      await reindexFiles(ctx, ws.root, [join(ws.root, "b.py")]);
      view = ctx.views.open(o.repo);
      if (i < MAX_CARRIED_CHANGES) equal(view.carriedChanges, i + 1);
      view.get(CENTRALITY);
    }
    equal(view.carriedChanges, 0, "rebuilt after the bound");
  } finally {
    ws.dispose();
  }
});
