/**
 * Every call edge of a repo resolved at once: caller → callee with a weight, for the answers that
 * need the whole call graph rather than a walk from one symbol (importance, winnowing by callers
 * and callees, relatedness). A call resolved to one definition weighs 1; a call that matched
 * `k ≤` {@linkcode MAX_BY_NAME} definitions by name alone gives each 1/k; a call matching more is
 * left out (a guess spread that thin says nothing). A file-level call's caller is its file's
 * path. Built once per index state.
 */
import { NAME_RESOLVER } from "./resolve_names.ts";
import { MAX_BY_NAME } from "./test_reach.ts";
import { facet } from "./view.ts";

/** Weighted neighbours: node id → summed weight of the calls between the two. */
export type Weighted = Map<string, number>;

/** The resolved call graph of one index state. */
export interface CallEdges {
  /** Caller (a symbol id, or a path for file-level calls) → callee symbol ids. */
  callees: Map<string, Weighted>;
  /** Callee symbol id → its callers. */
  callers: Map<string, Weighted>;
  /** Caller symbol id → the callee names its call sites write (resolved or not). */
  calleeNames: Map<string, Set<string>>;
  /** Call sites read, and those resolved to at least one definition kept. */
  sites: number;
  kept: number;
}

function _add(map: Map<string, Weighted>, a: string, b: string, w: number): void {
  let row = map.get(a);
  if (row === undefined) map.set(a, row = new Map());
  row.set(b, (row.get(b) ?? 0) + w);
}

/** The resolved call edges of a view (see the module doc). */
export const CALL_EDGES = facet("call-edges", (view): CallEdges => {
  const resolver = view.get(NAME_RESOLVER);
  const callees = new Map<string, Weighted>();
  const callers = new Map<string, Weighted>();
  const calleeNames = new Map<string, Set<string>>();
  let sites = 0, kept = 0;
  for (const site of view.index.allCalls()) {
    sites++;
    const from = site.caller ?? site.file;
    if (site.caller !== null) {
      let names = calleeNames.get(site.caller);
      if (names === undefined) calleeNames.set(site.caller, names = new Set());
      names.add(site.callee);
    }
    const r = resolver.resolveCall(site);
    if (r === null || r.targets.length === 0) continue;
    if (r.resolution === "by_name" && r.targets.length > MAX_BY_NAME) continue;
    kept++;
    const w = 1 / r.targets.length;
    for (const t of r.targets) {
      if (t.id === from) continue;
      _add(callees, from, t.id, w);
      _add(callers, t.id, from, w);
    }
  }
  return { callees, callers, calleeNames, sites, kept };
});
