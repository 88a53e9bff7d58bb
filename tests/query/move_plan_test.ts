/** Move plans (src/query/move_plan.ts) applied to a small Python package indexed for real. */
import { deepEqual, equal, match, throws } from "node:assert/strict";
import { ToolError } from "../../src/errors.ts";
import { planMove } from "../../src/query/move_plan.ts";
import { applyEdits } from "../../src/query/refactor_edits.ts";
import { renameSites } from "../../src/query/rename_sites.ts";
import { indexedView } from "./_fixture.ts";
import { TOTAL_PACKAGE } from "./_rename_fixture.ts";

Deno.test("move_plan: a Python function moved to a new module", async () => {
  const { view, symbol, close } = await indexedView(TOTAL_PACKAGE);
  try {
    const s = symbol("shop/cart.py::total#function");
    const found = await renameSites(view, s, 50);
    const plan = planMove(view, s, found, "shop/money.py");
    equal(plan.newFileExists, false);
    const out = applyEdits(plan.edits, (p) => view.index.fileText(p));
    // Its lines with the comment above and the import its body needs.
    equal(
      out.get("shop/money.py"),
      'import os\n\n\n# total is used below\ndef total(items):\n    """Return the total."""\n' +
        "    return sum(items) + len(os.sep)\n",
    );
    // The old file still calls it: it imports it back.
    equal(
      out.get("shop/cart.py"),
      "import os\nfrom .money import total\n\n\n\ndef report():\n    return total([1])\n",
    );
    // An import of several names loses it; a new import line follows.
    const app = out.get("shop/app.py")!.split("\n");
    // One space left after `import` (the comma's space goes with the name).
    match(app[0]!, /^from shop\.cart import report$/);
    equal(app[1], "from shop.money import total");
    deepEqual(app.slice(2), TOTAL_PACKAGE["shop/app.py"]!.split("\n").slice(1));
    deepEqual(
      plan.manual.filter((m) => m.file !== "shop/other.py").map((m) =>
        `${m.file}:${m.line} ${m.reason}`
      ),
      [
        "shop/app.py:7 a use through the old module's name: import the new module or the name",
        "shop/cart.py:1 only the moved lines used this import: remove it if nothing else does",
      ],
    );
  } finally {
    await close();
  }
});

Deno.test("move_plan: refused moves", async () => {
  const { view, symbol, close } = await indexedView({
    "m.py": "class A:\n    def f(self):\n        return 1\n",
    "go.mod": "module example.com/x\n",
    "a/a.go": "package a\n\nfunc F() {}\n",
  });
  try {
    const found = await renameSites(view, symbol("m.py::A.f#method"), 50);
    throws(
      () => planMove(view, found.symbol, found, "n.py"),
      (e) => e instanceof ToolError && /move its owner/.test(e.message),
    );
    const a = await renameSites(view, symbol("m.py::A#class"), 50);
    throws(
      () => planMove(view, a.symbol, a, "m.py"),
      (e) => e instanceof ToolError && /the symbol's own file/.test(e.message),
    );
    throws(
      () => planMove(view, a.symbol, a, "n.ts"),
      (e) => e instanceof ToolError && /is not a python file/.test(e.message),
    );
    const g = await renameSites(view, symbol("a/a.go::F#function"), 50);
    throws(
      () => planMove(view, g.symbol, g, "b/b.go"),
      (e) => e instanceof ToolError && /pick a new_file in a$/.test(e.message),
    );
  } finally {
    await close();
  }
});

Deno.test("move_plan: a language without an import writer is refused by name", async () => {
  const { view, symbol, close } = await indexedView({
    "src/lib.rs": "pub fn f() -> i32 {\n    1\n}\n",
  });
  try {
    const found = await renameSites(view, symbol("src/lib.rs::f#function"), 50);
    throws(
      () => planMove(view, found.symbol, found, "src/other.rs"),
      (e) =>
        e instanceof ToolError && e.code === "unsupported_language" &&
        /^Cannot rewrite imports for rust: moves are planned for .*python/.test(e.message),
    );
  } finally {
    await close();
  }
});
