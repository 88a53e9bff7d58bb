/**
 * The stages of the retrieval pipeline one by one, on hand-made inputs with expectations worked
 * out by hand (not from the modules' constants): question words, coverage,
 * file roles and content, vendored layouts and headers, translation families, fuzzy likeness, the
 * context's relevance floor and search_text's row quotas.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { meaningfulQuery } from "../../src/query/query_words.ts";
import { coverageShare } from "../../src/query/symbol_rank.ts";
import { asksForContent, contentOf, contentWeight, fileRole } from "../../src/query/priors.ts";
import {
  hasVendoringHeader,
  translationFamilies,
  vendoredFolders,
} from "../../src/query/file_priors.ts";
import { allowedEdits, fuzzyScore, fuzzySimilarity } from "../../src/query/fuzzy_hits.ts";
import { lineQuotas } from "../../src/tools/search_text.ts";

Deno.test("words: question words and the project's name are left out", async (t) => {
  await t.step("a question keeps its concept words", () => {
    equal(
      meaningfulQuery("How does FastAPI resolve dependency injection?", new Set(["fastapi"])),
      "resolve dependency injection?",
    );
    equal(meaningfulQuery("how is a cookie signed"), "cookie signed");
  });
  await t.step("a single word, or only question words, stays as it is", () => {
    equal(meaningfulQuery("handle"), "handle");
    equal(meaningfulQuery("how is it"), "how is it");
  });
});

Deno.test("coverage: the share of the question's words a symbol has", () => {
  equal(coverageShare(0b011, 3), 2 / 3);
  equal(coverageShare(0, 2), 0);
  equal(coverageShare(0, 0), 1);
});

Deno.test("priors: role by path at any depth, content by language", async (t) => {
  await t.step("roles", () => {
    deepStrictEqual(
      [
        "pkg/_vendor/six.py",
        "a/b/third-party/x.go",
        "src/node_modules/x/index.js",
        "chi/_examples/rest/main.go",
        "lib/router.js",
        "README.md",
      ].map((p) => fileRole(p)),
      ["vendor", "vendor", "vendor", "example", "source", "docs"],
    );
  });
  await t.step("content, and what lifts it", () => {
    deepStrictEqual(
      ["python", "markdown", "toml", "json", "no-such-language"].map(contentOf),
      ["code", "document", "data", "data", "code"],
    );
    equal(contentWeight("code", new Set()), 1);
    ok(contentWeight("document", new Set()) < 0.5);
    equal(contentWeight("document", asksForContent("where does the readme say it")), 1);
    equal(contentWeight("data", asksForContent("build settings", "yaml")), 1);
  });
});

Deno.test("vendored code: by layout and by header, not by a note of where code came from", async (t) => {
  await t.step("layouts", () => {
    deepStrictEqual(
      [...vendoredFolders([
        "pip/__init__.py",
        "pip/packages/idna/core.py",
        "app/util.go",
        "app/xxhash/LICENSE.txt",
        "app/xxhash/xxhash.go",
        "packages/web/LICENSE",
        "packages/web/index.ts",
        "LICENSE",
        "main.go",
      ])].sort(),
      ["app/xxhash", "pip/packages"],
    );
  });
  await t.step("headers", () => {
    ok(hasVendoringHeader("// Code vendored from github.com/x/y at v1.2.\npackage y\n"));
    ok(hasVendoringHeader('"""This module is vendored from attrs."""\nimport x\n'));
    ok(!hasVendoringHeader("// Copied from Go distribution src/go/build/read.go.\npackage x\n"));
    ok(!hasVendoringHeader("import x\n# vendored from y\n"));
    ok(!hasVendoringHeader(undefined));
  });
});

Deno.test("translation families: sibling locale folders of documents", () => {
  const docs = ["en", "de", "fr", "pt-BR"].flatMap((
    l,
  ) => [`docs/${l}/index.md`, `docs/${l}/a/b.md`]);
  const families = translationFamilies([
    ...docs,
    "docs/en/only.md",
    "io/readme.md",
    "os/readme.md",
  ]);
  equal(families.get("docs/pt-BR/a/b.md"), "docs/*/a/b.md");
  equal(families.get("docs/de/index.md"), families.get("docs/en/index.md"));
  equal(families.get("docs/en/only.md"), undefined);
  // Two folders that read as locales are not three.
  equal(families.get("io/readme.md"), undefined);
});

Deno.test("fuzzy: edits allowed by length, similarity, a score below every match", () => {
  deepStrictEqual([1, 2, 3, 5, 6, 12].map(allowedEdits), [0, 0, 1, 1, 2, 2]);
  equal(fuzzySimilarity(1, 0, 4), 0.75);
  equal(fuzzySimilarity(2, 0.5, 4), 0.5);
  ok(fuzzyScore(1, 3) < 3);
  equal(fuzzyScore(0.5, undefined), 0.5);
});

Deno.test("search_text quotas: every file shows, one file does not take every row", () => {
  deepStrictEqual(lineQuotas([60, 12, 30, 2, 2, 1], 20), [5, 5, 5, 2, 2, 1]);
  deepStrictEqual(lineQuotas([3, 100], 20), [3, 17]);
  deepStrictEqual(lineQuotas([], 20), []);
});
