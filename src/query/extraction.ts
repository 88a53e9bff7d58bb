/**
 * Functions worth splitting: complex (cyclomatic at least a threshold, from the complexity the
 * index stored) and either shared (called from several files, so a split pays off for every
 * caller) or deeply nested (the nesting a split flattens). Each with the reasons and a score:
 * cyclomatic × (1 + ln(1 + caller files)) × (1 + max(0, nesting − 2) / 2), plus a tenth of its
 * lines beyond 50 (long functions first among equals).
 */
import { CALL_GRAPH } from "./call_graph.ts";
import { type MeasuredSymbol, measuredSymbols } from "./complexity.ts";
import { SYMBOLS } from "./symbols.ts";
import type { RepoView } from "./view.ts";

/** Calls matching more definitions by name than this are not counted as callers. */
const _MAX_BY_NAME = 3;
/** Nesting from which a function is "deeply nested". */
export const DEEP_NESTING = 4;
/** Lines from which a function is "long". */
export const LONG_LINES = 60;

/** One candidate. */
export interface ExtractionCandidate {
  symbol: MeasuredSymbol;
  /** Distinct calling symbols (or files, for file-level calls). */
  callers: number;
  /** Distinct files calling it, its own aside. */
  callerFiles: number;
  score: number;
  reasons: string[];
}

/** Options of {@linkcode extractionCandidates}. */
export interface ExtractionOptions {
  /** Only this file's functions (else every measured one). */
  file: string | undefined;
  minComplexity: number;
  /** Least caller files for the "shared" reason. */
  minCallers: number;
}

/** The candidates, best first (score, then file and line). */
export function extractionCandidates(
  view: RepoView,
  options: ExtractionOptions,
): { candidates: ExtractionCandidate[]; measured: number } {
  const all = measuredSymbols(view).filter((m) =>
    options.file === undefined || m.file === options.file
  );
  const calls = view.get(CALL_GRAPH);
  const symbols = view.get(SYMBOLS);
  const out: ExtractionCandidate[] = [];
  for (const m of all) {
    if (m.cyclomatic < options.minComplexity) continue;
    const record = symbols.byId(m.id);
    if (record === undefined) continue;
    const edges = calls.callers(record).filter((e) =>
      e.resolution !== "by_name" || e.candidates <= _MAX_BY_NAME
    );
    const callers = new Set(edges.map((e) => e.symbol?.id ?? `${e.file}::`)).size;
    const callerFiles = new Set(edges.map((e) => e.file).filter((f) => f !== m.file)).size;
    const shared = callerFiles >= options.minCallers;
    const nested = m.max_nesting >= DEEP_NESTING;
    if (!shared && !nested) continue;
    const reasons = [`complex (cyclomatic ${m.cyclomatic})`];
    if (shared) reasons.push(`shared (called from ${callerFiles} files)`);
    if (nested) reasons.push(`nested (depth ${m.max_nesting})`);
    if (m.lines >= LONG_LINES) reasons.push(`long (${m.lines} lines)`);
    const score = m.cyclomatic * (1 + Math.log(1 + callerFiles)) *
        (1 + Math.max(0, m.max_nesting - 2) / 2) + Math.max(0, m.lines - 50) / 10;
    out.push({ symbol: m, callers, callerFiles, score: Math.round(score * 100) / 100, reasons });
  }
  out.sort((a, b) =>
    b.score - a.score ||
    (a.symbol.file < b.symbol.file ? -1 : a.symbol.file > b.symbol.file ? 1 : 0) ||
    a.symbol.line - b.symbol.line
  );
  return { candidates: out, measured: all.length };
}
