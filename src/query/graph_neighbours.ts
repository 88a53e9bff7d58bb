/**
 * The graph neighbours of a search's best matches, shared by `search_symbols` (through
 * {@linkcode rankSymbolHits}) and `get_ranked_context`: the code a question or a task needs is
 * connected, so a match that one of the best matches calls, or that calls it, is more likely part
 * of the answer than an isolated match with the same words.
 *
 * A seed's neighbours are what it calls and, when at most {@linkcode MAX_SEED_CALLERS} symbols
 * call it, its callers (the callers of a symbol called from everywhere say nothing about the
 * question); resolved calls only.
 */
import type { SymbolRecord } from "../parser/types.ts";
import { CALL_GRAPH } from "./call_graph.ts";
import type { RepoView } from "./view.ts";

/** How many of the best matches are seeds. */
export const NEIGHBOUR_SEEDS = 5;

/** A seed's callers are neighbours only when there are at most this many. */
export const MAX_SEED_CALLERS = 3;

/** The share of its seed's score a match that neighbours the seed gains. */
export const NEIGHBOUR_BONUS = 0.15;

/** One neighbour of a seed, and why. */
export interface Neighbour {
  symbol: SymbolRecord;
  /** `called by <seed name>` or `calls <seed name>`. */
  why: string;
}

/** The resolved neighbours of a seed: its callees, then its callers if it has few (see above). */
export function seedNeighbours(view: RepoView, seed: SymbolRecord): Neighbour[] {
  const graph = view.get(CALL_GRAPH);
  const out: Neighbour[] = [];
  for (const e of graph.callees(seed)) {
    if (e.symbol !== null && e.resolution === "resolved" && e.symbol.id !== seed.id) {
      out.push({ symbol: e.symbol, why: `called by ${seed.name}` });
    }
  }
  const callers = graph.callers(seed).filter((e) =>
    e.symbol !== null && e.resolution === "resolved"
  );
  if (callers.length <= MAX_SEED_CALLERS) {
    for (const e of callers) {
      if (e.symbol!.id !== seed.id) out.push({ symbol: e.symbol!, why: `calls ${seed.name}` });
    }
  }
  return out;
}

/**
 * The bonus of each match that neighbours a seed: {@linkcode NEIGHBOUR_BONUS} of the best such
 * seed's score (the scores read are the seeds' own, before any bonus). `isMatch` says which ids
 * can gain.
 */
export function neighbourBonuses(
  view: RepoView,
  seeds: readonly { symbol: SymbolRecord; score: number }[],
  isMatch: (id: string) => boolean,
): Map<string, { add: number; why: string }> {
  const bonus = new Map<string, { add: number; why: string }>();
  for (const seed of seeds) {
    const add = seed.score * NEIGHBOUR_BONUS;
    for (const n of seedNeighbours(view, seed.symbol)) {
      if (!isMatch(n.symbol.id)) continue;
      if ((bonus.get(n.symbol.id)?.add ?? 0) < add) bonus.set(n.symbol.id, { add, why: n.why });
    }
  }
  return bonus;
}
