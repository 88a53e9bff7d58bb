/**
 * `liveness.ts`, the language conventions that keep code alive for find_dead_code: a file's entry
 * role, internal paths and export list; reflection prefixes; the convention roots of a symbol;
 * and `pr_risk.ts`'s risk levels. Expectations by hand, for Python, Go and JavaScript files.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { conventionRoot, dynamicPrefixes, fileLiveness } from "../../src/query/liveness.ts";
import { riskLevel } from "../../src/query/pr_risk.ts";
import type { SymbolRecord } from "../../src/parser/types.ts";

const sym = (over: Partial<SymbolRecord>): SymbolRecord =>
  ({
    name: "f",
    kind: "function",
    parent: null,
    decorators: [],
    language: "python",
    signature: "def f()",
    ...over,
  }) as SymbolRecord;

Deno.test("fileLiveness: entry files, programs, internal paths and export lists", () => {
  equal(fileLiveness("pkg/__main__.py", "python", "").entry, "entry file");
  const script = fileLiveness("tools/run.py", "python", 'if __name__ == "__main__":\n    main()\n');
  deepStrictEqual([script.entry, script.internal], ["program", true]);
  equal(fileLiveness("pkg/_private/x.py", "python", "").internal, true);
  equal(fileLiveness("pkg/public/x.py", "python", "").internal, false);
  deepStrictEqual(
    [...fileLiveness("pkg/api.py", "python", '__all__ = ["load", "save"]\n').exportList!].sort(),
    ["load", "save"],
  );
  equal(fileLiveness("pkg/api.py", "python", "x = 1\n").exportList, null);
  equal(fileLiveness("examples/demo.py", "python", "").entry, "example file");
  equal(fileLiveness("pkg/dyn.py", "python", "getattr(obj, name)\n").dynamic, true);
  equal(fileLiveness("pkg/plain.py", "python", "obj.name\n").dynamic, false);
});

Deno.test("dynamicPrefixes: quoted name prefixes built at run time", () => {
  deepStrictEqual(
    dynamicPrefixes(
      'getattr(node, "as_" + vendor)\nf("_get_current_%s" % p)\nemit(`on_${event}`)\n"__dunder__"\n"plain"',
    ),
    ["as_", "_get_current_", "on_"],
  );
});

Deno.test("conventionRoot: hooks, discovered tests, registering decorators", () => {
  equal(
    conventionRoot(sym({ name: "__eq__", kind: "method", parent: "C" }), false),
    "runtime hook",
  );
  equal(conventionRoot(sym({ name: "test_load" }), true), "test");
  equal(conventionRoot(sym({ name: "test_load" }), false), null, "outside a test file");
  equal(
    conventionRoot(sym({ name: "index", decorators: ['@app.route("/")'] }), false),
    'decorator @app.route("/")',
  );
  equal(conventionRoot(sym({ name: "cached", decorators: ["@staticmethod"] }), false), null);
  equal(conventionRoot(sym({ name: "helper" }), false), null);
});

Deno.test("riskLevel: low up to 0.25, medium to 0.5, high to 0.75, then critical", () => {
  deepStrictEqual([0, 0.25, 0.26, 0.5, 0.75, 0.76, 1].map(riskLevel), [
    "low",
    "low",
    "medium",
    "medium",
    "high",
    "critical",
    "critical",
  ]);
});
