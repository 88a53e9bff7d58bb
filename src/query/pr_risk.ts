/**
 * The risk of a change (a branch against its base): five signals, each in 0..1, fused by fixed
 * weights into one score with the reasons behind it (docs/history.md, "Risk of a change").
 *
 * | signal       | weight | score                                                              |
 * |--------------|--------|--------------------------------------------------------------------|
 * | blast_radius | 0.30   | 1 − e^(−5·r), r = files depending on the changed symbols / files     |
 * | complexity   | 0.25   | ln(1 + highest cyclomatic of a changed symbol) / ln(31), at most 1  |
 * | test_gap     | 0.20   | changed symbols no test reaches / changed symbols outside tests     |
 * | churn        | 0.15   | ln(1 + mean commits per changed file in the window) / ln(26), ≤ 1  |
 * | volume       | 0.10   | ln(1 + changed symbols) / ln(61), at most 1                         |
 *
 * The weights and scales are the reference's (so a score means the same), the inputs ours: the
 * dependents of each changed symbol (its callers and the files importing its file, two hops,
 * tests apart) rather than the direct importers of each changed file, and a symbol is tested when
 * a test file reaches it through calls or imports (three hops) rather than imports its file.
 */
import type { SymbolChange } from "./changed_symbols.ts";
import type { FileChange } from "../parser/git/history.ts";
import type { SymbolRecord } from "../parser/types.ts";
import { affectedFiles } from "./impact.ts";
import { fileRole } from "./priors.ts";
import { SYMBOLS } from "./symbols.ts";
import { hotspotScore } from "./hotspots.ts";
import type { RepoView } from "./view.ts";

/** The signals, their weights and how each is scaled (see the module doc). */
export const RISK_WEIGHTS = {
  blast_radius: 0.30,
  complexity: 0.25,
  test_gap: 0.20,
  churn: 0.15,
  volume: 0.10,
} as const;

/** A signal's name. */
export type RiskSignalName = keyof typeof RISK_WEIGHTS;

/** Risk levels by score: low ≤ 0.25, medium ≤ 0.5, high ≤ 0.75, critical above. */
export type RiskLevel = "low" | "medium" | "high" | "critical";

/** One signal of a profile. */
export interface RiskSignal {
  signal: RiskSignalName;
  /** 0..1. */
  score: number;
  weight: number;
  /** score × weight: its part of the risk score. */
  contribution: number;
  /** What it measured, in words. */
  detail: string;
}

/** One changed symbol's part in the risk. */
export interface SymbolRisk {
  change: SymbolChange;
  /** Cyclomatic complexity on the new side (null: removed, or not measured). */
  cyclomatic: number | null;
  /** Files depending on it (callers and importers, two hops), tests left out. */
  dependents: number;
  /** Whether a test reaches it (null: a test itself, or removed). */
  tested: boolean | null;
  /** Commits that changed its file in the window. */
  fileChurn: number;
  /** cyclomatic × ln(1 + file churn), as a hotspot. */
  hotspot: number;
}

/** A change's risk. */
export interface RiskProfile {
  score: number;
  level: RiskLevel;
  signals: RiskSignal[];
  /** Every changed symbol, riskiest first. */
  symbols: SymbolRisk[];
  /** Files depending on the changed symbols (outside the change, tests left out). */
  blastFiles: number;
  reasons: string[];
}

/** What a profile is made of. */
export interface RiskInput {
  changes: readonly SymbolChange[];
  files: readonly FileChange[];
  /** Commits per file in the window, or null without history. */
  churn: ReadonlyMap<string, number> | null;
  days: number;
}

const _round = (x: number) => Math.round(x * 10000) / 10000;
const _clamp = (x: number) => Math.max(0, Math.min(1, x));

/** The level of a score. */
export function riskLevel(score: number): RiskLevel {
  return score <= 0.25 ? "low" : score <= 0.5 ? "medium" : score <= 0.75 ? "high" : "critical";
}

/** The risk profile of a change, read against the view's index (the change's new side). */
export function riskProfile(view: RepoView, input: RiskInput): RiskProfile {
  const changedFiles = new Set(input.files.flatMap((f) => [f.path, f.oldPath]));
  const blast = new Set<string>();
  const symbols = input.changes.map((change) => {
    const r = _symbolRisk(view, change, input.churn);
    for (const f of r.files) if (!changedFiles.has(f)) blast.add(f);
    return r.risk;
  });
  symbols.sort((a, b) =>
    b.hotspot - a.hotspot || b.dependents - a.dependents ||
    (b.cyclomatic ?? 0) - (a.cyclomatic ?? 0)
  );
  const signals = _signals(view, input, symbols, blast.size);
  const score = _round(signals.reduce((sum, s) => sum + s.contribution, 0));
  return {
    score,
    level: riskLevel(score),
    signals,
    symbols,
    blastFiles: blast.size,
    reasons: _reasons(signals, symbols, blast.size, input.days),
  };
}

