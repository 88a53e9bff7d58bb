/**
 * Hotspots, the method of Adam Tornhill's "Your Code as a Crime Scene" as the reference scores
 * it: code that is both complex and often changed. Score = cyclomatic × ln(1 + commits that
 * changed the symbol's file in the window); functions and methods only, the stored complexity
 * read without parsing.
 */
import { type MeasuredSymbol, measuredSymbols } from "./complexity.ts";
import type { RepoView } from "./view.ts";

/** A hotspot's assessment: low (score ≤ 3), medium (≤ 10), high (> 10). */
export type HotspotAssessment = "low" | "medium" | "high";

/** A measured symbol with its file's churn and its hotspot score. */
export interface Hotspot extends MeasuredSymbol {
  /** Commits that changed its file in the window. */
  churn: number;
  /** cyclomatic × ln(1 + churn), 4 decimals. */
  score: number;
  assessment: HotspotAssessment;
}

/** The hotspot score of a complexity and a churn. */
export function hotspotScore(cyclomatic: number, churn: number): number {
  return Math.round(cyclomatic * Math.log1p(churn) * 10000) / 10000;
}

/** The assessment of a hotspot score. */
export function hotspotAssessment(score: number): HotspotAssessment {
  return score > 10 ? "high" : score > 3 ? "medium" : "low";
}

/**
 * Every measured symbol of at least `minComplexity`, by score (then complexity, then id), with
 * its file's churn (`churn` null: no history, every score 0 and the ranking by complexity).
 */
export function hotspots(
  view: RepoView,
  churn: ReadonlyMap<string, number> | null,
  minComplexity: number,
): Hotspot[] {
  const out: Hotspot[] = [];
  for (const m of measuredSymbols(view)) {
    if (m.cyclomatic < minComplexity) continue;
    const commits = churn?.get(m.file) ?? 0;
    const score = hotspotScore(m.cyclomatic, commits);
    out.push({ ...m, churn: commits, score, assessment: hotspotAssessment(score) });
  }
  return out.sort((a, b) =>
    b.score - a.score || b.cyclomatic - a.cyclomatic || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}
