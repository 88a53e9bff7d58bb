/**
 * search_text ranking and counts (issue 11): files by relevance — library source before tests,
 * then match density — not alphabetically; the total number of matching lines when the answer is
 * cut; and each match's enclosing symbol id.
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
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
