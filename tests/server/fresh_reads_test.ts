/**
 * Fresh reads without a watcher: a read tool never answers from a file that changed on disk
 * since it was indexed — the changed file is re-indexed first (real parser, real SQLite, files
 * edited on disk between calls, no watch mode).
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { answerFiles, argumentFiles } from "../../src/server/fresh_reads.ts";
import { indexedWorkspace, writeTree } from "../ingest/_helpers.ts";

Deno.test("fresh reads: an edit is served at once, with no watcher", async (t) => {
  const w = await indexedWorkspace({
    "pkg/a.py": "def area(w, h):\n    return w * h\n",
    "pkg/b.py": "def other():\n    pass\n",
  });
  try {
    const root = w.ws.root;
    await t.step("get_symbol_source serves the new body", async () => {
      writeTree(root, { "pkg/a.py": "def area(w, h):\n    return w * h * 2  # doubled\n" });
      const r = await w.call("get_symbol_source", { symbol_id: "pkg/a.py::area#function" });
      equal(r.isError, false, JSON.stringify(r.body));
      match(String(r.body.source), /doubled/);
      equal(r.body._freshness, "fresh");
      equal((r.body._meta as Record<string, unknown>).reindexed_files, 1);
    });
    await t.step("search_symbols serves the new signature", async () => {
      writeTree(root, { "pkg/a.py": "def area(width, height, depth):\n    return 0\n" });
      const r = await w.call("search_symbols", { query: "area" });
      const hit = (r.body.results as { name: string; signature: string; _freshness: string }[])
        .find((h) => h.name === "area")!;
      match(hit.signature, /depth/);
      equal(hit._freshness, "fresh");
    });
    await t.step("get_file_outline shows a function added to the file", async () => {
      writeTree(root, { "pkg/b.py": "def other():\n    pass\n\ndef added_now():\n    pass\n" });
      const r = await w.call("get_file_outline", { file_path: "pkg/b.py" });
      deepStrictEqual((r.body.symbols as { name: string }[]).map((s) => s.name), [
        "other",
        "added_now",
      ]);
    });
    await t.step("get_symbol_source finds a symbol added to an indexed file", async () => {
      writeTree(root, { "pkg/b.py": "def other():\n    pass\n\ndef later_still():\n    pass\n" });
      const r = await w.call("get_symbol_source", { symbol_id: "pkg/b.py::later_still#function" });
      equal(r.isError, false, JSON.stringify(r.body));
      match(String(r.body.source), /def later_still/);
    });
    await t.step("get_file_content serves a file written after the index", async () => {
      writeTree(root, { "pkg/c.py": "def brand_new():\n    pass\n" });
      const r = await w.call("get_file_content", { file_path: "pkg/c.py" });
      equal(r.isError, false, JSON.stringify(r.body));
      match(String(r.body.content), /brand_new/);
    });
    await t.step("a deleted file is not served", async () => {
      Deno.removeSync(join(root, "pkg/c.py"));
      const r = await w.call("get_file_outline", { file_path: "pkg/c.py" });
      deepStrictEqual([r.isError, r.body.code], [true, "file_not_found"]);
    });
    await t.step("an unchanged answer costs no re-index", async () => {
      const r = await w.call("get_file_outline", { file_path: "pkg/b.py" });
      equal((r.body._meta as Record<string, unknown>).reindexed_files, undefined);
    });
  } finally {
    await w.dispose();
  }
});

Deno.test("fresh reads: the files an answer comes from", () => {
  deepStrictEqual(
    answerFiles({
      repo: "r",
      results: [{ file: "a.py", id: "a.py::x" }, { file: "b.py" }],
      files: [{ file_path: "c.py" }],
      nested: { deeper: [{ file: "a.py" }] },
    }).sort(),
    ["a.py", "b.py", "c.py"],
  );
  deepStrictEqual(
    argumentFiles({
      file_path: "x.py",
      file_paths: ["y.py"],
      symbol_ids: ["src/z.ts::Z#class", "bare_name"],
    }),
    ["x.py", "y.py", "src/z.ts"],
  );
  ok(answerFiles({ file: 3 }).length === 0);
});
