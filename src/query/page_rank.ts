/**
 * PageRank over the import graph: a file many files import — directly or through files that are
 * themselves imported a lot — ranks high. `get_repo_outline` names the most central symbols from
 * it ({@linkcode centralSymbols}); the ranking is shared here so every tool reads the same figure,
 * and `get_symbol_importance` runs the same {@linkcode pageRank} over calls and imports
 * (importance.ts).
 */
import { PATHS, SYMBOL_BRIEFS, type SymbolBrief } from "./files.ts";
import { facet } from "./view.ts";

/** Damping factor: the chance of following an import rather than jumping anywhere. */
export const DAMPING = 0.85;
/** Most power iterations (the ranks usually settle far sooner). */
const _MAX_ITERATIONS = 100;
/** The walk stops once the ranks move by less than this in total. */
const _TOLERANCE = 1e-6;

/** A directed edge: from → to, with an optional weight (default 1). */
export type RankEdge = readonly [string, string] | readonly [string, string, number];

/** PageRank ranks and the power iterations they took to settle. */
export interface RankResult {
  rank: Map<string, number>;
  iterations: number;
}

/**
 * PageRank of `nodes` over directed `edges` (importer → imported, caller → callee; edges to
 * unknown nodes and self-loops are ignored), damping {@linkcode DAMPING}: a node passes its rank
 * along its out-edges in proportion to their weights, and the rank of nodes without out-edges is
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
  nodes: readonly string[],
  edges: Iterable<RankEdge>,
): Map<string, number> {
  return pageRankWithIterations(nodes, edges).rank;
}

/** {@linkcode pageRank}, with the number of power iterations it took. */
export function pageRankWithIterations(
  nodes: readonly string[],
  edges: Iterable<RankEdge>,
): RankResult {
  const n = nodes.length;
  if (n === 0) return { rank: new Map(), iterations: 0 };
  const idx = new Map(nodes.map((f, i) => [f, i]));
  const out: number[][] = nodes.map(() => []);
  const weight: number[][] = nodes.map(() => []);
  const total = new Float64Array(n);
  for (const e of edges) {
    const a = idx.get(e[0]), b = idx.get(e[1]);
    const w = e[2] ?? 1;
    if (a === undefined || b === undefined || a === b || !(w > 0)) continue;
    out[a]!.push(b);
    weight[a]!.push(w);
    total[a]! += w;
  }
  let rank = new Float64Array(n).fill(1 / n);
  let iterations = 0;
  for (let iter = 0; iter < _MAX_ITERATIONS; iter++) {
    iterations++;
    const next = new Float64Array(n).fill((1 - DAMPING) / n);
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      const targets = out[i]!;
      if (targets.length === 0) {
        dangling += rank[i]!;
        continue;
      }
      const share = (DAMPING * rank[i]!) / total[i]!;
      const ws = weight[i]!;
      for (let k = 0; k < targets.length; k++) next[targets[k]!]! += share * ws[k]!;
    }
    let delta = 0;
    for (let i = 0; i < n; i++) {
      next[i]! += (DAMPING * dangling) / n;
      delta += Math.abs(next[i]! - rank[i]!);
    }
    rank = next;
    if (delta < _TOLERANCE) break;
  }
  return { rank: new Map(nodes.map((f, i) => [f, rank[i]!])), iterations };
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

/** Kinds in the order one stands for its file; any other kind comes after them. */
const _KIND_PRIORITY = ["class", "function", "method", "type", "constant"];

/** The symbols of each file, in source order. */
export const BRIEFS_BY_FILE = facet("briefs-by-file", (v): Map<string, SymbolBrief[]> => {
  const byFile = new Map<string, SymbolBrief[]>();
  for (const s of v.get(SYMBOL_BRIEFS)) {
    let list = byFile.get(s.file);
    if (list === undefined) byFile.set(s.file, list = []);
    list.push(s);
  }
  return byFile;
});

/**
 * The symbol that stands for a file: the first by kind (class, function, method, type, constant,
 * then any other), then the largest, then the first in source order.
 */
export function representativeSymbol(symbols: readonly SymbolBrief[]): SymbolBrief | undefined {
  return [...symbols].sort((a, b) => {
    const pa = _KIND_PRIORITY.indexOf(a.kind), pb = _KIND_PRIORITY.indexOf(b.kind);
    return (pa === -1 ? 9 : pa) - (pb === -1 ? 9 : pb) || b.byte_length - a.byte_length;
  })[0];
}

/**
 * The representative symbols of the `n` files that rank highest in `rank` (ties by path), files
 * without symbols skipped, each with its file's score rounded to 6 decimals.
 */
export function centralSymbols(
  byFile: ReadonlyMap<string, readonly SymbolBrief[]>,
  rank: ReadonlyMap<string, number>,
  n: number,
): { symbol: SymbolBrief; score: number }[] {
  const ranks = [...rank].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const out: { symbol: SymbolBrief; score: number }[] = [];
  for (const [file, score] of ranks) {
    if (out.length >= n) break;
    const rep = representativeSymbol(byFile.get(file) ?? []);
    if (rep !== undefined) out.push({ symbol: rep, score: Math.round(score * 1e6) / 1e6 });
  }
  return out;
}