/** One symbol's complexity, dependents and test reachability. */
function _symbolRisk(
  view: RepoView,
  change: SymbolChange,
  churn: ReadonlyMap<string, number> | null,
): { risk: SymbolRisk; files: string[] } {
  const s = change.symbol;
  // The index holds the new side; a removed symbol is looked up by its old record.
  const indexed: SymbolRecord = view.get(SYMBOLS).byId(s.id) ?? s;
  const isTest = fileRole(s.file) === "test";
  const reached = change.change === "added" ? [] : affectedFiles(view, indexed, 2);
  const files = reached.filter((f) => !f.isTest).map((f) => f.file);
  let tested: boolean | null = null;
  if (!isTest && change.change !== "removed") {
    tested = affectedFiles(view, indexed, 3).some((f) => f.isTest);
  }
  const cyclomatic = change.change === "removed" ? null : s.complexity?.cyclomatic ?? null;
  const fileChurn = churn?.get(s.file) ?? 0;
  return {
    risk: {
      change,
      cyclomatic,
      dependents: files.length,
      tested,
      fileChurn,
      hotspot: cyclomatic === null ? 0 : hotspotScore(cyclomatic, fileChurn),
    },
    files,
  };
}

function _signals(
  view: RepoView,
  input: RiskInput,
  symbols: readonly SymbolRisk[],
  blastFiles: number,
): RiskSignal[] {
  const total = Math.max(1, view.index.fileCount());
  const maxCyclomatic = Math.max(0, ...symbols.map((s) => s.cyclomatic ?? 0));
  const outsideTests = symbols.filter((s) => s.tested !== null);
  const untested = outsideTests.filter((s) => s.tested === false).length;
  const churned = input.files.map((f) => input.churn?.get(f.path) ?? 0);
  const meanChurn = churned.length === 0 ? 0 : churned.reduce((a, b) => a + b, 0) / churned.length;
  const scores: [RiskSignalName, number, string][] = [
    [
      "blast_radius",
      1 - Math.exp(-5 * blastFiles / total),
      `${blastFiles} of ${total} files depend on the changed symbols`,
    ],
    [
      "complexity",
      Math.log1p(maxCyclomatic) / Math.log1p(30),
      `highest cyclomatic complexity of a changed symbol: ${maxCyclomatic}`,
    ],
    [
      "test_gap",
      outsideTests.length === 0 ? 0 : untested / outsideTests.length,
      `${untested} of ${outsideTests.length} changed symbols outside tests are reached by no test`,
    ],
    [
      "churn",
      Math.log1p(meanChurn) / Math.log1p(25),
      input.churn === null
        ? "no history: churn not measured"
        : `${_round(meanChurn)} commits per changed file in the last ${input.days} days`,
    ],
    [
      "volume",
      Math.log1p(symbols.length) / Math.log1p(60),
      `${symbols.length} symbols in ${input.files.length} files changed`,
    ],
  ];
  return scores.map(([signal, raw, detail]) => {
    const score = _round(_clamp(raw));
    const weight = RISK_WEIGHTS[signal];
    return { signal, score, weight, contribution: _round(score * weight), detail };
  });
}

/** The reasons: the signals that weigh, in words, with the symbols behind them. */
function _reasons(
  signals: readonly RiskSignal[],
  symbols: readonly SymbolRisk[],
  blastFiles: number,
  days: number,
): string[] {
  const by = (name: RiskSignalName) => signals.find((s) => s.signal === name)!.score;
  const names = (list: readonly SymbolRisk[]) =>
    list.slice(0, 3).map((s) => s.change.symbol.name).join(", ");
  const reasons: string[] = [];
  const signatures = symbols.filter((s) => s.change.signatureChanged && s.dependents > 0);
  if (signatures.length > 0) {
    reasons.push(
      `${signatures.length} changed signature(s) with dependents (${
        names(signatures)
      }): check their callers`,
    );
  }
  if (by("blast_radius") > 0.5) {
    reasons.push(`High blast radius: ${blastFiles} files depend on the changed code`);
  }
  const complex = symbols.filter((s) => (s.cyclomatic ?? 0) > 10);
  if (complex.length > 0) {
    reasons.push(`${complex.length} changed function(s) of cyclomatic > 10 (${names(complex)})`);
  }
  const untested = symbols.filter((s) => s.tested === false);
  if (untested.length > 0 && by("test_gap") > 0.5) {
    reasons.push(`${untested.length} changed symbol(s) no test reaches (${names(untested)})`);
  }
  if (by("churn") > 0.5) {
    reasons.push(`Volatile files: often changed in the last ${days} days`);
  }
  if (reasons.length === 0) reasons.push("No signal stands out: a routine review");
  return reasons;
}
