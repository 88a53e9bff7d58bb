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
      if (caller !== null && caller.id === target.id && r.targets.length > 1) continue;
      hit.push({
        symbol: caller,
        file: site.file,
        callLine: site.line,
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
      const targets = [...r.targets].sort((a, b) =>
        byCodePoint(a.file, b.file) || a.line - b.line
      ).slice(0, MAX_CANDIDATES);
      for (const t of targets) {
        hit.push({
          symbol: t,
          file: site.file,
          callLine: site.line,
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
    const nodes: WalkNode[] = [];
    const seen = new Set<string>([start.id]);
    let frontier: SymbolRecord[] = [start];
    let depthReached = 0;
    for (let depth = 1; depth <= maxDepth && frontier.length > 0; depth++) {
      const next: SymbolRecord[] = [];
      for (const node of frontier) {
        const edges = direction === "callers" ? this.callers(node) : this.callees(node);
        for (const e of edges) {
          if (e.resolution === "by_name" && e.candidates > byNameLimit) continue;
          const key = e.symbol?.id ?? `${e.file}::`;
          if (seen.has(key)) continue;
          seen.add(key);
          if (nodes.length >= maxNodes) return { nodes, depthReached, truncated: true };
          nodes.push({ ...e, depth, from: node.id });
          depthReached = depth;
          if (e.symbol !== null) next.push(e.symbol);
        }
      }
      frontier = next;
    }
    return { nodes, depthReached, truncated: false };
  }
}

/** The call graph of a view. */
export const CALL_GRAPH = facet("call-graph", (v) => new CallGraph(v));
