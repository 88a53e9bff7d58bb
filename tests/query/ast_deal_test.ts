/**
 * A search_ast scan over several workers deals each worker its own languages (`dealByLanguage`),
 * so that a grammar is compiled by one worker, not by each: dealt every n-th file, each of two
 * workers compiled nearly all 72 grammars of fixtures/languages, and a scan of small files ran
 * out of its budget on a loaded machine.
 */
import { deepEqual, equal } from "node:assert/strict";
import { dealByLanguage } from "../../src/query/ast_search.ts";

Deno.test("dealByLanguage: every file once, a language in one share unless a share ends in it", () => {
  const files = ["go", "py", "go", "ts", "py", "java", "ts", "go"].map((language, i) => ({
    path: `f${i}`,
    language,
    size: 1_000,
  }));
  const shares = dealByLanguage(files, 2);
  equal(shares.length, 2);
  deepEqual(shares.flat().map((f) => f.path).sort(), files.map((f) => f.path).sort());
  const split = new Set(
    ["go", "py", "ts", "java"].filter((l) => shares.every((s) => s.some((f) => f.language === l))),
  );
  equal(split.size <= 1, true, `languages in both shares: ${[...split]}`);
  // Within a share, a language's files keep their order.
  const goFiles = shares.flat().filter((f) => f.language === "go").map((f) => f.path);
  deepEqual(goFiles, ["f0", "f2", "f7"]);
  deepEqual(dealByLanguage(files, 1), [files]);
});
