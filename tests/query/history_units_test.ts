/**
 * History helpers of the query layer: `unifiedDiff` (symbol_diff.ts) against GNU `diff -u` on the
 * same texts, `commitCategory` (provenance.ts) on commit subjects, and the test reach
 * (test_reach.ts) over a real index: what a test reaches through resolved calls, and the nearest
 * reached caller of what it does not.
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import { join } from "node:path";
import { unifiedDiff } from "../../src/query/symbol_diff.ts";
import { commitCategory } from "../../src/query/provenance.ts";
import { nearestTestedCaller, TEST_REACH } from "../../src/query/test_reach.ts";
import { indexedView } from "./_fixture.ts";

/** The hunks of `diff -U<context>` of two texts (its header lines dropped). */
function gnuDiff(a: string, b: string, context: number): string[] {
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-diff-" });
  try {
    Deno.writeTextFileSync(join(dir, "a"), a);
    Deno.writeTextFileSync(join(dir, "b"), b);
    const out = new Deno.Command("diff", {
      args: [`-U${context}`, "a", "b"],
      cwd: dir,
      stdout: "piped",
    })
      .outputSync();
    return new TextDecoder().decode(out.stdout).split("\n").slice(2).filter((l) => l !== "");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("unifiedDiff: the hunks diff -u writes, with the +/- counts", () => {
  const lines = (n: number, edit: (i: number) => string | null) =>
    Array.from({ length: n }, (_, i) => edit(i)).filter((l) => l !== null).join("\n") + "\n";
  const a = lines(30, (i) => `line ${i}`);
  const b = lines(
    31,
    (i) => i === 3 ? "changed 3" : i === 20 ? null : i === 30 ? "added" : `line ${i}`,
  );
  for (const context of [0, 1, 3]) {
    const ours = unifiedDiff(a, b, ["a", "b"], [1, 1], context);
    deepStrictEqual(ours.text.split("\n").slice(2).filter((l) => l !== ""), gnuDiff(a, b, context));
  }
  const three = unifiedDiff(a, b, ["a", "b"], [1, 1]);
  deepStrictEqual([three.added, three.removed], [2, 2]);
  equal(unifiedDiff(a, a, ["a", "b"], [1, 1]).text, "", "no change, no diff");
  // A symbol's lines start where it starts in its file: the ranges count from there.
  match(unifiedDiff("x\ny\n", "x\nz\n", ["a", "b"], [40, 50]).text, /^@@ -40,2 \+50,2 @@$/m);
});

Deno.test("commitCategory: the first matching category of a subject", () => {
  deepStrictEqual(
    [
      "Fix crash on empty input",
      "perf: faster tokenizer",
      "Refactor the parser",
      "Add tests for the cache",
      "Update README",
      "Bump deps",
      "Add a search command",
      "Tweak wording",
    ].map(commitCategory),
    ["bugfix", "perf", "refactor", "test", "docs", "config", "feature", "evolution"],
  );
});

Deno.test("test reach: what tests reach through calls, and the nearest reached caller", async () => {
  const t = await indexedView({
    "app/core.py": [
      "def used():",
      "    return helper()",
      "",
      "def helper():",
      "    return 1",
      "",
      "def untested():",
      "    return deep()",
      "",
      "def deep():",
      "    return 2",
      "",
      "def outer():",
      "    return untested()",
      "",
    ].join("\n"),
    "tests/test_core.py": "from app.core import used\n\ndef test_used():\n    assert used() == 1\n",
  });
  try {
    const reach = t.view.get(TEST_REACH);
    deepStrictEqual([...reach.testFiles], ["tests/test_core.py"]);
    const depth = (name: string) => reach.reached.get(`app/core.py::${name}#function`)?.depth;
    deepStrictEqual(["used", "helper", "untested", "deep", "outer"].map(depth), [
      1,
      2,
      undefined,
      undefined,
      undefined,
    ]);
    equal(
      reach.reached.get("app/core.py::used#function")?.test,
      "tests/test_core.py::test_used#function",
    );
    // Nothing tested calls `deep` (its callers untested and outer are unreached).
    equal(nearestTestedCaller(t.view, t.symbol("app/core.py::deep#function")), null);
  } finally {
    await t.close();
  }
});
