/**
 * Complexity metrics from the tree (src/parser/complexity/): every language with a grammar either
 * has rules, checked on a function of its own whose metrics were worked out by hand, or says why
 * it has none; rules naming a node type its grammar lacks fail loudly.
 */
import assert from "node:assert/strict";
import { parseSource } from "../../src/parser/mod.ts";
import { GRAMMAR_LANGUAGES } from "../../src/parser/languages/mod.ts";
import { loadGrammar } from "../../src/parser/loader.ts";
import { compileComplexity } from "../../src/parser/complexity/measure.ts";
import { COMPLEXITY_CASES } from "./_complexity_cases.ts";

/** Languages with a grammar whose symbols are no functions, and why. */
const NOT_MEASURED: Record<string, string> = {
  css: "style sheet: rules and selectors, no functions",
  scss: "style sheet: mixins and functions of values, no control flow measured",
  html: "markup: its scripts are measured as JavaScript when embedded in components",
  xml: "markup",
  dtd: "markup declarations",
  json: "data",
  yaml: "data",
  toml: "data",
  properties: "data",
  markdown: "prose",
  latex: "typesetting macros",
  sparql: "query language: queries, no functions",
  sql: "statements; function bodies are strings in another language (PL/pgSQL)",
  systemrdl: "register descriptions",
  talon: "voice commands",
  make: "rules and recipes, no functions",
  hcl: "configuration blocks",
  tlaplus: "specification: operators are formulas, not control flow",
  blade: "templates: sections and stacks, no functions",
};

const _encoder = new TextEncoder();

Deno.test("complexity: each language's function has the metrics its rules give", async (t) => {
  for (const c of COMPLEXITY_CASES) {
    await t.step(`${c.language} (${c.file})`, async () => {
      const result = await parseSource(c.file, _encoder.encode(c.source), c.language);
      const symbol = result.symbols.find((s) => s.name === c.name);
      assert.ok(symbol !== undefined, `no symbol ${c.name} in ${c.file}`);
      assert.deepEqual(symbol.complexity, {
        cyclomatic: c.cyclomatic,
        max_nesting: c.max_nesting,
        param_count: c.param_count,
      });
    });
  }
});

Deno.test("complexity: every language with a grammar is measured or says why not", () => {
  const cased = new Set(COMPLEXITY_CASES.map((c) => c.language));
  for (const spec of GRAMMAR_LANGUAGES) {
    const reason = NOT_MEASURED[spec.id];
    if (spec.complexity === undefined) {
      assert.ok(reason !== undefined, `${spec.id} has no complexity rules and no reason why`);
    } else {
      assert.equal(reason, undefined, `${spec.id} has complexity rules and a reason for none`);
      assert.ok(cased.has(spec.id), `${spec.id} has complexity rules but no case`);
    }
  }
});

Deno.test("complexity: a function's own paths, not those of the functions inside it", async (t) => {
  const source = [
    "function outer(a, { b = 1 }, ...rest) {",
    "  const inner = (x) => x ? a?.b : b;",
    "  switch (a) { case 1: break; case 2: break; default: }",
    "  try { a ??= b || rest; } catch (e) {}",
    "  return inner;",
    "}",
    "const value = 1;",
    "class K { m() {} }",
    "",
  ].join("\n");
  const symbols = (await parseSource("a.js", _encoder.encode(source))).symbols;
  const by = (name: string) => symbols.find((s) => s.name === name);
  await t.step("the outer function counts cases, ??=, ||, catch and a default value", () => {
    // 1 + `b = 1` + two cases + `??=` + `||` + catch (`default` is no path).
    assert.deepEqual(by("outer")?.complexity, { cyclomatic: 7, max_nesting: 1, param_count: 3 });
  });
  await t.step("the arrow inside is measured on its own", () => {
    assert.deepEqual(by("inner")?.complexity, { cyclomatic: 3, max_nesting: 0, param_count: 1 });
  });
  await t.step("constants and classes have none; a method has its own", () => {
    assert.equal(by("value")?.complexity, undefined);
    assert.equal(by("K")?.complexity, undefined);
    assert.deepEqual(by("m")?.complexity, { cyclomatic: 1, max_nesting: 0, param_count: 0 });
  });
});

Deno.test("complexity: rules that name what the grammar lacks fail, naming it", async () => {
  const language = await loadGrammar("javascript");
  const rules = {
    branches: ["if_statement"],
    nesting: [],
    functions: [],
    parameters: { lists: [] },
  };
  assert.throws(
    () => compileComplexity(language, "js", { ...rules, branches: ["when_statement"] }),
    {
      name: "SyntaxError",
      message:
        'Cannot compile complexity rules of language "js": the grammar has no node type "when_statement"',
    },
  );
  assert.throws(
    () =>
      compileComplexity(language, "js", { ...rules, operators: { binary_expression: ["&&&"] } }),
    /the grammar has no operator "&&&"/,
  );
  assert.throws(
    () =>
      compileComplexity(language, "js", { ...rules, parameters: { lists: [], single: ["nope"] } }),
    /the grammar has no field "nope"/,
  );
});
