/**
 * A symbols-only parse (`ExtractLimits.symbolsOnly`, what changed symbols read) gives exactly the
 * symbols of a full parse, for every file of the fixtures (every language), in this thread and in
 * the worker pool, and leaves imports and calls out.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { parseSource } from "../../src/parser/parse.ts";
import { ParserPool } from "../../src/parser/pool.ts";
import { languageForPath } from "../../src/parser/registry.ts";

function _fixtureFiles(dir: string, out: string[] = []): string[] {
  for (const e of Deno.readDirSync(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) _fixtureFiles(path, out);
    else if (e.isFile && languageForPath(path) !== undefined) out.push(path);
  }
  return out.sort();
}

Deno.test("a symbols-only parse has the symbols of a full parse, for every fixture", async (t) => {
  const files = _fixtureFiles("fixtures/languages");
  ok(files.length > 200, `${files.length} fixture files`);
  let withCalls = 0;
  await t.step("in this thread", async () => {
    for (const file of files) {
      const bytes = Deno.readFileSync(file);
      const full = await parseSource(file, bytes);
      const only = await parseSource(file, bytes, undefined, { symbolsOnly: true });
      deepEqual(only.symbols, full.symbols, file);
      equal(only.status, full.status, file);
      equal(only.reason, full.reason, file);
      if (full.calls.length > 0) withCalls++;
    }
    ok(withCalls > 50, `${withCalls} fixtures with calls`);
  });
  await t.step("in the worker pool, without imports and calls", async () => {
    const pool = new ParserPool({ workers: 1 });
    try {
      let lighter = 0;
      for (const file of files.filter((_, i) => i % 8 === 0)) {
        const bytes = Deno.readFileSync(file);
        const full = await parseSource(file, bytes);
        const only = await pool.parse(file, bytes, undefined, { symbolsOnly: true });
        deepEqual(only.symbols, full.symbols, file);
        // Languages read by an npm parser or with an error scanner come back in full.
        if (full.calls.length > 0 && only.calls.length === 0 && only.imports.length === 0) {
          lighter++;
        }
      }
      ok(lighter > 10, `${lighter} fixtures read without their imports and calls`);
    } finally {
      await pool.close();
    }
  });
});

Deno.test("complexity: false leaves the complexity out and nothing else", async () => {
  const bytes = new TextEncoder().encode("function f(a) {\n  if (a) return 1;\n  return 2;\n}\n");
  const full = await parseSource("f.js", bytes, undefined, { symbolsOnly: true });
  const bare = await parseSource("f.js", bytes, undefined, {
    symbolsOnly: true,
    complexity: false,
  });
  equal(full.symbols[0]?.complexity?.cyclomatic, 2);
  equal(bare.symbols[0]?.complexity, undefined);
  deepEqual(
    bare.symbols.map(({ complexity: _, ...s }) => s),
    full.symbols.map(({ complexity: _, ...s }) => s),
  );
});
