/**
 * Rename sites (src/query/rename_sites.ts) and the name tokens they weigh
 * (src/query/name_tokens.ts), over a small Python package indexed for real.
 */
import { deepEqual } from "node:assert/strict";
import { nameTokens, wordPattern } from "../../src/query/name_tokens.ts";
import { renameSites } from "../../src/query/rename_sites.ts";
import { indexedView } from "./_fixture.ts";
import { TOTAL_PACKAGE } from "./_rename_fixture.ts";

Deno.test("name_tokens: each occurrence with what it is written in", async () => {
  const { view, close } = await indexedView(TOTAL_PACKAGE);
  try {
    const tokens = async (file: string) =>
      (await nameTokens(view, file, "total")).map((t) =>
        `${t.line}:${t.start} ${t.context}${t.member ? ` member of ${t.receiver}` : ""}${
          t.exactString ? " exact" : ""
        }`
      );
    deepEqual(await tokens("shop/cart.py"), [
      "4:2 comment",
      "5:4 code",
      "6:18 string",
      "11:11 code",
    ]);
    // An f-string's `{total}` is code; `"total"` alone is an exact string.
    deepEqual(await tokens("shop/app.py"), [
      "1:22 code",
      "6:8 code",
      "7:13 code member of cart",
      "8:26 string exact",
      "8:38 code",
      "9:2 comment",
    ]);
    deepEqual(await tokens("shop/other.py"), ["1:4 code", "6:13 code member of o", "6:23 code"]);
    deepEqual(await tokens("README.md"), ["1:5 docs"]);
    deepEqual(await tokens("shop/__init__.py"), []);
    deepEqual("a total, totals, $total total_x".match(wordPattern("total")), ["total"]);
  } finally {
    await close();
  }
});

Deno.test("rename_sites: every site of a name with its certainty", async () => {
  const { view, symbol, close } = await indexedView(TOTAL_PACKAGE);
  try {
    const found = await renameSites(view, symbol("shop/cart.py::total#function"), 50);
    deepEqual(
      found.sites.map((s) =>
        `${s.file}:${s.line}:${s.col}-${s.endCol} ${s.role} ${s.foundBy} ${s.certainty}`
      ),
      [
        "README.md:1:6-11 docs text mention",
        "shop/app.py:1:23-28 import import certain",
        "shop/app.py:6:9-14 reference graph certain",
        "shop/app.py:7:14-19 reference graph certain",
        "shop/app.py:8:27-32 string text check",
        "shop/app.py:8:39-44 reference scope certain",
        "shop/app.py:9:3-8 comment text mention",
        "shop/cart.py:4:3-8 comment text mention",
        "shop/cart.py:5:5-10 definition definition certain",
        "shop/cart.py:6:19-24 string text mention",
        "shop/cart.py:11:12-17 reference graph certain",
        // `o.total()`: an unknown receiver of a name two definitions share. The bare `total()`
        // and the definition of other.py are the namesake's: no sites.
        "shop/other.py:6:14-19 reference by_name ambiguous",
      ],
    );
    deepEqual(found.namesakes.map((n) => n.id), ["shop/other.py::total#function"]);
    deepEqual([found.filesScanned, found.filesSkipped], [4, []]);
    // Over `maxFiles`, the bound files come first and the rest are skipped.
    const few = await renameSites(view, symbol("shop/cart.py::total#function"), 2);
    deepEqual([few.filesScanned, few.filesSkipped], [2, ["README.md", "shop/other.py"]]);
  } finally {
    await close();
  }
});
