import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { TextLineStream } from "./_lines.ts";
import { indexLocalFolder } from "../../src/ingest/index_local.ts";
import { localRepoId } from "../../src/store/mod.ts";
import { ToolError } from "../../src/errors.ts";
import {
  inThreadParser,
  pyModule,
  tempWorkspace,
  testConfig,
  writeTree,
} from "../ingest/_helpers.ts";

const CHILD = new URL("./_index_child.ts", import.meta.url).pathname;

function spawnIndexer(folder: string, indexDir: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CHILD, folder, indexDir],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
}

function tree(n: number, version: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    files[`pkg${i % 10}/m${i}.py`] = pyModule(`${version}_${i}`, `shared_${i}`);
  }
  return files;
}

function integrity(dbPath: string): string {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    return (db.prepare("PRAGMA integrity_check").get() as { integrity_check: string })
      .integrity_check;
  } finally {
    db.close();
  }
}

Deno.test("a re-index killed mid-way leaves the previous index usable; the next one completes", async () => {
  const ws = tempWorkspace();
  try {
    const n = 600;
    writeTree(ws.root, tree(n, "v1"));
    const config = testConfig();
    await indexLocalFolder(ws.store, config, inThreadParser, { path: ws.root });
    const repo = localRepoId(ws.root);
    writeTree(ws.root, tree(n, "v2"));

    const child = spawnIndexer(ws.root, ws.indexDir);
    let seen = 0;
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(
      new TextLineStream(),
    );
    for await (const line of lines) {
      const m = /^progress (\d+) (\d+)$/.exec(line);
      if (m !== null && Number(m[1]) >= 100) {
        seen = Number(m[1]);
        child.kill("SIGKILL");
        break;
      }
    }
    const status = await child.status;
    equal(status.success, false);
    ok(seen >= 100 && seen < n, `killed after ${seen} of ${n} files`);

    const dbPath = ws.store.dbPath(repo);
    equal(integrity(dbPath), "ok");
    const index = ws.store.repo(repo);
    equal(index.fileCount(), n);
    deepEqual(index.symbolsOfFile("pkg5/m5.py").map((s) => s.name), ["v1_5", "shared_5"]);
    equal(index.searchSymbols("v1_123")[0]!.symbol.id, "pkg3/m123.py::v1_123#function");
    deepEqual(index.symbolsByName("v2_5"), []);

    const again = await indexLocalFolder(ws.store, config, inThreadParser, { path: ws.root });
    equal(again.mode, "incremental");
    equal(again.changed, n);
    deepEqual(ws.store.repo(repo).symbolsOfFile("pkg5/m5.py").map((s) => s.name), [
      "v2_5",
      "shared_5",
    ]);
    equal(integrity(dbPath), "ok");
  } finally {
    ws.dispose();
  }
});

Deno.test("two processes indexing the same folder at once: one waits, the index stays whole", async () => {
  const ws = tempWorkspace();
  try {
    const n = 300;
    writeTree(ws.root, tree(n, "v1"));
    const a = spawnIndexer(ws.root, ws.indexDir);
    const b = spawnIndexer(ws.root, ws.indexDir);
    const results = await Promise.all([a, b].map(async (c) => {
      const out = await c.output();
      const last = new TextDecoder().decode(out.stdout).trim().split("\n").at(-1)!;
      return JSON.parse(last) as { ok: boolean; mode: string; file_count: number };
    }));
    ok(results.every((r) => r.ok), JSON.stringify(results));
    deepEqual(results.map((r) => r.mode).sort(), ["full", "unchanged"]);
    const repo = localRepoId(ws.root);
    equal(integrity(ws.store.dbPath(repo)), "ok");
    equal(ws.store.repo(repo).fileCount(), n);
    equal(ws.store.repo(repo).symbolCount(), 2 * n);
  } finally {
    ws.dispose();
  }
});

Deno.test("a second indexer that may not wait gets index_busy, and readers keep working", async () => {
  const ws = tempWorkspace();
  try {
    writeTree(ws.root, tree(50, "v1"));
    await indexLocalFolder(ws.store, testConfig(), inThreadParser, { path: ws.root });
    writeTree(ws.root, tree(50, "v2"));
    const repo = localRepoId(ws.root);
    // Another writer holds the lock with uncommitted changes.
    const other = await ws.store.writer(repo);
    other.clear();
    equal(ws.store.repo(repo).symbolsByName("v1_7").length, 1);
    await rejects(
      indexLocalFolder(ws.store, testConfig({ indexWaitMs: 50 }), inThreadParser, {
        path: ws.root,
      }),
      (e) => e instanceof ToolError && e.code === "index_busy" && /try again/.test(e.message),
    );
    other.rollback();
    const done = await indexLocalFolder(ws.store, testConfig(), inThreadParser, { path: ws.root });
    equal(done.changed, 50);
    equal(ws.store.repo(repo).symbolsByName("v2_7").length, 1);
    equal(ws.store.repo(repo).searchSymbols("v2_7")[0]!.symbol.name, "v2_7");
  } finally {
    ws.dispose();
  }
});
