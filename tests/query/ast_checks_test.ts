/**
 * The search_ast checks (src/query/ast_checks.ts) run over trees the real grammars parse: the same
 * check finds the same construct in languages whose grammars name it differently, a check counts
 * what its DSL says, and matches carry their place and extras.
 */
import { deepEqual, equal } from "node:assert/strict";
import { Parser } from "web-tree-sitter";
import { loadGrammar } from "../../src/parser/loader.ts";
import { type AstMatch, checkTree, plainText } from "../../src/query/ast_checks.ts";
import { parseCustomPattern, resolvePatterns } from "../../src/query/ast_patterns.ts";

async function _check(
  grammar: string,
  file: string,
  text: string,
  pattern: string,
): Promise<AstMatch[]> {
  // Loading the grammar initialises web-tree-sitter: a Parser can be made only after it.
  const language = await loadGrammar(grammar);
  const parser = new Parser();
  parser.setLanguage(language);
  const tree = parser.parse(text)!;
  try {
    const patterns = pattern.includes(":")
      ? [parseCustomPattern(pattern)]
      : resolvePatterns(pattern);
    return checkTree(tree, file, grammar, plainText(text), patterns);
  } finally {
    tree.delete();
    parser.delete();
  }
}

/** `file:line-end_line:column pattern` (columns from 1). */
const _at = (ms: AstMatch[]) =>
  ms.map((m) => `${m.file}:${m.line}-${m.end_line}:${m.column} ${m.pattern}`);

Deno.test("ast_checks: an empty catch, whatever the grammar calls it", async () => {
  deepEqual(
    _at(
      await _check(
        "python",
        "a.py",
        "try:\n    go()\nexcept ValueError:\n    pass\n",
        "empty_catch",
      ),
    ),
    ["a.py:3-4:1 empty_catch"],
  );
  deepEqual(
    _at(await _check("typescript", "a.ts", "try {\n  go();\n} catch (e) {\n}\n", "empty_catch")),
    ["a.ts:3-4:3 empty_catch"],
  );
  deepEqual(
    _at(
      await _check(
        "java",
        "A.java",
        "class A { void f() { try { g(); } catch (Exception e) {} } }\n",
        "empty_catch",
      ),
    ),
    ["A.java:1-1:35 empty_catch"],
  );
  // A catch that handles the error is no match.
  deepEqual(
    await _check("typescript", "b.ts", "try { go(); } catch (e) { log(e); }\n", "empty_catch"),
    [],
  );
});

Deno.test("ast_checks: nested loops counted as the DSL says", async () => {
  // Counted per function: the deepest chain of loops inside one.
  const py =
    "def f(x):\n    for a in x:\n        for b in a:\n            while b:\n                b -= 1\n";
  equal((await _check("python", "l.py", py, "loops:3+")).length, 1);
  deepEqual(await _check("python", "l.py", py, "loops:4+"), []);
  const go =
    "package m\n\nfunc f(x [][]int) {\n\tfor _, a := range x {\n\t\tfor range a {\n\t\t}\n\t}\n}\n";
  deepEqual(_at(await _check("go", "m.go", go, "loops:2+")), ["m.go:5-6:3 loops:2+"]);
});

Deno.test("ast_checks: calls by glob, with the callee as an extra", async () => {
  const py = "import os\n\n\ndef run(cmd):\n    os.system(cmd)\n    print(cmd)\n";
  const found = await _check("python", "r.py", py, "call:os.system");
  deepEqual(found.map((m) => [m.line, m.snippet.trim(), m.extra.callee]), [[
    5,
    "os.system(cmd)",
    "os.system",
  ]]);
  deepEqual(await _check("python", "r.py", py, "call:subprocess.*"), []);
  equal((await _check("python", "r.py", "eval(x)\n", "eval_exec")).length, 1);
});
