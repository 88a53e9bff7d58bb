/**
 * Winnowing (src/query/winnow.ts) over the shared graph project: criteria checked with errors
 * naming the entry (regexes that can take exponential time refused), every axis filtering as its
 * table row says, the ranking and its ties, and the bound on the rows.
 */
import { deepEqual, equal, throws } from "node:assert/strict";
import { ToolError } from "../../src/errors.ts";
import { checkCriteria, type Criterion, winnow, type WinnowRank } from "../../src/query/winnow.ts";
import { indexedView } from "./_fixture.ts";
import { GRAPH_PROJECT } from "./_graph_project.ts";

const _FILES = {
  ...GRAPH_PROJECT,
  "pkg/branchy.py": "import functools\n\n\n@functools.cache\ndef branchy(x):\n" +
    "    if x:\n        return 1\n    if x > 2:\n        return 2\n    return helper_like(x)\n",
  "tests/test_a.py": "from pkg.a import run\n\n\ndef test_run():\n    assert run()\n",
};

function _invalid(pattern: RegExp) {
  return (e: unknown) =>
    e instanceof ToolError && e.code === "invalid_argument" && pattern.test(e.message);
}

Deno.test("winnow: criteria are checked, naming the entry", () => {
  deepEqual(checkCriteria([{ axis: "kind", op: "in", value: ["function", "method"] }]), [
    { axis: "kind", op: "in", value: ["function", "method"] },
  ]);
  throws(
    () => checkCriteria([{ axis: "colour", op: "eq", value: 1 }]),
    _invalid(/^criteria\[0\]\.axis "colour" is not one of kind, /),
  );
  throws(
    () => checkCriteria([{ axis: "kind", op: ">", value: 1 }]),
    _invalid(/^criteria\[0\]\.op ">" does not apply to kind: use in eq$/),
  );
  throws(
    () => checkCriteria([{ axis: "kind", op: "eq" }]),
    _invalid(/^criteria\[0\] has no value$/),
  );
  throws(
    () => checkCriteria([{ axis: "complexity", op: ">", value: "3" }]),
    _invalid(/must be a number$/),
  );
  throws(
    () => checkCriteria([{ axis: "complexity", op: ">", value: Infinity }]),
    _invalid(/must be a number$/),
  );
  throws(
    () => checkCriteria([{ axis: "tested", op: "eq", value: "yes" }]),
    _invalid(/must be true or false$/),
  );
  throws(
    () => checkCriteria([{ axis: "name", op: "matches", value: ["a", "b"] }]),
    _invalid(/must be one string for matches$/),
  );
  throws(
    () => checkCriteria([{ axis: "kind", op: "in", value: [] }]),
    _invalid(/must be a string or a list of strings$/),
  );
  throws(
    () => checkCriteria([{}, { axis: "name", op: "matches", value: "(a+)+" }]),
    _invalid(/^criteria\[0\]\.axis/),
  );
  throws(
    () => checkCriteria([{ axis: "name", op: "matches", value: "(a+)+$" }]),
    _invalid(/^criteria\[0\]\.value: nested quantifiers/),
  );
  throws(
    () => checkCriteria([{ axis: "name", op: "matches", value: "(a)\\1" }]),
    _invalid(/back-references/),
  );
  throws(
    () => checkCriteria([{ axis: "name", op: "matches", value: "(" }]),
    _invalid(/is not a valid regex/),
  );
  throws(
    () => checkCriteria([{ axis: "name", op: "matches", value: "a".repeat(501) }]),
    _invalid(/over 500 characters/),
  );
});

