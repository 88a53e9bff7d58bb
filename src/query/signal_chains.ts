/**
 * Signal chains (`get_signal_chains`): what each entry point of `gateways.ts` reaches through the
 * call graph — one breadth-first walk over callees from its handler (a class-based handler's
 * methods are its first hop) — and which entry points reach a given symbol.
 */
import type { SymbolRecord } from "../parser/types.ts";
import { CALL_GRAPH, type CallEdge, callHop, type WalkNode } from "./call_graph.ts";
import type { Gateway } from "./gateways.ts";
import { SYMBOLS } from "./symbols.ts";
import type { RepoView } from "./view.ts";
import { breadthFirst, type Hop } from "./walk.ts";

/** Most symbols one chain walks. */
export const MAX_CHAIN_NODES = 500;
/** A call matched by name to more definitions than this is not followed (it would be a guess). */
export const CHAIN_BY_NAME_LIMIT = 2;

/** What a gateway's handler reaches. */
export interface ChainTrace {
  nodes: WalkNode[];
  depthReached: number;
  truncated: boolean;
}

/** The id a chain row names its gateway by: the handler's id, or `file:line` for an inline one. */
export function gatewayId(g: Gateway): string {
  return g.symbol?.id ?? `${g.file}:${g.line}`;
}

/**
 * The symbols a gateway's handler reaches within `maxDepth` calls, each once at its shortest
 * depth (at most {@linkcode MAX_CHAIN_NODES}); a class handler (Django's `View.as_view()`)
 * reaches its methods first.
 */
export function traceGateway(view: RepoView, g: Gateway, maxDepth: number): ChainTrace {
  if (g.symbol === null) return { nodes: [], depthReached: 0, truncated: false };
  const graph = view.get(CALL_GRAPH);
  const table = view.get(SYMBOLS);
  const handler = g.symbol;
  const step = (node: SymbolRecord | null): Hop<SymbolRecord | null, CallEdge>[] => {
    if (node === null) return [];
    if (node === handler && handler.kind === "class") {
      return table.ofFile(handler.file).filter((m) =>
        m.parent === handler.id && m.kind === "method"
      ).map((m) => callHop(_methodEdge(m)));
    }
    return graph.callees(node).filter((e) =>
      e.resolution !== "by_name" || e.candidates <= CHAIN_BY_NAME_LIMIT
    ).map(callHop);
  };
  const walk = breadthFirst(handler, handler.id, step, {
    maxDepth,
    maxNodes: MAX_CHAIN_NODES,
  });
  return {
    nodes: walk.visits.map((v) => ({ ...v.edge, depth: v.depth, from: v.from!.id })),
    depthReached: walk.depthReached,
    truncated: walk.truncated,
  };
}

/** A class handler's method as the first hop of its chain. */
function _methodEdge(m: SymbolRecord): CallEdge {
  return {
    symbol: m,
    file: m.file,
    callLine: m.line,
    receiver: null,
    resolution: "resolved",
    candidates: 1,
  };
}
