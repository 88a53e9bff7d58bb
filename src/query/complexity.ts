/**
 * Complexity of functions and methods as the index stored it: measured from the tree at index
 * time (`src/parser/complexity/`), read here without parsing anything. One symbol's metrics, every
 * measured symbol of a repo (built once per index state), and whether the index and a language
 * were measured at all — an index written before the metrics existed has none until re-indexed.
 */
import { isGrammarSpec } from "../parser/language_spec.ts";
import { languageById } from "../parser/registry.ts";
import type { SymbolMetricsRow } from "../store/repo_index.ts";
import { facet, type RepoView } from "./view.ts";

/** The first parser version that measured complexity (`src/parser/version.ts`). */
export const COMPLEXITY_SINCE_EXTRACTOR = 11;

/** A measured function or method with its metrics and its length in lines. */
export interface MeasuredSymbol extends SymbolMetricsRow {
  /** `end_line - line + 1`. */
  lines: number;
}

/** How complex a cyclomatic figure is: low 1–4, medium 5–10, high 11+ (as the reference). */
export type ComplexityAssessment = "low" | "medium" | "high";

const _MEASURED = facet(
  "measured-symbols",
  (view): readonly MeasuredSymbol[] =>
    view.index.symbolMetrics().map((r) => ({ ...r, lines: r.end_line - r.line + 1 })),
);

const _BY_ID = facet(
  "measured-symbols-by-id",
  (view) => new Map(view.get(_MEASURED).map((m) => [m.id, m])),
);

/** Every measured function and method of the repo, in file and source order. */
export function measuredSymbols(view: RepoView): readonly MeasuredSymbol[] {
  return view.get(_MEASURED);
}

/** The stored metrics of one symbol, or undefined when it was not measured. */
export function symbolComplexity(view: RepoView, symbolId: string): MeasuredSymbol | undefined {
  return view.get(_BY_ID).get(symbolId);
}

/** Whether the index was written by a parser that measures complexity. */
export function complexityIndexed(view: RepoView): boolean {
  // The stored version alone (`meta()` also counts the rows).
  return Number(view.index.metaValue("extractor_version") ?? "0") >= COMPLEXITY_SINCE_EXTRACTOR;
}

/** Whether a language has complexity rules (its functions are measured). */
export function languageMeasured(language: string): boolean {
  const spec = languageById(language);
  return spec !== undefined && isGrammarSpec(spec) && spec.complexity !== undefined;
}

/** The assessment of a cyclomatic complexity. */
export function complexityAssessment(cyclomatic: number): ComplexityAssessment {
  return cyclomatic <= 4 ? "low" : cyclomatic <= 10 ? "medium" : "high";
}
