/**
 * What a rename would collide with and what cannot be known (src/query/rename_checks.ts), over
 * small packages indexed for real: invalid names per language, each collision scope, and each
 * kind of unknown with its detail.
 */
import { deepEqual, equal } from "node:assert/strict";
import {
  type Collision,
  invalidName,
  renameCollisions,
  renameUnknowns,
} from "../../src/query/rename_checks.ts";
import { renameSites } from "../../src/query/rename_sites.ts";
import { indexedView } from "./_fixture.ts";
import { TOTAL_PACKAGE } from "./_rename_fixture.ts";

function _rows(list: Collision[]): string[] {
  return list.map((c) => `${c.scope} ${c.file}:${c.line} ${c.existing} (${c.detail})`);
}

Deno.test("rename_checks: names a language cannot define", () => {
  equal(invalidName("python", "tally"), null);
  equal(invalidName("python", "class"), '"class" is a reserved word of python');
  equal(invalidName("typescript", "class"), '"class" is a reserved word of typescript');
  equal(invalidName("tsx", "interface"), '"interface" is a reserved word of tsx');
  equal(invalidName("python", "interface"), null);
  equal(invalidName("go", "func"), '"func" is a reserved word of go');
  equal(
    invalidName("python", "2fast"),
    '"2fast" is not an identifier (letters, digits, _ and $, not starting with a digit)',
  );
  equal(invalidName("ruby", "a-b")?.startsWith('"a-b" is not an identifier'), true);
  // A language without a reserved-word list takes any identifier.
  equal(invalidName("ruby", "class"), null);
});

Deno.test("rename_checks: collisions in each scope", async () => {
  const { view, symbol, close } = await indexedView({
    ...TOTAL_PACKAGE,
    "shop/cart.py": TOTAL_PACKAGE["shop/cart.py"] + "\n\ndef tally():\n    return 0\n",
    "shop/app.py": TOTAL_PACKAGE["shop/app.py"]!.replace("def run():", "def run(tally=1):"),
    "shop/base.py":
      "class Base:\n    def size(self):\n        return 0\n\n    def count(self):\n        return 1\n",
    "shop/kid.py":
      "from shop.base import Base\n\n\nclass Kid(Base):\n    def length(self):\n        return 2\n",
  });
  try {
    const found = await renameSites(view, symbol("shop/cart.py::total#function"), 50);
    deepEqual(_rows(await renameCollisions(view, found, "tally")), [
      "shadowing shop/app.py:5 def run(tally=1): (tally is already written in code here (a local, parameter or builtin))",
      "same_scope shop/cart.py:14 shop/cart.py::tally#function (function tally already has the name)",
    ]);
    const member = await renameSites(view, symbol("shop/kid.py::Kid.length#method"), 50);
    deepEqual(_rows(await renameCollisions(view, member, "size")), [
      "class_hierarchy shop/base.py:2 shop/base.py::Base.size#method (Base has a member size: it would override or be shadowed)",
    ]);
    deepEqual(await renameCollisions(view, member, "width"), []);
  } finally {
    await close();
  }
});

Deno.test("rename_checks: what cannot be known statically", async () => {
  const { view, symbol, close } = await indexedView({
    ...TOTAL_PACKAGE,
    "shop/base.py": "class Base:\n    def size(self):\n        return 0\n",
    "shop/kid.py":
      "from shop.base import Base\n\n\nclass Kid(Base):\n    def size(self):\n        return 2\n",
    "shop/ext.py":
      "import json\n\n\nclass Enc(json.JSONEncoder):\n    def default(self, o):\n        return 1\n",
  });
  try {
    const kinds = async (id: string) =>
      renameUnknowns(view, await renameSites(view, symbol(id), 50)).map((u) =>
        `${u.kind} ${u.file ?? "-"}:${u.line ?? "-"}`
      );
    deepEqual(await kinds("shop/kid.py::Kid.size#method"), [
      "public_api shop/kid.py:5",
      "override shop/base.py:2",
    ]);
    deepEqual(await kinds("shop/ext.py::Enc.default#method"), [
      "public_api shop/ext.py:5",
      "override shop/ext.py:4",
    ]);
    // shop/other.py defines total too, and calls total() without an import of either.
    deepEqual(
      renameUnknowns(view, await renameSites(view, symbol("shop/cart.py::total#function"), 50)),
      [
        {
          kind: "ambiguous",
          file: null,
          line: null,
          detail:
            "1 code uses of total in 1 files may mean any of 2 definitions of the name (not in the edits; listed as sites): shop/other.py",
        },
        {
          kind: "string",
          file: null,
          line: null,
          detail:
            "1 strings hold the name alone (export lists, getattr, route tables): renamed by the plan, to confirm by hand",
        },
        {
          kind: "public_api",
          file: "shop/cart.py",
          line: 5,
          detail: "exported by its language's rule: code outside this repo may use the old name",
        },
      ],
    );
    // Files over max_files are named as not read.
    const few = renameUnknowns(
      view,
      await renameSites(view, symbol("shop/cart.py::total#function"), 1),
    );
    equal(few.at(-1)!.kind, "unscanned");
  } finally {
    await close();
  }
});
