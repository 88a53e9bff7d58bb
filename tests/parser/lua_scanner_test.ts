/**
 * Regression test for an upstream grammar defect: the Lua grammar of tree-sitter-wasms 0.1.13
 * (with web-tree-sitter 0.25.10) did not reset its external-scanner state. In a fresh process the
 * very first parse was right, but once a query had been compiled for the grammar or another Lua
 * file parsed (always the case through `parseSource`), a file whose first token is code came back
 * "partial" with bogus syntax errors (`x = 5` read as a call with an unterminated string) and lost
 * symbols. Lua now loads the wasm of `@tree-sitter-grammars/tree-sitter-lua` (the spec's
 * `grammarModule`), which parses such files correctly every time; this test parses code-first
 * files after other Lua files, repeatedly, so a return of the defect fails here.
 * fixtures/languages/lua/plain.lua also starts with code.
 */
import { deepEqual } from "node:assert/strict";
import { parseSource } from "../../src/parser/mod.ts";

const enc = new TextEncoder();

Deno.test("lua: a file that starts with code parses after other Lua files", async () => {
  const commented = enc.encode("-- header\nlocal M = {}\nfunction M.f() end\nreturn M\n");
  const plain = enc.encode("local Plain = {}\n\nfunction Plain.run(n)\n  return n + 1\nend\n");
  const assignment = enc.encode("x = 5\nMAX = 10\n");
  for (let round = 0; round < 3; round++) {
    const c = await parseSource("commented.lua", commented);
    deepEqual([c.status, c.symbols.map((s) => s.qualified_name)], ["ok", ["M", "M.f"]]);
    const r = await parseSource("plain.lua", plain);
    deepEqual(
      [r.status, r.symbols.map((s) => `${s.qualified_name}#${s.kind}:${s.line}-${s.end_line}`)],
      ["ok", ["Plain#class:1-1", "Plain.run#method:3-5"]],
    );
    const a = await parseSource("assign.lua", assignment);
    deepEqual([a.status, a.symbols.map((s) => `${s.name}#${s.kind}`)], ["ok", ["MAX#constant"]]);
  }
});
