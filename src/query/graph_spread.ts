/**
 * Graph entry of `get_ranked_context`: the code a task needs is connected to the code its words
 * find. The best {@linkcode SPREAD_SEEDS} candidates each spread {@linkcode SPREAD_SHARE} of their
 * score over what they reach in one step of the stored graph — one step of a personalized
 * PageRank whose restart distribution is the text ranking — and a symbol reached that no word
 * found enters the context with what it gathered (the sum over the seeds that reach it).
 *
 * Edges (chosen on our own question sets, the tuning corpora: the share of a seed's neighbours
 * that are labelled, measured in round 10; BENCHMARKS.md):
 * - **calls**: what the seed calls (resolved calls, or a call by name that at most
 *   {@linkcode MAX_NAMED_TARGETS} definitions could be, each weighing 1 / their number). Of the
 *   symbols the three best candidates call that no word found, 13% are labelled — more than the
 *   text matches ranked 10–19 (8%);
 * - **members**: a class's or type's direct members (5% of the members of the three best are
 *   labelled, against 4% of the text matches ranked 20–39).
 *
 * Callers (0.4% labelled), the class a member belongs to (3%) and the types a signature names
 * (2%) were measured too and are not edges: a symbol called from a hundred places says nothing
 * about the task.
 *
 * Each edge type a seed has takes an equal share of its outflow, split among its targets by
 * weight: a seed calling one helper gives it the whole share, one calling twenty gives each a
 * twentieth (a random walk's step). Text matches keep their own score: raising those that a seed
 * reaches too moved the lookups' best answer from the first place (BENCHMARKS.md); the older
 * neighbour stage (`graph_neighbours.ts`) stays for them.
 */
import type { SymbolRecord } from "../parser/types.ts";
import { CALL_GRAPH } from "./call_graph.ts";
import { SYMBOLS } from "./symbols.ts";
import type { RepoView } from "./view.ts";

/** How many of the best candidates spread their score (fitted with {@linkcode SPREAD_SHARE}). */
export const SPREAD_SEEDS = 20;

/**
 * The share of its score a seed spreads over its neighbours. Fitted on the tuning corpora of the
 * retrieval bench (ours) by `deno task bench fit-context` over 0, 0.15, 0.3 and 0.5 with 10 or 20
 * seeds, each tuning corpus left out in turn; the independent corpora are held out (BENCHMARKS.md).
 */
export const SPREAD_SHARE = 0.3;

/** A call by name is an edge only when at most this many definitions could be its target. */
export const MAX_NAMED_TARGETS = 3;

/** The kinds whose direct members are its neighbours. */
const _CONTAINERS = new Set(["class", "type"]);

/** A symbol the seeds reach, with what it gathered and the edge that brought the most. */
export interface SpreadHit {
  symbol: SymbolRecord;
  gain: number;
  /** `called by <seed>` or `member of <seed>`. */
  why: string;
}

/** One edge out of a seed: its target, its weight within its type, and why. */
interface _Edge {
  symbol: SymbolRecord;
  weight: number;
}

/**
 * The symbols `seeds` (best first, with their scores) reach in one step, each with the sum of
 * `share` × seed score × edge weight over the seeds that reach it (the seeds themselves
 * included when another seed reaches them).
 */
export function spreadOverGraph(
  view: RepoView,
  seeds: readonly { symbol: SymbolRecord; score: number }[],
  share: number = SPREAD_SHARE,
): Map<string, SpreadHit> {
  const out = new Map<string, SpreadHit & { best: number }>();
  for (const seed of seeds) {
    if (seed.score <= 0) continue;
    const types = [
      { edges: calleeEdges(view, seed.symbol), why: "called by" },
      { edges: memberEdges(view, seed.symbol), why: "member of" },
    ].filter((t) => t.edges.length > 0);
    for (const t of types) {
      let total = 0;
      for (const e of t.edges) total += e.weight;
      for (const e of t.edges) {
        const gain = share * seed.score * (e.weight / total) / types.length;
        const why = `${t.why} ${seed.symbol.name}`;
        const had = out.get(e.symbol.id);
        if (had === undefined) {
          out.set(e.symbol.id, { symbol: e.symbol, gain, why, best: gain });
        } else {
          had.gain += gain;
          if (gain > had.best) [had.best, had.why] = [gain, why];
        }
      }
    }
  }
  return new Map([...out].map(([id, h]) => [id, { symbol: h.symbol, gain: h.gain, why: h.why }]));
}

/** What `s` calls: resolved targets (weight 1), or a name few definitions share (1 / their number). */
export function calleeEdges(view: RepoView, s: SymbolRecord): _Edge[] {
  const byId = new Map<string, _Edge>();
  for (const e of view.get(CALL_GRAPH).callees(s)) {
    if (e.symbol === null || e.symbol.kind === "import" || e.symbol.id === s.id) continue;
    const resolved = e.resolution === "resolved";
    if (!resolved && e.candidates > MAX_NAMED_TARGETS) continue;
    const weight = resolved ? 1 : 1 / e.candidates;
    const had = byId.get(e.symbol.id);
    if (had === undefined || had.weight < weight) {
      byId.set(e.symbol.id, { symbol: e.symbol, weight });
    }
  }
  return [...byId.values()];
}

/** A class's or type's direct members (weight 1 each); none for other kinds. */
export function memberEdges(view: RepoView, s: SymbolRecord): _Edge[] {
  if (!_CONTAINERS.has(s.kind)) return [];
  return view.get(SYMBOLS).ofFile(s.file)
    .filter((m) => m.parent === s.id && m.kind !== "import")
    .map((m) => ({ symbol: m, weight: 1 }));
}
