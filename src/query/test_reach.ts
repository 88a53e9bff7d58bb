/**
 * What the tests reach through the call graph: from every definition and file-level call of the
 * test files (by file role), a breadth-first walk over resolved callees (and calls matching at most
 * {@linkcode MAX_BY_NAME} definitions by name), a reached class taking its runtime hooks along
 * (its constructor, `__init__`, the language's hook methods). Each reached symbol keeps the test
 * that reached it first. Memoized per index state.
 */
import type { SymbolRecord } from "../parser/types.ts";
import { CALL_GRAPH } from "./call_graph.ts";
import { FILES } from "./files.ts";
import { livenessOf } from "./liveness.ts";
import { fileRole } from "./priors.ts";
import { NAME_RESOLVER } from "./resolve_names.ts";
import { SYMBOLS } from "./symbols.ts";
import { facet, type RepoView } from "./view.ts";

/** Calls that match more definitions than this by name alone are not followed. */
export const MAX_BY_NAME = 3;

/** How a symbol was reached. */
export interface Reach {
  /** The test definition (or a test file's path, for a file-level call) the walk started from. */
  test: string;
  /** Calls from the test to it (0: the test itself). */
  depth: number;
}

/** The test reach of one index state. */
export interface TestReach {
  /** Reached symbols by id. */
  reached: Map<string, Reach>;
  /** Test files. */
  testFiles: Set<string>;
  /** Where the walk started: test definitions and test files with file-level calls. */
  roots: number;
}

const _CALLABLE = new Set(["function", "method", "class", "type"]);

/** The symbols the tests reach (see the module doc). */
export const TEST_REACH = facet("test-reach", (view): TestReach => {
  const symbols = view.get(SYMBOLS);
  const calls = view.get(CALL_GRAPH);
  const resolver = view.get(NAME_RESOLVER);
  const reached = new Map<string, Reach>();
  const testFiles = new Set<string>();
  const queue: SymbolRecord[] = [];
  const reach = (s: SymbolRecord, r: Reach) => {
    if (reached.has(s.id)) return;
    reached.set(s.id, r);
    queue.push(s);
  };
  let roots = 0;
  for (const path of view.get(FILES).keys()) {
    if (fileRole(path) !== "test") continue;
    testFiles.add(path);
    for (const s of symbols.ofFile(path)) {
      if (!_CALLABLE.has(s.kind)) continue;
      roots++;
      reach(s, { test: s.id, depth: 0 });
    }
    // Calls at the top level of a test file (a script-style test) start the walk too.
    const fileLevel = calls.sitesOf(path).filter((c) => c.caller === null);
    if (fileLevel.length > 0) roots++;
    for (const site of fileLevel) {
      const r = resolver.resolveCall(site);
      if (r === null || r.targets.length > MAX_BY_NAME) continue;
      for (const t of r.targets) reach(t, { test: path, depth: 1 });
    }
  }
  for (let i = 0; i < queue.length; i++) {
    const s = queue[i]!;
    const from = reached.get(s.id)!;
    const next = { test: from.test, depth: from.depth + 1 };
    for (const e of calls.callees(s)) {
      if (e.symbol !== null && e.candidates <= MAX_BY_NAME) reach(e.symbol, next);
    }
    if (s.kind === "class" || s.kind === "type") {
      const hooks = livenessOf(s.language).hookMethods;
      for (const m of symbols.ofFile(s.file)) {
        if (m.parent === s.id && (hooks?.test(m.name) ?? false)) reach(m, next);
      }
    }
  }
  return { reached, testFiles, roots };
});

/** The nearest reached caller of an unreached symbol, within `maxDepth` calls up. */
export function nearestTestedCaller(
  view: RepoView,
  s: SymbolRecord,
  maxDepth = 4,
): { caller: SymbolRecord; reach: Reach; distance: number } | null {
  const reach = view.get(TEST_REACH).reached;
  // Up, every call that may reach it counts (a test reaching a caller that may call it).
  const walk = view.get(CALL_GRAPH).walk(s, "callers", maxDepth, 200);
  for (const node of walk.nodes) {
    if (node.symbol === null) continue;
    const r = reach.get(node.symbol.id);
    if (r !== undefined) return { caller: node.symbol, reach: r, distance: node.depth };
  }
  return null;
}
