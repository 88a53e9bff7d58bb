/** Re-index behaviour: parser prewarm, and a full rebuild when the parser version changed. */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { type FileParser, indexLocalFolder } from "../../src/ingest/index_local.ts";
import { inThreadParser, pyModule, tempWorkspace, testConfig, writeTree } from "./_helpers.ts";

Deno.test("indexLocalFolder prewarms the parser for the main language on a re-index only", async () => {
  const ws = tempWorkspace();
  try {
    writeTree(ws.root, {
      "a.py": pyModule("a"),
      "b.py": pyModule("b"),
      "c.go": "package c\n\nfunc C() {}\n",
    });
    const warmed: string[][] = [];
    const parser: FileParser = {
      parse: inThreadParser.parse,
      prewarm: (languages) => warmed.push([...languages]),
    };
    const first = await indexLocalFolder(ws.store, testConfig(), parser, { path: ws.root });
    assert.equal(first.mode, "full");
    assert.deepEqual(warmed, []); // a full index parses everything anyway
    writeTree(ws.root, { "b.py": pyModule("b", "b2") });
    const again = await indexLocalFolder(ws.store, testConfig(), parser, { path: ws.root });
    assert.deepEqual([again.mode, again.changed], ["incremental", 1]);
    assert.deepEqual(warmed, [["python"]]);
    // A parser without prewarm (the optional hook) indexes the same way.
    writeTree(ws.root, { "a.py": pyModule("a", "a2") });
    const third = await indexLocalFolder(ws.store, testConfig(), inThreadParser, { path: ws.root });
    assert.deepEqual([third.mode, third.changed, third.symbol_count], ["incremental", 1, 5]);
  } finally {
    ws.dispose();
  }
});

Deno.test("an index written by another parser version is rebuilt in full, with a warning", async () => {
  const ws = tempWorkspace();
  try {
    writeTree(ws.root, { "a.py": pyModule("a"), "b.py": pyModule("b") });
    const first = await indexLocalFolder(ws.store, testConfig(), inThreadParser, { path: ws.root });
    assert.equal(first.mode, "full");
    // As an index from before the version was recorded: no key at all.
    const db = new DatabaseSync(ws.store.dbPath(first.repo));
    db.exec("DELETE FROM meta WHERE key = 'extractor_version'");
    db.close();
    const again = await indexLocalFolder(ws.store, testConfig(), inThreadParser, { path: ws.root });
    assert.equal(again.mode, "full");
    assert.ok(
      again.warnings.some((w) => w.includes("another parser version (1, this build")),
      again.warnings.join("\n"),
    );
    // Now recorded: the next index is incremental again.
    const third = await indexLocalFolder(ws.store, testConfig(), inThreadParser, { path: ws.root });
    assert.equal(third.mode, "unchanged");
    assert.ok(!third.warnings.some((w) => w.includes("parser version")));
  } finally {
    ws.dispose();
  }
});
