/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): each channel's ranking gives
 * an item `weight / (k + rank)` (rank from 1), summed over the channels that rank it. Only ranks
 * count, so channels whose scores live on different scales (BM25 with priors, cosine similarity)
 * fuse without calibration; `k` = 60 is the paper's constant and the reference's.
 */

/** The paper's smoothing constant. */
export const RRF_K = 60;

/** One channel: its items best first, and its weight. */
export interface FusionChannel<T> {
  name: string;
  items: readonly T[];
  weight: number;
}

/** A fused item: its score and its rank (from 1) in each channel, null where unranked. */
export interface Fused<T> {
  key: string;
  item: T;
  score: number;
  ranks: Record<string, number | null>;
}

/**
 * Fuse channels (the first channel's item is kept for a key several rank); best first, ties by
 * the earliest channel's rank.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { reciprocalRankFusion } from "./rank_fusion.ts";
 * const fused = reciprocalRankFusion([
 *   { name: "lexical", items: ["a", "b"], weight: 1 },
 *   { name: "semantic", items: ["b", "c"], weight: 1 },
 * ], (x) => x);
 * deepEqual(fused.map((f) => f.key), ["b", "a", "c"]);
 * ```
 */
export function reciprocalRankFusion<T>(
  channels: readonly FusionChannel<T>[],
  key: (item: T) => string,
  k = RRF_K,
): Fused<T>[] {
  const byKey = new Map<string, Fused<T>>();
  for (const c of channels) {
    for (const [i, item] of c.items.entries()) {
      const id = key(item);
      let f = byKey.get(id);
      if (f === undefined) {
        f = {
          key: id,
          item,
          score: 0,
          ranks: Object.fromEntries(channels.map((x) => [x.name, null])),
        };
        byKey.set(id, f);
      }
      if (f.ranks[c.name] !== null) continue;
      f.ranks[c.name] = i + 1;
      f.score += c.weight / (k + i + 1);
    }
  }
  const first = (f: Fused<T>) => {
    for (const c of channels) if (f.ranks[c.name] !== null) return f.ranks[c.name]!;
    return Infinity;
  };
  return [...byKey.values()].sort((a, b) => b.score - a.score || first(a) - first(b));
}
