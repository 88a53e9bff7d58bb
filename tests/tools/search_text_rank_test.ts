/**
 * search_text ranking and counts (issue 11): files by relevance — library source before tests,
 * then match density — not alphabetically; the total number of matching lines when the answer is
 * cut; and each match's enclosing symbol id.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";

Deno.test("search_text: relevance order, total_matches, enclosing symbols", async (t) => {
  const ws = tempWorkspace();
  writeTree(ws.root, {
    // Alphabetically first, and the densest: but a test file.
    "a_tests/test_widget.py": "def test_widget():\n    widget()\n    widget()\n    widget()\n",
    // Source, one match in a long file: low density.
    "lib/big.py": "def widget():\n    return 1\n" + "x = 1\n".repeat(40),
    // Source, dense.
    "lib/small.py": "class Box:\n    def widget(self):\n        return widget()\n",
  });
  const runner = workspaceRunner(ws);
  const call = async (args: Record<string, unknown>) =>
    JSON.parse(
      (await runner.call("search_text", { repo, ...args, format: "json" })).text,
    );
  let repo = "";
  try {
    repo = JSON.parse((await runner.call("index_folder", { path: ws.root, format: "json" })).text)
      .repo;
    await t.step("source before tests, then density", async () => {
      const r = await call({ query: "widget" });
      // One row per line; the files' order is the order their rows come in.
      deepStrictEqual(
        [...new Set((r.results as { file: string }[]).map((f) => f.file))],
        ["lib/small.py", "lib/big.py", "a_tests/test_widget.py"],
      );
      equal(r._meta.total_matches, 7);
      equal(r._meta.truncated, false);
    });
    await t.step("each match names its enclosing symbol", async () => {
      const r = await call({ query: "widget", file_pattern: "lib/small.py" });
      deepStrictEqual(r.results, [
        {
          file: "lib/small.py",
          line: 2,
          text: "    def widget(self):",
          symbol: "lib/small.py::Box.widget#method",
        },
        {
          file: "lib/small.py",
          line: 3,
          text: "        return widget()",
          symbol: "lib/small.py::Box.widget#method",
        },
      ]);
    });
    await t.step("the total when the answer is cut", async () => {
      const r = await call({ query: "widget", max_results: 2 });
      equal(r.result_count, 2);
      equal(r._meta.total_matches, 7);
      equal(r._meta.truncated, true);
      match(r._meta.hint, /Showing 2 of 7 matching lines/);
    });
  } finally {
    await runner.close();
    ws.dispose();
  }
});

Deno.test("search_text: every library file before tests and examples, no file takes every row", async () => {
  const ws = tempWorkspace();
  const raising = (n: number) =>
    Array.from({ length: n }, (_, i) => `def f${i}():\n    raise HTTPException(${i})\n`).join("");
  writeTree(ws.root, {
    // Issue 27: a large test file and documentation examples held most of the first 20 rows.
    "tests/test_errors.py": raising(60),
    "docs_src/handling_errors/tutorial001.py": raising(12),
    "fastapi/routing.py": raising(30),
    "fastapi/exceptions.py": raising(2),
    "fastapi/applications.py": raising(2),
    "fastapi/security/oauth2.py": raising(1),
  });
  const runner = workspaceRunner(ws);
  try {
    const repo = JSON.parse(
      (await runner.call("index_folder", { path: ws.root, format: "json" })).text,
    ).repo;
    const r = JSON.parse(
      (await runner.call("search_text", { repo, query: "raise HTTPException", format: "json" }))
        .text,
    );
    const files = (r.results as { file: string }[]).map((x) => x.file);
    equal(files.length, 20);
    // Every library file shows, before any test or example.
    deepStrictEqual([...new Set(files)].slice(0, 4).sort(), [
      "fastapi/applications.py",
      "fastapi/exceptions.py",
      "fastapi/routing.py",
      "fastapi/security/oauth2.py",
    ]);
    ok(files.filter((f) => f === "fastapi/routing.py").length < 20);
    equal(r._meta.total_matches, 107);
  } finally {
    await runner.close();
    ws.dispose();
  }
});
