/**
 * The graph-neighbour bonus over fixtures/context: a seed's neighbours (callees, and callers when
 * few), and search_symbols adding the bonus to the matches connected to its best hits for a
 * question of several words, not for a name or a signature.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { indexedFixture } from "./_fixture.ts";
import {
  MAX_SEED_CALLERS,
  NEIGHBOUR_BONUS,
  seedNeighbours,
} from "../../src/query/graph_neighbours.ts";
import { RepoViews } from "../../src/query/view.ts";

interface Hit {
  id: string;
  score: number;
  score_graph: number;
  score_focus: number;
}

Deno.test("graph neighbours", async (t) => {
  const { ws, runner, repo, close } = await indexedFixture("context");
  try {
    const search = async (query: string) => {
      const r = await runner.call("search_symbols", { repo, query, debug: true, format: "json" });
      equal(r.isError, false, r.text);
      return (JSON.parse(r.text) as { results: Hit[] }).results;
    };

    await t.step("a seed's neighbours: what it calls, and its few callers", () => {
      const index = ws.store.repo(ws.store.resolveRepo(repo));
      const view = new RepoViews(ws.store).view(repo, index);
      const total = index.symbol("shop/cart.py::Cart.total#method")!;
      deepEqual(
        seedNeighbours(view, total).map((n) => [n.symbol.id, n.why]).sort(),
        [
          ["checkout.py::checkout#function", "calls total"],
          ["shop/cart.py::Cart.total_with_coupon#method", "calls total"],
          ["shop/prices.py::price_with_tax#function", "called by total"],
        ],
      );
      ok(MAX_SEED_CALLERS >= 2);
    });

    await t.step("a question of several words: connected matches gain a share", async () => {
      const hits = await search("total price of the cart with tax");
      const best = hits[0]!;
      equal(best.id, "shop/cart.py::Cart.total#method");
      const tax = hits.find((h) => h.id === "shop/prices.py::price_with_tax#function")!;
      ok(tax.score_graph > 0, JSON.stringify(tax));
      // The bonus is a share of the best seed's score before any bonus.
      const seedScore = best.score - best.score_graph - best.score_focus;
      ok(Math.abs(tax.score_graph - seedScore * NEIGHBOUR_BONUS) < 0.02);
      const isolated = hits.find((h) => h.id === "shop/prices.py::TAX_RATE#constant");
      if (isolated !== undefined) equal(isolated.score_graph, 0);
    });

    await t.step("a name, two words or a signature: no bonus", async () => {
      for (const q of ["total", "cart total", "def total(self)"]) {
        for (const h of await search(q)) equal(h.score_graph, 0, `${q}: ${h.id}`);
      }
    });
  } finally {
    await close();
  }
});
