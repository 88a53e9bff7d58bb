/**
 * A server watches every indexed local folder inside its allowed roots from the start, not only
 * the folders it indexes itself: the setup `init` makes (the folder indexed by a one-shot
 * command, the server started later by the client, again for each session). Bounded by the
 * folder limit, with a log line for the folders left out.
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import { join } from "node:path";
import { decode } from "../../mod.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { DEFAULT_SETTINGS } from "../../src/server/config.ts";
import { DEFAULT_WATCH_SETTINGS, type WatchSettings } from "../../src/server/watch.ts";
import { Store } from "../../src/store/mod.ts";
import {
  inThreadParser,
  tempWorkspace,
  testConfig,
  workspaceRunner,
  writeTree,
} from "../ingest/_helpers.ts";
import { BOUND_MS, eventually } from "./_watch.ts";

/** A server as a client starts it: a new process's runner over the same index directory. */
function server(
  ws: { root: string; indexDir: string },
  watch: Partial<WatchSettings>,
  allowedRoots: string[] | null,
) {
  const logs: string[] = [];
  const store = new Store(ws.indexDir);
  const runner = new ToolRunner({
    store,
    ingest: testConfig({ allowedRoots }),
    parser: inThreadParser,
    cwd: ws.root,
    settings: DEFAULT_SETTINGS,
    watch: { ...DEFAULT_WATCH_SETTINGS, debounceMs: 50, ...watch },
    log: (m) => logs.push(m),
  });
  const names = async (repo: string, query: string) => {
    const out = await runner.call("search_symbols", { repo, query, format: "json" });
    const body = decode(out.text) as { results: { name: string; file: string }[] };
    return body.results.filter((h) => h.name === query).map((h) => h.file);
  };
  return { runner, logs, names };
}

/** Index folders the way `init` does: one runner without watch mode, closed afterwards. */
async function indexOnce(ws: { root: string; store: Store }, folders: string[]) {
  const once = workspaceRunner(ws);
  const repos: string[] = [];
  for (const f of folders) {
    const r = await once.call("index_folder", { path: f, format: "json" });
    equal(r.isError, false, r.text);
    repos.push(JSON.parse(r.text).repo);
  }
  await once.close();
  return repos;
}

Deno.test("watch: a new server follows the folders indexed before it started", async () => {
  const ws = tempWorkspace("codemunch-watch-start-");
  const a = join(ws.root, "a");
  writeTree(a, { "app.py": "def app():\n    pass\n" });
  const [repo] = await indexOnce(ws, [a]);
  // An edit while no server runs: the new server's first index of the folder finds it.
  writeTree(a, { "offline.py": "def while_no_server():\n    pass\n" });
  const s = server(ws, {}, null);
  try {
    await eventually(() => s.runner.watcher!.folders.includes(a), "the folder is watched");
    match(s.logs.join("\n"), /watching 1 indexed folder\(s\)/);
    await eventually(
      async () => (await s.names(repo!, "while_no_server")).length === 1,
      "the offline edit is indexed",
    );
    // And a new file now arrives through the watcher (no answer of a query contains it).
    writeTree(a, { "later.py": "def after_start():\n    pass\n" });
    await eventually(
      async () => JSON.stringify(await s.names(repo!, "after_start")) === '["later.py"]',
      "the new file is indexed",
      BOUND_MS,
    );
    const status = JSON.parse((await s.runner.call("get_watch_status", { format: "json" })).text);
    equal(status.repos[0].origin, "indexed");
    equal(status.repos[0].watch, "running");
  } finally {
    await s.runner.close();
    ws.dispose();
  }
});

Deno.test("watch: the start-up watch is bounded and stays inside the allowed roots", async () => {
  const ws = tempWorkspace("codemunch-watch-start-max-");
  const [one, two, three, outside] = ["one", "two", "three", "outside/four"].map((d) =>
    join(ws.root, d)
  );
  for (const f of [one!, two!, three!, outside!]) writeTree(f, { "m.py": "def m():\n    pass\n" });
  await indexOnce(ws, [one!, two!, three!, outside!]);
  const s = server(ws, { maxFolders: 2 }, [one!, two!, three!]);
  try {
    await eventually(() => s.runner.watcher!.folders.length === 2, "two folders watched");
    match(s.logs.join("\n"), /not watching 1 more indexed folder\(s\): the limit is 2/);
    const status = JSON.parse((await s.runner.call("get_watch_status", { format: "json" })).text);
    const rows = status.repos as Record<string, unknown>[];
    equal(status.repo_count, 4);
    equal(status.watched_count, 2);
    equal(status.limit_max_folders, 2);
    const byRoot = new Map(rows.map((r) => [r.source_root, r]));
    match(String(byRoot.get(outside)!.watch_reason), /outside the allowed roots/);
    deepStrictEqual(
      rows.filter((r) => r.watch === "not_watched").map((r) => String(r.watch_reason)).sort()
        .map((r) => r.replace(/ \(.*/, "")),
      ["outside the allowed roots", "over the limit of 2 folders"],
    );
  } finally {
    await s.runner.close();
    ws.dispose();
  }
});