Deno.test("winnow: each axis filters, criteria combine with AND", async (t) => {
  const { view, close } = await indexedView(_FILES);
  const churn = new Map([["pkg/a.py", 4], ["pkg/util.py", 1]]);
  const ids = (raw: Record<string, unknown>[], rankBy: WinnowRank = "name") =>
    winnow(view, checkCriteria(raw), { rankBy, order: "asc", max: 50, churn }).rows.map((r) =>
      r.symbol.id
    );
  try {
    await t.step("kind, language, role, name, file", () => {
      deepEqual(ids([{ axis: "kind", op: "eq", value: "type" }]), ["README.md::pkg#type"]);
      deepEqual(ids([{ axis: "language", op: "in", value: ["markdown"] }]), [
        "README.md::pkg#type",
      ]);
      deepEqual(ids([{ axis: "role", op: "eq", value: "test" }]), [
        "tests/test_a.py::test_run#function",
      ]);
      deepEqual(ids([{ axis: "name", op: "eq", value: "run" }]), ["pkg/a.py::run#function"]);
      deepEqual(ids([{ axis: "name", op: "matches", value: "^(?:run|step)$" }]), [
        "pkg/a.py::run#function",
        "pkg/a.py::step#function",
      ]);
      deepEqual(ids([{ axis: "file", op: "matches", value: "pkg/u*.py" }]), [
        "pkg/util.py::helper#function",
        "pkg/util.py::unused#function",
      ]);
    });
    await t.step("decorator, calls, summary: any case, a substring", () => {
      deepEqual(ids([{ axis: "decorator", op: "contains", value: "CACHE" }]), [
        "pkg/branchy.py::branchy#function",
      ]);
      deepEqual(ids([{ axis: "calls", op: "contains", value: ["STEP", "nothing"] }]), [
        "pkg/a.py::run#function",
      ]);
      deepEqual(ids([{ axis: "summary", op: "contains", value: "return X" }]), [
        "pkg/util.py::helper#function",
      ]);
    });
    await t.step("numbers: complexity, churn, callers, callees", () => {
      deepEqual(ids([{ axis: "complexity", op: ">=", value: 3 }]), [
        "pkg/branchy.py::branchy#function",
      ]);
      deepEqual(ids([{ axis: "churn", op: ">", value: 2 }]), [
        "pkg/a.py::run#function",
        "pkg/a.py::step#function",
      ]);
      deepEqual(ids([{ axis: "callers", op: "==", value: 3 }]), ["pkg/util.py::helper#function"]);
      deepEqual(ids([{ axis: "callees", op: "==", value: 2 }]), [
        "pkg/b.py::main#function",
        "pkg/a.py::run#function",
      ]);
    });
    await t.step("tested, and AND of several", () => {
      deepEqual(
        ids([{ axis: "tested", op: "eq", value: true }, {
          axis: "role",
          op: "eq",
          value: "source",
        }]),
        ["pkg/util.py::helper#function", "pkg/a.py::run#function", "pkg/a.py::step#function"],
      );
      deepEqual(
        ids([{ axis: "name", op: "eq", value: "run" }, { axis: "kind", op: "eq", value: "class" }]),
        [],
      );
    });
  } finally {
    await close();
  }
});

Deno.test("winnow: ranked by one signal, ties by id, at most max rows", async () => {
  const { view, close } = await indexedView(_FILES);
  const churn = new Map([["pkg/a.py", 4], ["pkg/util.py", 1]]);
  const functions: Criterion[] = checkCriteria([{ axis: "kind", op: "eq", value: "function" }]);
  try {
    const all = winnow(view, functions, { rankBy: "callers", order: "desc", max: 3, churn });
    equal(all.matched, 7);
    equal(all.scanned, 8);
    deepEqual(all.rows.map((r) => [r.symbol.id, r.callers]), [
      ["pkg/util.py::helper#function", 3],
      // main and the test call run.
      ["pkg/a.py::run#function", 2],
      ["pkg/a.py::step#function", 1],
    ]);
    const byChurn = winnow(view, functions, { rankBy: "churn", order: "asc", max: 20, churn });
    deepEqual(byChurn.rows.map((r) => r.churn), [0, 0, 0, 1, 1, 4, 4]);
    const ids = byChurn.rows.map((r) => r.symbol.id);
    deepEqual(ids.slice(0, 3), [...ids.slice(0, 3)].sort());
    // Without churn every file's churn is 0.
    equal(
      winnow(view, functions, { rankBy: "churn", order: "desc", max: 20, churn: null }).rows.every((
        r,
      ) => r.churn === 0),
      true,
    );
    // A bound below the list: the first rows of the full ranking (the partial sort agrees).
    const many = winnow(view, functions, { rankBy: "importance", order: "desc", max: 20, churn });
    for (const max of [1, 2]) {
      deepEqual(
        winnow(view, functions, { rankBy: "importance", order: "desc", max, churn }).rows,
        many.rows.slice(0, max),
      );
    }
    const names = winnow(view, functions, { rankBy: "name", order: "asc", max: 20, churn });
    deepEqual(names.rows.map((r) => r.symbol.name), [
      "branchy",
      "helper",
      "main",
      "run",
      "step",
      "test_run",
      "unused",
    ]);
  } finally {
    await close();
  }
});

// A list on an axis whose table row takes one string (name eq, summary contains) used to be
// accepted and then matched nothing (name) or the list joined by commas (summary).
Deno.test("winnow: a list where the axis takes one string is refused", () => {
  throws(
    () => checkCriteria([{ axis: "name", op: "eq", value: ["a", "b"] }]),
    _invalid(/must be one string for eq$/),
  );
  throws(
    () => checkCriteria([{ axis: "summary", op: "contains", value: ["a", "b"] }]),
    _invalid(/must be one string for contains$/),
  );
  throws(
    () => checkCriteria([{ axis: "file", op: "matches", value: ["*.py"] }]),
    _invalid(/^criteria\[0\]\.value must be one string for matches$/),
  );
  // The list axes still take lists.
  deepEqual(checkCriteria([{ axis: "decorator", op: "contains", value: ["a", "b"] }]), [
    { axis: "decorator", op: "contains", value: ["a", "b"] },
  ]);
});
