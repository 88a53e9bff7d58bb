/**
 * The blob memo of changed symbols (src/parser/git/blob_symbols.ts): symbols parsed without their
 * complexity (a change's old side) are not served to a reader that needs it (a new side), and never
 * replace a measured set.
 */
import { deepEqual, equal } from "node:assert/strict";
import { BlobSymbols } from "../../src/parser/git/blob_symbols.ts";
import { parseSource } from "../../src/parser/parse.ts";

Deno.test("blob symbols: a set parsed without complexity serves only readers that do not need it", async () => {
  const bytes = new TextEncoder().encode("def f(a):\n    return 1 if a else 2\n");
  const measured = (await parseSource("f.py", bytes)).symbols;
  const bare = (await parseSource("f.py", bytes, undefined, { complexity: false })).symbols;
  const memo = new BlobSymbols();
  memo.set("b1", "f.py", bare, false);
  deepEqual(memo.get("b1", "f.py", false), bare);
  equal(memo.get("b1", "f.py", true), undefined);
  memo.set("b1", "f.py", measured, true);
  deepEqual(memo.get("b1", "f.py", true), measured);
  memo.set("b1", "f.py", bare, false);
  deepEqual(memo.get("b1", "f.py", false), measured);
});
