/**
 * An index can always be recovered (issue 10): a truncated, garbage or wrong-type database file,
 * or one from a future schema, gets a clear error naming the problem and the fix; index_folder
 * rebuilds it; invalidate_cache removes it; list_repos and repo_not_found agree; a corrupt
 * `_savings.db` resets with a warning; a database truncated under a live server does not block
 * the event loop.
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { ToolRunner } from "../../src/server/runner.ts";
import { Store } from "../../src/store/store.ts";
import { inThreadParser } from "../ingest/_helpers.ts";

function workspace(files = 1) {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-recover-" }));
  const root = join(base, "proj");
  Deno.mkdirSync(root);
  for (let i = 0; i < files; i++) {
    Deno.writeTextFileSync(join(root, `a${i}.py`), `def a${i}():\n    pass\n`.repeat(20));
  }
  const indexDir = join(base, "idx");
  const warnings: string[] = [];
  const runner = () =>
    new ToolRunner({
      store: new Store(indexDir),
      parser: inThreadParser,
      cwd: root,
      log: (m) => warnings.push(m),
    });
  return { base, root, indexDir, runner, warnings };
}

async function call(r: ToolRunner, tool: string, args: Record<string, unknown> = {}) {
  const out = await r.call(tool, { ...args, format: "json" });
  return { isError: out.isError, body: JSON.parse(out.text) as Record<string, unknown> };
}

function dbFile(indexDir: string): string {
  const name =
    [...Deno.readDirSync(indexDir)].find((e) => e.name.endsWith(".db") && !e.name.startsWith("_"))!
      .name;
  return join(indexDir, name);
}

function removeDb(db: string): void {
  for (const s of ["", "-wal", "-shm"]) {
    try {
      Deno.removeSync(db + s, { recursive: true });
    } catch { /* absent */ }
  }
}

const DAMAGE: [string, (db: string, good: Uint8Array) => void, RegExp][] = [
  [
    "truncated",
    (db, good) => Deno.writeFileSync(db, good.subarray(0, good.length >> 1)),
    /damaged|truncated/,
  ],
  ["garbage", (db) => Deno.writeTextFileSync(db, "garbage ".repeat(1000)), /not a SQLite database/],
  ["a directory", (db) => Deno.mkdirSync(db), /.*/],
  ["another kind of SQLite", (db) => {
    const d = new DatabaseSync(db);
    d.exec("CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('x')");
    d.close();
  }, /older codemunch/],
  ["future schema", (db, good) => {
    Deno.writeFileSync(db, good);
    const d = new DatabaseSync(db);
    d.exec("PRAGMA user_version=99");
    d.close();
  }, /newer codemunch/],
];

for (const [label, damage, problem] of DAMAGE) {
  Deno.test(`index recovery: ${label} database file`, async () => {
    const w = workspace();
    try {
      let r = w.runner();
      const repo = (await call(r, "index_folder", { path: w.root })).body.repo as string;
      await r.close();
      const db = dbFile(w.indexDir);
      const good = Deno.readFileSync(db);
      removeDb(db);
      damage(db, good);
      r = w.runner();
      try {
        const tree = await call(r, "get_file_tree", { repo });
        equal(tree.isError, true);
        ok(tree.body.code !== "internal_error", JSON.stringify(tree.body));
        if (tree.body.code !== "repo_not_found") {
          match(String(tree.body.error), problem);
          match(String(tree.body.error), /index_folder/);
        }
        // list_repos and the repo_not_found message agree on what is indexed.
        const listed = await call(r, "list_repos");
        equal(listed.body.count, 0);
        const missing = await call(r, "get_file_tree", { repo: "local/nope-00000000" });
        equal(missing.body.code, "repo_not_found");
        ok(!String(missing.body.error).includes(`Indexed: ${repo}`), String(missing.body.error));
        // index_folder rebuilds it, with a warning saying so.
        const again = await call(r, "index_folder", { path: w.root });
        equal(again.isError, false, JSON.stringify(again.body));
        const after = await call(r, "get_file_tree", { repo });
        equal(after.isError, false, JSON.stringify(after.body));
        equal((await call(r, "list_repos")).body.count, 1);
      } finally {
        await r.close();
      }
    } finally {
      Deno.removeSync(w.base, { recursive: true });
    }
  });
}

Deno.test("index recovery: invalidate_cache removes a garbage database file", async () => {
  const w = workspace();
  try {
    let r = w.runner();
    const repo = (await call(r, "index_folder", { path: w.root })).body.repo as string;
    await r.close();
    const db = dbFile(w.indexDir);
    removeDb(db);
    Deno.writeTextFileSync(db, "garbage ".repeat(1000));
    r = w.runner();
    try {
      const removed = await call(r, "invalidate_cache", { repo });
      equal(removed.isError, false, JSON.stringify(removed.body));
      equal((await call(r, "get_file_tree", { repo })).body.code, "repo_not_found");
    } finally {
      await r.close();
    }
  } finally {
    Deno.removeSync(w.base, { recursive: true });
  }
});

Deno.test("index recovery: a corrupt _savings.db resets with a warning, tools keep working", async () => {
  const w = workspace();
  try {
    let r = w.runner();
    const repo = (await call(r, "index_folder", { path: w.root })).body.repo as string;
    await r.close();
    const savings = join(w.indexDir, "_savings.db");
    removeDb(savings);
    Deno.writeTextFileSync(savings, "garbage ".repeat(1000));
    const stderr: string[] = [];
    const original = console.error;
    console.error = (m: string) => stderr.push(m);
    r = w.runner();
    try {
      const tree = await call(r, "get_file_tree", { repo });
      equal(tree.isError, false, JSON.stringify(tree.body));
      equal((await call(r, "list_repos")).isError, false);
    } finally {
      console.error = original;
      await r.close();
    }
    ok(stderr.some((m) => /savings counter.*reset/.test(m)), stderr.join("\n"));
  } finally {
    Deno.removeSync(w.base, { recursive: true });
  }
});

Deno.test("index recovery: a database truncated under a live server does not block it", async () => {
  const w = workspace(30);
  const r = w.runner();
  try {
    const repo = (await call(r, "index_folder", { path: w.root })).body.repo as string;
    equal((await call(r, "get_file_tree", { repo })).isError, false);
    Deno.truncateSync(dbFile(w.indexDir), 0);
    const tree = await call(r, "get_file_tree", { repo });
    ok(tree.body.code !== "internal_error", JSON.stringify(tree.body));
    const started = performance.now();
    const again = await call(r, "index_folder", { path: w.root });
    const ms = performance.now() - started;
    equal(again.isError, false, JSON.stringify(again.body));
    ok(ms < 10_000, `index_folder took ${ms.toFixed(0)} ms`);
    equal((await call(r, "get_file_tree", { repo })).isError, false);
  } finally {
    await r.close();
    Deno.removeSync(w.base, { recursive: true });
  }
});
