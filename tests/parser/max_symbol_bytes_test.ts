/**
 * JSON, YAML and TOML files over their spec's `maxSymbolBytes` are data (translations, fixtures):
 * they come back `ok` with no records and the reason, and are still stored for text search.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { languageById, parseSource } from "../../src/parser/mod.ts";

Deno.test("a large JSON file is data: text only; a small one has its keys", async () => {
  const limit = languageById("json")!.maxSymbolBytes!;
  const entries = Array.from({ length: 4000 }, (_, i) => `"message_${i}": "text ${i}"`);
  const big = new TextEncoder().encode(`{\n${entries.join(",\n")}\n}\n`);
  equal(big.length > limit, true);
  const r = await parseSource("lib/messages.json", big);
  deepStrictEqual([r.language, r.status, r.symbols.length], ["json", "ok", 0]);
  equal(r.reason, `data file over ${limit} bytes: indexed as text only`);
  const small = await parseSource("package.json", new TextEncoder().encode('{"name": "x"}\n'));
  deepStrictEqual(small.symbols.map((s) => s.id), ["package.json::name#constant"]);
  equal(small.reason, null);
});
