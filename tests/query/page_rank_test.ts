/** PageRank against stationary distributions solved by hand (the linear system of each graph). */
import { equal, ok } from "node:assert/strict";
import { pageRank, pageRankWithIterations } from "../../src/query/page_rank.ts";

const close = (a: number, b: number) => ok(Math.abs(a - b) < 1e-6, `${a} ≠ ${b}`);

Deno.test("pageRank: stationary ranks of small graphs", async (t) => {
  await t.step("two files import a third: c = 27/47, a = b = 10/47", () => {
    // a = 0.05 + 0.85c/3 (c imports nothing: its rank is spread evenly), c = 1 - 2a.
    const rank = pageRank(["a", "b", "c"], [["a", "c"], ["b", "c"]]);
    close(rank.get("c")!, 27 / 47);
    close(rank.get("a")!, 10 / 47);
    close(rank.get("b")!, 10 / 47);
  });
  await t.step("weights split a node's rank in proportion", () => {
    // a → b (3), a → c (1), b → c; solving ra = .05 + .85rc/3, rb = .05 + .6375ra + .85rc/3,
    // rc = .05 + .2125ra + .85rb + .85rc/3 gives 0.190771, 0.312388, 0.496840.
    const { rank, iterations } = pageRankWithIterations(["a", "b", "c"], [
      ["a", "b", 3],
      ["a", "c", 1],
      ["b", "c"],
    ]);
    close(rank.get("a")!, 0.19077143);
    close(rank.get("b")!, 0.31238822);
    close(rank.get("c")!, 0.49684035);
    ok(iterations > 1 && iterations < 100);
  });
  await t.step("self-loops, unknown nodes and zero weights are ignored; no nodes, no ranks", () => {
    const rank = pageRank(["a", "b"], [["a", "a"], ["a", "x"], ["b", "a", 0]]);
    close(rank.get("a")!, 0.5);
    equal(pageRankWithIterations([], []).iterations, 0);
  });
});
