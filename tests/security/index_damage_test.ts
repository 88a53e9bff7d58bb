/**
 * Index damage inside a valid file is repaired (issue 25, minor 11): random bytes in pages 2-5
 * (every write failed with "database disk image is malformed", although the message said to run
 * index_folder) and a 64 KB scribble mid-file (an incremental run reported success and left it
 * damaged). A write that fails on damage, or a read that reported it, makes the next index run
 * check the file (`PRAGMA quick_check`) and rebuild it; after it the file passes
 * `PRAGMA integrity_check`. invalidate_cache takes the name list_repos shows.
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { ToolRunner } from "../../src/server/runner.ts";
import { Store } from "../../src/store/store.ts";
import { inThreadParser } from "../ingest/_helpers.ts";

function _workspace() {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-damage-" }));
  const root = join(base, "proj");
  Deno.mkdirSync(root);
  for (let i = 0; i < 60; i++) {
    Deno.writeTextFileSync(
      join(root, `m${i}.py`),
      Array.from({ length: 40 }, (_, k) => `def f${i}_${k}(x):\n    return x + ${k}\n`).join(""),
    );
  }
  const indexDir = join(base, "idx");
  const runner = () =>
    new ToolRunner({
      store: new Store(indexDir),
      parser: inThreadParser,
      cwd: root,
      log: () => {},
    });
  return { base, root, indexDir, runner };
}

async function _call(r: ToolRunner, tool: string, args: Record<string, unknown> = {}) {
  const out = await r.call(tool, { ...args, format: "json" });
  return { isError: out.isError, body: JSON.parse(out.text) as Record<string, unknown> };
}

function _dbFile(indexDir: string): string {
  const name =
    [...Deno.readDirSync(indexDir)].find((e) => e.name.endsWith(".db") && !e.name.startsWith("_"))!
      .name;
  return join(indexDir, name);
}

function _integrity(db: string): string {
  const d = new DatabaseSync(db, { readOnly: true });
  try {
    return (d.prepare("PRAGMA integrity_check").all() as { integrity_check: string }[])
      .map((r) => r.integrity_check).join("; ");
  } catch (e) {
    return String(e);
  } finally {
    d.close();
  }
}

/** Overwrite `length` bytes at `at` with random bytes (a checkpointed, closed database). */
function _scribble(db: string, at: number, length: number): void {
  const f = Deno.openSync(db, { write: true });
  f.seekSync(at, Deno.SeekMode.Start);
  const junk = new Uint8Array(length);
  for (let i = 0; i < length; i += 65536) crypto.getRandomValues(junk.subarray(i, i + 65536));
  f.writeSync(junk);
  f.close();
}

const _DAMAGE: [string, (db: string) => void][] = [
  ["random bytes in pages 2-5", (db) => _scribble(db, 4096, 4 * 4096)],
  ["a 64 KB scribble mid-file", (db) => _scribble(db, Deno.statSync(db).size >> 1, 65536)],
];

for (const [label, damage] of _DAMAGE) {
  Deno.test(`index damage: ${label} is repaired by index_folder`, async () => {
    const w = _workspace();
    try {
      let r = w.runner();
      const repo = (await _call(r, "index_folder", { path: w.root })).body.repo as string;
      await r.close();
      const db = _dbFile(w.indexDir);
      equal(_integrity(db), "ok");
      damage(db);
      ok(_integrity(db) !== "ok", "the damage is real");
      r = w.runner();
      try {
        // Reads that meet the damage say so (and the server remembers it).
        for (const q of ["f1_1", "f30_2", "f59_39", "return"]) {
          const s = await _call(r, "search_text", { repo, query: q, max_results: 1000 });
          if (s.isError) match(String(s.body.code), /index_corrupt/);
          await _call(r, "search_symbols", { repo, query: q });
        }
        const again = await _call(r, "index_folder", { path: w.root });
        equal(again.isError, false, JSON.stringify(again.body));
        await r.close();
        equal(_integrity(db), "ok");
        r = w.runner();
        const found = await _call(r, "search_symbols", { repo, query: "f59_39" });
        equal(found.isError, false, JSON.stringify(found.body));
      } finally {
        await r.close();
      }
    } finally {
      Deno.removeSync(w.base, { recursive: true });
    }
  });
}

Deno.test("invalidate_cache takes the name list_repos shows, also for an unreadable index", async () => {
  const w = _workspace();
  try {
    let r = w.runner();
    await _call(r, "index_folder", { path: w.root });
    await r.close();
    const db = _dbFile(w.indexDir);
    Deno.writeTextFileSync(db, "garbage ".repeat(1000));
    r = w.runner();
    try {
      const listed = await _call(r, "list_repos");
      const shown = JSON.stringify(listed.body);
      match(shown, /proj/);
      const gone = await _call(r, "invalidate_cache", { repo: "proj" });
      equal(gone.isError, false, JSON.stringify(gone.body));
      equal((await _call(r, "list_repos")).body.count, 0);
    } finally {
      await r.close();
    }
  } finally {
    Deno.removeSync(w.base, { recursive: true });
  }
});
