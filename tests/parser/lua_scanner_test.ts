/**
 * Known upstream defect, kept as an ignored test so it stays visible and is easy to re-check: the
 * Lua grammar of tree-sitter-wasms 0.1.13 (with web-tree-sitter 0.25.10) does not reset its
 * external-scanner state. In a fresh process the very first parse is right, but once a query has
 * been compiled for the grammar or another Lua file parsed (always the case through
 * `parseSource`), a file whose first token is code comes back "partial" with bogus syntax errors
 * (`x = 5` reads as a call with an unterminated string) and loses symbols. Files whose first
 * token is a comment parse correctly (both files of fixtures/languages/lua/ start with one).
 * Enable this test when the grammar is upgraded, and add a file without a leading comment to the
 * Lua fixture.
 */
import { deepEqual } from "node:assert/strict";
import { parseSource } from "../../src/parser/mod.ts";

Deno.test({
  name: "lua: a file that starts with code parses (tree-sitter-wasms 0.1.13 scanner defect)",
  ignore: true,
  fn: async () => {
    const src = new TextEncoder().encode(
      "local Plain = {}\n\nfunction Plain.run(n)\n  return n + 1\nend\n",
    );
    const r = await parseSource("plain.lua", src);
    deepEqual(
      [r.status, r.symbols.map((s) => `${s.qualified_name}#${s.kind}:${s.line}-${s.end_line}`)],
      ["ok", ["Plain#class:1-1", "Plain.run#method:3-5"]],
    );
  },
});
