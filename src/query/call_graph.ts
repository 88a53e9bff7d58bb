/**
 * The call graph and its reverse, resolved on demand from the stored call sites (each with its
 * enclosing symbol) through the {@linkcode NameResolver}: who calls a symbol, what it calls, and
 * breadth-first walks over either. Answers are memoized per index state.
 */
import type { SymbolRecord } from "../parser/types.ts";
import type { StoredCall } from "../store/repo_index.ts";
import { byCodePoint } from "./import_graph.ts";
import { NAME_RESOLVER, type Resolution } from "./resolve_names.ts";
import { SYMBOLS } from "./symbols.ts";
import { facet, type RepoView } from "./view.ts";
import { breadthFirst, type Hop } from "./walk.ts";

/** Most candidates an ambiguous call lists (the total is in `candidates`). */
export const MAX_CANDIDATES = 8;

/** One call edge: a call site and the symbol at the other end. */
export interface CallEdge {
  /** The symbol at the other end (the caller, or the callee), or null for a file-level caller. */
  symbol: SymbolRecord | null;
  /** The file of the call site. */
  file: string;
  /** The line of the call site. */
  callLine: number;
  /** The receiver written at the call (`self`, `pkg`, `a.b`), or null for a bare call. */
  receiver: string | null;
  resolution: Resolution;
  /** How many definitions the call could reach (1 when resolved or unique). */
  candidates: number;
}

/** A node reached by a walk, at its first depth. */
export interface WalkNode extends CallEdge {
  depth: number;
  /** Id of the node it was reached from (the walk's start at depth 1). */
  from: string;
}

/** The resolved call graph of one index state. */
export class CallGraph {
  readonly #view: RepoView;
  readonly #sitesByName = new Map<string, StoredCall[]>();
  readonly #sitesOfFile = new Map<string, StoredCall[]>();
  readonly #callers = new Map<string, CallEdge[]>();
  readonly #callees = new Map<string, CallEdge[]>();

  constructor(view: RepoView) {
    this.#view = view;
  }

  /** Call sites whose callee is written `name`. */
  sitesNamed(name: string): StoredCall[] {
    let hit = this.#sitesByName.get(name);
    if (hit === undefined) {
      hit = this.#view.index.filesCalling(name).flatMap((f) =>
        this.sitesOf(f).filter((s) => s.callee === name)
      );
      this.#sitesByName.set(name, hit);
    }
    return hit;
  }

  /** The call sites of a file, in source order (parsed once per index state). */
  sitesOf(file: string): StoredCall[] {
    let hit = this.#sitesOfFile.get(file);
    if (hit === undefined) {
      hit = this.#view.index.callsInFile(file);
      this.#sitesOfFile.set(file, hit);
    }
    return hit;
  }

  /** The call sites that may call `target`, with their enclosing symbols, by file and line. */
  callers(target: SymbolRecord): CallEdge[] {
    let hit = this.#callers.get(target.id);
    if (hit !== undefined) return hit;
    const resolver = this.#view.get(NAME_RESOLVER);
    const symbols = this.#view.get(SYMBOLS);
    hit = [];
    for (const site of this.sitesNamed(target.name)) {
      const r = resolver.resolveCall(site);
      if (r === null || !r.targets.some((t) => t.id === target.id)) continue;
      const caller = site.caller === null ? null : symbols.byId(site.caller) ?? null;
      hit.push({
        symbol: caller,
        file: site.file,
        callLine: site.line,
        receiver: site.receiver,
        resolution: r.resolution,
        candidates: r.targets.length,
      });
    }
    this.#callers.set(target.id, hit);
    return hit;
  }

  /** What `source` calls: one edge per call site and target (ambiguous calls list candidates). */
  callees(source: SymbolRecord): CallEdge[] {
    let hit = this.#callees.get(source.id);
    if (hit !== undefined) return hit;
    const resolver = this.#view.get(NAME_RESOLVER);
    hit = [];
    for (const site of this.#view.index.callsFrom(source.id)) {
      const r = resolver.resolveCall(site);
      if (r === null) continue;
      const targets = [...r.targets].sort((a, b) => byCodePoint(a.file, b.file) || a.line - b.line)
        .slice(0, MAX_CANDIDATES);
      for (const t of targets) {
        hit.push({
          symbol: t,
          file: site.file,
          callLine: site.line,
          receiver: site.receiver,
          resolution: r.resolution,
          candidates: r.targets.length,
        });
      }
    }
    this.#callees.set(source.id, hit);
    return hit;
  }

  /**
   * Breadth-first walk from `start` over callers or callees, each symbol once at its first depth,
   * stopping at `maxDepth` or after `maxNodes` nodes (then `truncated`). `byNameLimit` skips
   * edges whose call matched more than that many definitions by name alone (they would flood a
   * transitive walk with guesses).
   */
  walk(
    start: SymbolRecord,
    direction: "callers" | "callees",
    maxDepth: number,
    maxNodes: number,
    byNameLimit = Infinity,
  ): { nodes: WalkNode[]; depthReached: number; truncated: boolean } {
    const walk = breadthFirst<SymbolRecord | null, CallEdge>(start, start.id, (node) => {
      if (node === null) return [];
      const edges = direction === "callers" ? this.callers(node) : this.callees(node);
      return edges.filter((e) => e.resolution !== "by_name" || e.candidates <= byNameLimit)
        .map((e) => callHop(e));
    }, { maxDepth, maxNodes });
    return {
      nodes: walk.visits.map((v) => ({ ...v.edge, depth: v.depth, from: v.from!.id })),
      depthReached: walk.depthReached,
      truncated: walk.truncated,
    };
  }
}

/**
 * A call edge as a step of a walk: its symbol, or for a file-level caller the file (listed, not
 * followed).
 */
export function callHop(e: CallEdge): Hop<SymbolRecord | null, CallEdge> {
  return e.symbol === null
    ? { node: null, key: `${e.file}::`, edge: e, follow: false }
    : { node: e.symbol, key: e.symbol.id, edge: e };
}

/** The call graph of a view. */
export const CALL_GRAPH = facet("call-graph", (v) => new CallGraph(v));
