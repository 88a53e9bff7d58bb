/** The one graph walk (src/query/walk.ts): shortest depths, leaves, the node limit, edge hooks. */
import { deepEqual, equal } from "node:assert/strict";
import { breadthFirst, type Hop } from "../../src/query/walk.ts";

const EDGES: Record<string, string[]> = {
  a: ["b", "c"],
  b: ["d", "leaf"],
  c: ["d", "e"],
  d: ["a", "f"],
  e: ["f"],
};

function step(node: string): Hop<string, string>[] {
  return (EDGES[node] ?? []).map((m) => ({
    node: m,
    key: m,
    edge: `${node}>${m}`,
    follow: m !== "leaf",
  }));
}

Deno.test("breadthFirst", async (t) => {
  await t.step("each node once, at its shortest depth, from the first node reaching it", () => {
    const walk = breadthFirst("a", "a", step, { maxDepth: 10 });
    deepEqual(walk.visits.map((v) => `${v.depth} ${v.edge}`), [
      "1 a>b",
      "1 a>c",
      "2 b>d",
      "2 b>leaf",
      "2 c>e",
      "3 d>f",
    ]);
    deepEqual([walk.depthReached, walk.truncated], [3, false]);
  });

  await t.step("maxDepth stops the walk", () => {
    const walk = breadthFirst("a", "a", step, { maxDepth: 1 });
    deepEqual(walk.visits.map((v) => v.node), ["b", "c"]);
    equal(walk.depthReached, 1);
  });

  await t.step("a leaf is listed, never followed", () => {
    const followed: string[] = [];
    breadthFirst("a", "a", (n: string) => {
      followed.push(n);
      return step(n);
    }, { maxDepth: 10 });
    equal(followed.includes("leaf"), false);
  });

  await t.step("maxNodes cuts at once, or after the level with finishLevel", () => {
    const cut = breadthFirst("a", "a", step, { maxDepth: 10, maxNodes: 3 });
    deepEqual([cut.visits.map((v) => v.node), cut.truncated], [["b", "c", "d"], true]);
    const edges: string[] = [];
    const level = breadthFirst("a", "a", step, {
      maxDepth: 10,
      maxNodes: 3,
      finishLevel: true,
      onEdge: (_from, hop, depth) => edges.push(`${depth} ${hop.edge}`),
    });
    deepEqual(level.visits.map((v) => v.node), ["b", "c", "d"]);
    equal(level.truncated, true);
    // Edges to nodes already reached are kept (c>d); edges to nodes beyond the limit are not.
    deepEqual(edges, ["1 a>b", "1 a>c", "2 b>d", "2 c>d"]);
  });
});
