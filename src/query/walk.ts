/**
 * The one graph walk of the read model: breadth-first from a start node over a step function,
 * each node once at its first (shortest) depth, bounded by a depth and a node count. Every graph
 * answer that goes more than one hop uses it — callers and callees, importers by distance, the
 * dependency neighbourhood of a file, ancestors and descendants of a class, signal chains.
 */

/** One edge a step offers: the node it reaches and what to keep about the edge. */
export interface Hop<N, E> {
  /** The node reached. */
  node: N;
  /** Its identity: a node is reached once, at its first depth. */
  key: string;
  /** What the answer keeps about the edge (a call site, a base relation, a file pair). */
  edge: E;
  /**
   * Whether the walk goes on from the node (a leaf is listed but not followed: a file-level
   * caller).
   * @default true
   */
  follow?: boolean;
}

/** A node reached by a walk. */
export interface Visit<N, E> {
  node: N;
  edge: E;
  /** Hops from the start (1 for a neighbour of the start). */
  depth: number;
  /** The node it was reached from. */
  from: N;
}

/** Bounds and hooks of a walk. */
export interface WalkLimits<N, E> {
  /** Most hops from the start. */
  maxDepth: number;
  /**
   * Most nodes reached; the walk then says `truncated`.
   * @default Infinity
   */
  maxNodes?: number;
  /**
   * At the node limit, go on through the current level's edges (to nodes already reached: an
   * answer that lists edges wants every edge among its nodes) instead of stopping at once.
   * @default false
   */
  finishLevel?: boolean;
  /** Called for each edge the walk keeps: to a new node, or to one reached already. */
  onEdge?: (from: N, hop: Hop<N, E>, depth: number) => void;
}

/** What a walk reached. */
export interface WalkResult<N, E> {
  /** Nodes in the order reached (by depth, then the order of the steps). */
  visits: Visit<N, E>[];
  /** The depth of the last node reached (0 when none). */
  depthReached: number;
  /** Whether the node limit cut the walk. */
  truncated: boolean;
}

/**
 * Walk breadth-first from `start` (whose key is `startKey`) over `step`.
 *
 * @example Usage
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { breadthFirst } from "./walk.ts";
 * const edges: Record<string, string[]> = { a: ["b", "c"], b: ["d"], c: ["d"], d: ["a"] };
 * const walk = breadthFirst("a", "a", (n: string) =>
 *   (edges[n] ?? []).map((m) => ({ node: m, key: m, edge: `${n}>${m}` })), { maxDepth: 5 });
 * deepEqual(walk.visits.map((v) => [v.node, v.depth, v.from]), [
 *   ["b", 1, "a"],
 *   ["c", 1, "a"],
 *   ["d", 2, "b"],
 * ]);
 * ```
 */
export function breadthFirst<N, E>(
  start: N,
  startKey: string,
  step: (node: N, depth: number) => Iterable<Hop<N, E>>,
  limits: WalkLimits<N, E>,
): WalkResult<N, E> {
  const maxNodes = limits.maxNodes ?? Infinity;
  const visits: Visit<N, E>[] = [];
  const seen = new Set<string>([startKey]);
  let frontier: N[] = [start];
  let depthReached = 0;
  let truncated = false;
  for (let depth = 1; depth <= limits.maxDepth && frontier.length > 0 && !truncated; depth++) {
    const next: N[] = [];
    for (const node of frontier) {
      for (const hop of step(node, depth)) {
        if (seen.has(hop.key)) {
          limits.onEdge?.(node, hop, depth);
          continue;
        }
        if (visits.length >= maxNodes) {
          truncated = true;
          if (limits.finishLevel) continue;
          return { visits, depthReached, truncated };
        }
        seen.add(hop.key);
        limits.onEdge?.(node, hop, depth);
        visits.push({ node: hop.node, edge: hop.edge, depth, from: node });
        depthReached = depth;
        if (hop.follow !== false) next.push(hop.node);
      }
    }
    frontier = next;
  }
  return { visits, depthReached, truncated };
}
