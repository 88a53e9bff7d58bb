/**
 * The packing of get_ranked_context (`context_pack.ts`) over fixtures/context: once the source
 * packed takes the full-source share of the budget, the next candidates come as their signature and
 * the first line of their docstring, cut, and the budget still holds.
 */
import { equal, ok } from "node:assert/strict";
import { indexedFixture } from "./_fixture.ts";
import { rankedContext } from "../../src/query/ranked_context.ts";
import { RepoViews } from "../../src/query/view.ts";

Deno.test("packing: source first, then signatures", async (t) => {
  const { ws, repo, close } = await indexedFixture("context");
  try {
    const index = ws.store.repo(ws.store.resolveRepo(repo));
    const view = new RepoViews(ws.store).view(repo, index);
    const pack = (fullShare: number) =>
      rankedContext(view, {
        query: "total price of the cart with tax",
        tokenBudget: 2000,
        strategy: "combined",
        tuning: { fullShare },
      });

    await t.step("the whole budget as source: only a class holding packed members is cut", () => {
      const all = pack(1);
      ok(all.items.length >= 3);
      for (const i of all.items.filter((i) => i.cut)) {
        const c = index.symbol(i.symbol_id)!;
        ok(
          all.items.some((m) => {
            const s = index.symbol(m.symbol_id)!;
            return !m.cut && s.file === c.file && c.line <= s.line && s.end_line <= c.end_line;
          }),
          i.symbol_id,
        );
      }
    });

    await t.step("a share of none: every item is its signature and first docstring line", () => {
      const map = pack(0);
      ok(map.items.length >= 3);
      for (const i of map.items) {
        const s = index.symbol(i.symbol_id)!;
        equal(i.cut, true, i.symbol_id);
        const first = s.docstring.split("\n", 1)[0]!.trim();
        equal(i.source, first === "" ? s.signature : `${s.signature}\n${first}`, i.symbol_id);
      }
      ok(map.items.reduce((n, i) => n + i.tokens, 0) <= 2000);
    });

    await t.step("half the budget: the best items whole, those after it cut", () => {
      const items = pack(0.5).items;
      equal(items[0]!.cut, false);
      let source = 0;
      for (const i of items) {
        if (source >= 0.5 * 2000) equal(i.cut, true, i.symbol_id);
        if (!i.cut) source += i.tokens;
      }
    });
  } finally {
    await close();
  }
});
