/**
 * What a change to a symbol reaches: the files importing its file (transitively, re-exports
 * followed) and whether they name it, and the symbols calling it (transitively), ranked by
 * distance and centrality (how many files import a file), tests apart.
 */
import type { SymbolRecord } from "../parser/types.ts";
import { CALL_GRAPH, MAX_CANDIDATES, type WalkNode } from "./call_graph.ts";
import { byCodePoint, IMPORT_GRAPH, importersByDepth, type ImportGraph } from "./import_graph.ts";
import { fileRole } from "./priors.ts";
import type { RepoView } from "./view.ts";

/** A file affected by a change. */
export interface AffectedFile {
  file: string;
  /** Import hops from the symbol's file (0: calls it without importing it, e.g. same package). */
  depth: number;
  /** Whole-word occurrences of the symbol's name in the file. */
  references: number;
  /** Files importing this file directly (its centrality). */
  importers: number;
  isTest: boolean;
}

/** The centrality of a file: how many files import it directly. */
export function fileCentrality(graph: ImportGraph, file: string): number {
  return graph.importerFiles(file).length;
}

function _wordCount(text: string, name: string): number {
  const re = new RegExp(
    `(?<![\\p{L}\\p{N}_$])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}_$])`,
    "gu",
  );
  return text.match(re)?.length ?? 0;
}

/**
 * The files a change to `symbol` may affect: importers up to `depth` hops with the number of
 * times they name it, plus files that call it without importing its file (its own package).
 * Ranked by depth, then centrality, then path.
 */
export function affectedFiles(view: RepoView, symbol: SymbolRecord, depth: number): AffectedFile[] {
  const graph = view.get(IMPORT_GRAPH);
  const dist = importersByDepth(graph, symbol.file, depth);
  for (const e of view.get(CALL_GRAPH).callers(symbol)) {
    if (e.file !== symbol.file && !dist.has(e.file) && e.resolution === "resolved") {
      dist.set(e.file, 0);
    }
  }
  const out: AffectedFile[] = [];
  for (const [file, d] of dist) {
    out.push({
      file,
      depth: d,
      references: _wordCount(view.index.fileText(file) ?? "", symbol.name),
      importers: fileCentrality(graph, file),
      isTest: fileRole(file) === "test",
    });
  }
  return out.sort((a, b) =>
    a.depth - b.depth || b.importers - a.importers || b.references - a.references ||
    byCodePoint(a.file, b.file)
  );
}

/** A symbol reached by walking callers, with its file's centrality. */
export interface AffectedSymbol extends WalkNode {
  importers: number;
  isTest: boolean;
}

/**
 * The symbols calling `symbol`, transitively up to `depth` levels (calls matching more than
 * MAX_CANDIDATES definitions by name are not followed), at most `maxNodes`; ranked by depth, then
 * the centrality of their file, then id.
 */
export function affectedSymbols(
  view: RepoView,
  symbol: SymbolRecord,
  depth: number,
  maxNodes: number,
): { symbols: AffectedSymbol[]; truncated: boolean; depthReached: number } {
  const graph = view.get(IMPORT_GRAPH);
  const walk = view.get(CALL_GRAPH).walk(symbol, "callers", depth, maxNodes, MAX_CANDIDATES);
  const symbols = walk.nodes.map((n) => ({
    ...n,
    importers: fileCentrality(graph, n.file),
    isTest: fileRole(n.file) === "test",
  }));
  symbols.sort((a, b) =>
    a.depth - b.depth || b.importers - a.importers ||
    byCodePoint(a.symbol?.id ?? a.file, b.symbol?.id ?? b.file) || a.callLine - b.callLine
  );
  return { symbols, truncated: walk.truncated, depthReached: walk.depthReached };
}

/** The reference's risk score: Σ over hops d of (files at d × d^-0.7) / all importers. */
export function riskScore(files: readonly AffectedFile[]): number {
  const importers = files.filter((f) => f.depth > 0);
  if (importers.length === 0) return 0;
  let sum = 0;
  for (const f of importers) sum += Math.pow(f.depth, -0.7);
  return Math.round((sum / importers.length) * 10000) / 10000;
}
