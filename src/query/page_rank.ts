/**
 * PageRank over the import graph: a file many files import — directly or through files that are
 * themselves imported a lot — ranks high. `get_repo_outline` names the most central symbols from
 * it; the ranking is shared here so every tool reads the same figure.
 */
import { PATHS } from "./files.ts";
import { facet } from "./view.ts";

/** Damping factor: the chance of following an import rather than jumping anywhere. */
export const DAMPING = 0.85;
/** Most power iterations (the ranks usually settle far sooner). */
const _MAX_ITERATIONS = 100;
/** The walk stops once the ranks move by less than this in total. */
const _TOLERANCE = 1e-6;

/**
 * PageRank of `files` over directed `edges` (importer → imported; edges to unknown files and
 * self-loops are ignored), damping {@linkcode DAMPING}, the rank of files that import nothing
 * spread evenly. The ranks sum to 1.
 *
 * @example Usage
 * ```ts
 * import { ok } from "node:assert/strict";
 * import { pageRank } from "./page_rank.ts";
 * const rank = pageRank(["a", "b", "c"], [["a", "c"], ["b", "c"]]);
 * ok(rank.get("c")! > rank.get("a")!);
 * ok(Math.abs([...rank.values()].reduce((x, y) => x + y) - 1) < 1e-9);
 * ```
 */
export function pageRank(
  files: readonly string[],
  edges: readonly [string, string][],
): Map<string, number> {
  const n = files.length;
  const idx = new Map(files.map((f, i) => [f, i]));
  const out: number[][] = files.map(() => []);
  for (const [from, to] of edges) {
    const a = idx.get(from), b = idx.get(to);
    if (a !== undefined && b !== undefined && a !== b) out[a]!.push(b);
  }
  let rank = new Float64Array(n).fill(1 / n);
  for (let iter = 0; iter < _MAX_ITERATIONS; iter++) {
    const next = new Float64Array(n).fill((1 - DAMPING) / n);
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      const targets = out[i]!;
      if (targets.length === 0) dangling += rank[i]!;
      else for (const t of targets) next[t]! += (DAMPING * rank[i]!) / targets.length;
    }
    let delta = 0;
    for (let i = 0; i < n; i++) {
      next[i]! += (DAMPING * dangling) / n;
      delta += Math.abs(next[i]! - rank[i]!);
    }
    rank = next;
    if (delta < _TOLERANCE) break;
  }
  return new Map(files.map((f, i) => [f, rank[i]!]));
}

/** The import edges of a view (importer → resolved file, self-imports left out), in index order. */
export const IMPORT_EDGES = facet("import-edges", (v): [string, string][] => {
  const edges: [string, string][] = [];
  for (const i of v.index.allImports()) {
    if (i.resolved !== null && i.resolved !== i.file) edges.push([i.file, i.resolved]);
  }
  return edges;
});

/**
 * The PageRank of every indexed file over the resolved imports (empty when the repo has no
 * resolved import).
 */
export const FILE_RANK = facet("file-rank", (v): Map<string, number> => {
  const edges = v.get(IMPORT_EDGES);
  if (edges.length === 0) return new Map();
  return pageRank(v.get(PATHS), edges);
});
