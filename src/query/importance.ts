/**
 * Symbol importance (`get_symbol_importance`): PageRank over one graph of files and symbols, the
 * same {@linkcode pageRank} as the file ranking of `get_repo_outline`.
 *
 * - **imports**: file → the file each resolved import reaches (as the file ranking);
 * - **calls**: caller → callee, weighted as {@linkcode CALL_EDGES} resolves them (a file-level
 *   call's caller is its file);
 * - **containment**: file → each of its top-level definitions, and a class → its members, so
 *   the rank a file earns by being imported reaches what it defines.
 *
 * A definition many others call, directly or through callers that are themselves called a lot,
 * or that sits in a file the repo imports everywhere, ranks high. Imports (kind `import`) are no
 * nodes. `degree` is the plain alternative: resolved callers (summed call weight) plus the files
 * importing the definition's module, for a top-level definition.
 */
import { CALL_EDGES } from "./call_edges.ts";
import { CENTRALITY } from "./centrality.ts";
import { PATHS, SYMBOL_BRIEFS, type SymbolBrief } from "./files.ts";
import { IMPORT_EDGES, pageRankWithIterations, type RankEdge } from "./page_rank.ts";
import { UNITS } from "./units.ts";
import { facet } from "./view.ts";

/** One ranked definition. */
export interface RankedSymbol {
  symbol: SymbolBrief;
  score: number;
  /** Distinct callers (symbols, or files calling at the top level) resolved to it. */
  inDegree: number;
  /** Distinct callees it resolves to. */
  outDegree: number;
  /** Files importing its module (0 for a member of a class). */
  importers: number;
}

/** A ranking of every definition, highest first (ties by id). */
export interface ImportanceRanking {
  ranked: RankedSymbol[];
  iterations: number;
}

const _BY_RANK = (a: RankedSymbol, b: RankedSymbol) =>
  b.score - a.score || (a.symbol.id < b.symbol.id ? -1 : a.symbol.id > b.symbol.id ? 1 : 0);

function _ranked(
  briefs: readonly SymbolBrief[],
  score: (s: SymbolBrief) => number,
  degrees: (s: SymbolBrief) => Omit<RankedSymbol, "symbol" | "score">,
): RankedSymbol[] {
  return briefs.map((s) => ({ symbol: s, score: score(s), ...degrees(s) })).sort(_BY_RANK);
}

/** Definitions: every symbol but imports. */
const _DEFINITIONS = facet(
  "importance-definitions",
  (view) => view.get(SYMBOL_BRIEFS).filter((s) => s.kind !== "import"),
);

/** Symbol id → its parent's id, for every symbol with one. */
export const SYMBOL_PARENTS = facet("symbol-parents", (view): Map<string, string> => {
  const out = new Map<string, string>();
  for (const s of view.index.symbolParents()) out.set(s.id, s.parent);
  return out;
});

const _DEGREES = facet("importance-degrees", (view) => {
  const edges = view.get(CALL_EDGES);
  const units = view.get(UNITS);
  const importers = view.get(CENTRALITY).importers;
  const parents = view.get(SYMBOL_PARENTS);
  return (s: SymbolBrief) => ({
    inDegree: edges.callers.get(s.id)?.size ?? 0,
    outDegree: edges.callees.get(s.id)?.size ?? 0,
    importers: parents.has(s.id) ? 0 : importers.get(units.keyOf(s.file)) ?? 0,
  });
});

/** The PageRank ranking of every definition (see the module doc). */
export const PAGERANK_IMPORTANCE = facet("importance-pagerank", (view): ImportanceRanking => {
  const defs = view.get(_DEFINITIONS);
  const parents = view.get(SYMBOL_PARENTS);
  const calls = view.get(CALL_EDGES);
  const ids = new Set(defs.map((s) => s.id));
  const nodes = [...view.get(PATHS), ...ids];
  const edges: RankEdge[] = [...view.get(IMPORT_EDGES)];
  for (const s of defs) {
    const parent = parents.get(s.id);
    edges.push([parent !== undefined && ids.has(parent) ? parent : s.file, s.id]);
  }
  for (const [from, row] of calls.callees) {
    for (const [to, w] of row) edges.push([from, to, w]);
  }
  const { rank, iterations } = pageRankWithIterations(nodes, edges);
  const degrees = view.get(_DEGREES);
  return {
    ranked: _ranked(defs, (s) => rank.get(s.id) ?? 0, degrees),
    iterations,
  };
});

/** The degree ranking: resolved callers plus importers of the module, over their total. */
export const DEGREE_IMPORTANCE = facet("importance-degree", (view): ImportanceRanking => {
  const defs = view.get(_DEFINITIONS);
  const calls = view.get(CALL_EDGES);
  const degrees = view.get(_DEGREES);
  const raw = new Map<string, number>();
  let total = 0;
  for (const s of defs) {
    let w = degrees(s).importers;
    for (const v of calls.callers.get(s.id)?.values() ?? []) w += v;
    raw.set(s.id, w);
    total += w;
  }
  const score = (s: SymbolBrief) => total === 0 ? 0 : (raw.get(s.id) ?? 0) / total;
  return { ranked: _ranked(defs, score, degrees), iterations: 0 };
});
