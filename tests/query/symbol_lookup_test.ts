/**
 * `symbol_lookup.ts`, the one lookup every tool uses for a symbol reference: a full id, an id
 * without `#kind`, a unique `Qualified.name`, a unique plain name (top level first, then any
 * definition, then any case); `symbol_ambiguous` with candidates and `symbol_not_found` with the
 * closest ids otherwise; ids copied from a MUNCH answer with their legend handle. Over a real
 * index.
 */
import { deepStrictEqual, equal, match, throws } from "node:assert/strict";
import type { DetailedToolError } from "../../src/errors.ts";
import {
  closestSymbolIds,
  expandHandleId,
  findSymbol,
  qualifiedNameOfId,
} from "../../src/query/symbol_lookup.ts";
import { indexedView } from "./_fixture.ts";

const FILES = {
  "app/models.py": [
    "class User:",
    "    def save(self):",
    "        return 1",
    "",
    "class Order:",
    "    def save(self):",
    "        return 2",
    "",
    "def make_user():",
    "    return User()",
    "",
  ].join("\n"),
  "app/views.py": "def render(x):\n    return x\n\ndef Render2(x):\n    return x\n",
};

Deno.test("qualifiedNameOfId: the part between :: and #kind", () => {
  equal(qualifiedNameOfId("a.py::A.run#method~1"), "A.run");
  equal(qualifiedNameOfId("a.py::f#function"), "f");
  equal(qualifiedNameOfId("A.run"), "A.run");
});

Deno.test("findSymbol: by id, id without kind, Qualified.name, unique name, any case", async () => {
  const t = await indexedView(FILES);
  try {
    const id = (ref: string) => findSymbol(t.view, ref).id;
    equal(id("app/models.py::User.save#method"), "app/models.py::User.save#method");
    equal(id("app/models.py::Order.save"), "app/models.py::Order.save#method");
    equal(id("User.save"), "app/models.py::User.save#method");
    equal(id("make_user"), "app/models.py::make_user#function");
    equal(id("render2"), "app/views.py::Render2#function");
    const ambiguous = (() => {
      try {
        findSymbol(t.view, "save");
      } catch (e) {
        return e as DetailedToolError;
      }
    })()!;
    equal(ambiguous.code, "symbol_ambiguous");
    deepStrictEqual(
      (ambiguous.details.candidates as { id: string }[]).map((c) => c.id).sort(),
      ["app/models.py::Order.save#method", "app/models.py::User.save#method"],
    );
    throws(() => findSymbol(t.view, "app/models.py::User.sav#method"), (e: DetailedToolError) => {
      equal(e.code, "symbol_not_found");
      equal((e.details.closest as string[])[0], "app/models.py::User.save#method");
      return true;
    });
    throws(() => findSymbol(t.view, "@2::User.nope#method"), /legend handle/);
    // The exact qualified name first, then search hits for its last part.
    deepStrictEqual(closestSymbolIds(t.view, "Order.save"), [
      "app/models.py::Order.save#method",
      "app/models.py::User.save#method",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("expandHandleId: an id with its path still a legend handle, when the rest is unique", async () => {
  const t = await indexedView(FILES);
  try {
    equal(expandHandleId(t.view, "@2::User.save#method"), "app/models.py::User.save#method");
    equal(
      expandHandleId(t.view, "@1models.py::Order.save#method"),
      "app/models.py::Order.save#method",
    );
    equal(expandHandleId(t.view, "@3views.py::User.save#method"), undefined, "not in that file");
    equal(
      expandHandleId(t.view, "@2::save#method"),
      undefined,
      "no symbol has that qualified name",
    );
    equal(expandHandleId(t.view, "app/views.py::render#function"), undefined, "not a handle");
    match(String(expandHandleId(t.view, "@4::render")), /app\/views\.py::render#function/);
  } finally {
    await t.close();
  }
});
