/**
 * get_untested_symbols on a real project indexed in a temporary workspace: what the tests reach
 * through the call graph (transitively, constructors along), the two confidence tiers, the
 * nearest tested caller, file_pattern, json and compact, and freshness after a test is added.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";

type Row = Record<string, unknown>;

const PROJECT: Record<string, string> = {
  "lib/calc.py": [
    "def add(a, b):",
    "    return _check(a) + b",
    "",
    "",
    "def _check(x):",
    "    return x",
    "",
    "",
    "def mul(a, b):",
    "    return helper_mul(a, b)",
    "",
    "",
    "def helper_mul(a, b):",
    "    return a * b",
    "",
    "",
    "class Counter:",
    "    def __init__(self):",
    "        self.n = 0",
    "",
    "    def bump(self):",
    "        self.n += 1",
    "",
  ].join("\n"),
  "lib/shapes.py": [
    "class Square:",
    "    def area(self):",
    "        return 1",
    "",
    "",
    "class Circle:",
    "    def area(self):",
    "        return 2",
    "",
    "",
    "class Triangle:",
    "    def area(self):",
    "        return 3",
    "",
    "",
    "class Hexagon:",
    "    def area(self):",
    "        return 4",
    "",
    "",
    "def total_area(shapes):",
    "    return sum(s.area() for s in shapes)",
    "",
  ].join("\n"),
  "tests/test_calc.py": [
    "from lib.calc import Counter, add",
    "from lib.shapes import total_area",
    "",
    "",
    "def test_add():",
    "    assert add(1, 2) == 3",
    "",
    "",
    "def test_counter():",
    "    Counter()",
    "",
    "",
    "def test_total():",
    "    assert total_area([]) == 0",
    "",
    "",
    "# mul is not tested yet",
    "",
  ].join("\n"),
};

Deno.test("get_untested_symbols: call-graph reach from the tests", async (t) => {
  const ws = tempWorkspace("codemunch-untested-");
  writeTree(ws.root, PROJECT);
  const runner = workspaceRunner(ws);
  try {
    const indexed = await runner.call("index_folder", { path: ws.root, format: "json" });
    equal(indexed.isError, false, indexed.text);
    const repo = JSON.parse(indexed.text).repo as string;
    const run = async (args: Row = {}, format = "json") => {
      const r = await runner.call("get_untested_symbols", { repo, format, ...args });
      equal(r.isError, false, r.text);
      return decode(r.text) as Row;
    };

    await t.step(
      "reached transitively; untested ones with their tier and nearest tested caller",
      async () => {
        const body = await run();
        const rows = body.symbols as Row[];
        deepEqual(
          rows.map((r) => `${r.symbol_id} ${r.reason} ${r.confidence}`),
          [
            "lib/calc.py::helper_mul#function unreached 1",
            "lib/calc.py::Counter.bump#method unreached 1",
            "lib/shapes.py::Square.area#method unreached 1",
            "lib/shapes.py::Circle.area#method unreached 1",
            "lib/shapes.py::Triangle.area#method unreached 1",
            "lib/shapes.py::Hexagon.area#method unreached 1",
            "lib/calc.py::mul#function named_in_tests 0.7",
          ],
        );
        // add, _check (called by add), Counter.__init__ (constructed) and total_area are reached.
        equal(body.total_non_test_symbols, 11);
        equal(body.untested_count, 7);
        equal(body.reached_pct, 36.4);
        const square = rows.find((r) => r.symbol_id === "lib/shapes.py::Square.area#method")!;
        // total_area calls `s.area()`: four definitions by name, too many to follow down, but the
        // nearest tested caller up.
        equal(square.nearest_caller, "lib/shapes.py::total_area#function");
        equal(square.nearest_test, "tests/test_calc.py::test_total#function");
        equal(square.distance, 1);
        const helper = rows.find((r) => r.name === "helper_mul")!;
        equal(helper.nearest_caller, null);
      },
    );

    await t.step("min_confidence 1 keeps the unreached; file_pattern narrows", async () => {
      const sure = await run({ min_confidence: 1 });
      ok((sure.symbols as Row[]).every((r) => r.reason === "unreached"));
      equal(sure.untested_count, 6);
      const calc = await run({ file_pattern: "lib/calc.py" });
      deepEqual((calc.symbols as Row[]).map((r) => r.name), ["helper_mul", "bump", "mul"]);
      equal(calc.total_non_test_symbols, 6);
    });

    await t.step("compact decodes to the json answer; max_results cuts and says so", async () => {
      const { _meta: _a, ...a } = await run();
      const { _meta: _b, ...b } = await run({}, "compact");
      deepEqual(b, a);
      const cut = await run({ max_results: 2 });
      equal((cut.symbols as Row[]).length, 2);
      equal((cut._meta as Row).truncated, true);
    });

    await t.step("fresh: a new test of mul reaches mul and helper_mul", async () => {
      Deno.writeTextFileSync(
        `${ws.root}/tests/test_mul.py`,
        "from lib.calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n",
      );
      const re = await runner.call("index_folder", { path: ws.root, format: "json" });
      equal(re.isError, false, re.text);
      const names = ((await run()).symbols as Row[]).map((r) => r.name);
      ok(!names.includes("mul") && !names.includes("helper_mul"), names.join(","));
    });
  } finally {
    await runner.close();
    ws.dispose();
  }
});
