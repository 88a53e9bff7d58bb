/**
 * The graph entry of get_ranked_context (`graph_spread.ts`) over fixtures/context: a seed's edges
 * (what it calls; a class's members), the share each seed spreads, worked out by hand, and a
 * symbol no word of the question finds entering the context through the class that holds it.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { indexedFixture } from "./_fixture.ts";
import { calleeEdges, memberEdges, spreadOverGraph } from "../../src/query/graph_spread.ts";
import { contextCandidates } from "../../src/query/ranked_context.ts";
import { RepoViews } from "../../src/query/view.ts";

Deno.test("graph entry", async (t) => {
  const { ws, repo, close } = await indexedFixture("context");
  try {
    const index = ws.store.repo(ws.store.resolveRepo(repo));
    const view = new RepoViews(ws.store).view(repo, index);
    const sym = (id: string) => index.symbol(id)!;

    await t.step("edges: what a symbol calls, a class's members", () => {
      deepEqual(
        calleeEdges(view, sym("shop/cart.py::Cart.total_with_coupon#method"))
          .map((e) => [e.symbol.id, e.weight]).sort(),
        [["shop/cart.py::Cart.total#method", 1], ["shop/prices.py::discount#function", 1]],
      );
      deepEqual(
        memberEdges(view, sym("shop/cart.py::Cart#class")).map((e) => e.symbol.id).sort(),
        [
          "shop/cart.py::Cart.__init__#method",
          "shop/cart.py::Cart.add#method",
          "shop/cart.py::Cart.total#method",
          "shop/cart.py::Cart.total_with_coupon#method",
        ],
      );
      // A function is no container.
      deepEqual(memberEdges(view, sym("shop/prices.py::discount#function")), []);
    });

    await t.step("spread: a share of each seed's score, split among its edges", () => {
      const hits = spreadOverGraph(view, [
        { symbol: sym("shop/cart.py::Cart.add#method"), score: 2 },
        { symbol: sym("shop/cart.py::Cart.total_with_coupon#method"), score: 4 },
      ], 0.5);
      // add calls reserve alone: 0.5 × 2; total_with_coupon calls two: 0.5 × 4 / 2 each.
      deepEqual(
        [...hits].map(([id, h]) => [id, h.gain, h.why]).sort(),
        [
          ["shop/cart.py::Cart.total#method", 1, "called by total_with_coupon"],
          ["shop/prices.py::discount#function", 1, "called by total_with_coupon"],
          ["shop/stock.py::reserve#function", 1, "called by add"],
        ],
      );
      equal(
        spreadOverGraph(view, [{ symbol: sym("shop/cart.py::Cart.add#method"), score: 0 }]).size,
        0,
      );
    });

    await t.step("context: a class's member no word found enters through the class", () => {
      const query = "which items is the customer about to buy";
      const entry = (share: number) =>
        contextCandidates(view, {
          query,
          tokenBudget: 8000,
          strategy: "combined",
          tuning: { spreadShare: share },
        }).find((c) => c.symbol.id === "shop/cart.py::Cart.__init__#method");
      equal(entry(0), undefined);
      const init = entry(0.3);
      ok(init !== undefined && init.why.startsWith("graph "), JSON.stringify(init));
      ok(init.why.includes("member of Cart"), init.why);
      equal(init.linked, true);
    });
  } finally {
    await close();
  }
});
