/** Capture names are checked on each query's source: the scanner must see what tree-sitter sees. */
import assert from "node:assert/strict";
import { type Language, Query } from "web-tree-sitter";
import { GRAMMAR_LANGUAGES } from "../../src/parser/mod.ts";
import { loadGrammar, querySourceCaptures } from "../../src/parser/loader.ts";

Deno.test("querySourceCaptures finds the capture names tree-sitter compiles, for every language", async () => {
  for (const spec of GRAMMAR_LANGUAGES) {
    const variants = [spec, ...Object.values(spec.regions?.variants ?? {})];
    for (const v of variants) {
      let language: Language;
      try {
        language = await loadGrammar(v.grammar, v.grammarModule);
      } catch {
        continue; // a grammar that does not load (reported as data elsewhere)
      }
      for (const source of [v.definitions, v.imports, v.calls]) {
        if (source === undefined) continue;
        const query: Query = new Query(language, source);
        try {
          assert.deepEqual(
            new Set(querySourceCaptures(source)),
            new Set(query.captureNames),
            `${spec.id} (${v.grammar})`,
          );
        } finally {
          query.delete();
        }
      }
    }
  }
});

Deno.test("querySourceCaptures skips strings and comments", () => {
  assert.deepEqual(
    querySourceCaptures('; a @comment\n("@" @at (x) @x.y-z (#eq? @_p "a\\"@b"))'),
    ["at", "x.y-z", "_p"],
  );
});
