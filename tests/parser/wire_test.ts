/** The compact worker-to-pool form of a parse result decodes to an equal result. */
import assert from "node:assert/strict";
import { parseSource } from "../../src/parser/mod.ts";
import type { ParseResult } from "../../src/parser/types.ts";
import { decodeResult, encodeResult } from "../../src/parser/wire.ts";

Deno.test("encodeResult/decodeResult round-trip a parse result", async () => {
  const source = new TextEncoder().encode(
    "import os\n\nclass A:\n    @staticmethod\n    def f():\n        g(1)\n        os.h()\n\nk()\n",
  );
  const result = await parseSource("pkg/a.py", source);
  assert.ok(result.symbols.length > 0 && result.calls.length > 0 && result.imports.length > 0);
  assert.ok(result.symbols.some((s) => s.complexity !== undefined));
  const wire = encodeResult(result);
  assert.ok("compact" in wire);
  assert.deepEqual(decodeResult(structuredClone(wire)), result);
});

Deno.test("decodeResult keeps a caller that is not a symbol of the file, and plain results", () => {
  const result: ParseResult = {
    file: "a.go",
    language: "go",
    status: "partial",
    reason: "syntax errors: 1",
    symbols: [],
    imports: [],
    calls: [{ callee: "f", receiver: null, caller: "elsewhere::x#function", line: 3 }],
  };
  assert.deepEqual(decodeResult(structuredClone(encodeResult(result))), result);
  // A symbol whose language differs from the file's is sent as is.
  const mixed: ParseResult = {
    ...result,
    symbols: [{
      id: "a.go::X#type",
      file: "a.go",
      name: "X",
      qualified_name: "X",
      kind: "type",
      language: "other",
      signature: "type X int",
      docstring: "",
      summary: "",
      decorators: [],
      keywords: [],
      parent: null,
      line: 1,
      end_line: 1,
      byte_offset: 0,
      byte_length: 10,
      content_hash: "00",
    }],
  };
  assert.equal(encodeResult(mixed), mixed);
  assert.deepEqual(decodeResult(structuredClone(encodeResult(mixed))), mixed);
});
