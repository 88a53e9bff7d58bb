/**
 * Symbols related to one (`get_related_symbols`), each with the evidence and a score that sums
 * its signals:
 *
 * | reason            | weight                                                              |
 * | ----------------- | ------------------------------------------------------------------- |
 * | `same_file`       | 3 (the reference's weight)                                          |
 * | `same_class`      | 1 more: members of the same class                                   |
 * | `calls_it` / `called_by_it` | 2: a resolved call between the two                        |
 * | `shared_callers`  | 1 per caller of the symbol that also calls it (at most 5)           |
 * | `shared_callees`  | 0.5 per callee both call that at most 50 symbols call (at most 5)   |
 * | `co_changed`      | 3 × the share of the symbol's file's commits that changed its file too |
 * | `name`            | 0.5 per identifier part both names share (the reference's weight)   |
 *
 * Calls are those of {@linkcode CALL_EDGES}; co-change comes from the git history of a window
 * when there is one. Imports are no candidates.
 */
import type { GitHistory } from "../parser/git/history.ts";
import type { SymbolRecord } from "../parser/types.ts";
import { splitIdentifier } from "../store/fts_text.ts";
import { CALL_EDGES } from "./call_edges.ts";
import { SYMBOL_BRIEFS, type SymbolBrief } from "./files.ts";
import { SYMBOL_PARENTS } from "./importance.ts";
import { BRIEFS_BY_FILE } from "./page_rank.ts";
import { facet, type RepoView } from "./view.ts";

/** The weight of each signal (see the module doc). */
export const RELATED_WEIGHTS = {
  same_file: 3,
  same_class: 1,
  direct_call: 2,
  shared_caller: 1,
  shared_callee: 0.5,
  co_changed: 3,
  name_part: 0.5,
} as const;

const _MAX_SHARED = 5;
/** A callee called by more symbols than this says nothing about its callers (`len`, `fmt.Sprintf`). */
const _MAX_SHARED_CALLEE_CALLERS = 50;
/** A name part borne by more symbols than this only adds to candidates found otherwise. */
const _MAX_NAME_PART_SYMBOLS = 2000;

/** One related symbol. */
export interface Relation {
  symbol: SymbolBrief;
  score: number;
  /** Its evidence, strongest signal kinds first: `same_file`, `shared_callers:2`, `name:user`. */
  reasons: string[];
}

/** Commits of a window that changed a file, and how many of them changed each other file. */
export interface CoChange {
  commits: number;
  withFile: Map<string, number>;
}

/** Symbols by identifier part (lower case), for the name signal. */
const _BY_NAME_PART = facet("related-name-parts", (view): Map<string, SymbolBrief[]> => {
  const out = new Map<string, SymbolBrief[]>();
  for (const s of view.get(SYMBOL_BRIEFS)) {
    if (s.kind === "import") continue;
    for (const part of new Set(splitIdentifier(s.name))) {
      if (part.length < 2) continue;
      let list = out.get(part);
      if (list === undefined) out.set(part, list = []);
      list.push(s);
    }
  }
  return out;
});

const _BRIEF_BY_ID = facet(
  "related-briefs-by-id",
  (view) => new Map(view.get(SYMBOL_BRIEFS).map((s) => [s.id, s])),
);

/**
 * The commits in the window from `head` back to `sinceSeconds` that changed `file`, and for each
 * other file how many of those changed it too (merges and a shallow boundary left out, as churn
 * counts them).
 */
export function coChangeOf(
  history: GitHistory,
  head: string,
  sinceSeconds: number,
  file: string,
): CoChange {
  const walk = history.walk(head, { since: sinceSeconds, max: history.limits.maxCommits });
  const withFile = new Map<string, number>();
  let commits = 0;
  for (const c of walk.commits) {
    if (c.parents.length > 1 || history.isShallowBoundary(c.id)) continue;
    const paths = history.commitPaths(c.id);
    if (!paths.includes(file)) continue;
    commits++;
    for (const p of new Set(paths)) if (p !== file) withFile.set(p, (withFile.get(p) ?? 0) + 1);
  }
  return { commits, withFile };
}

class _Scores {
  readonly #scores = new Map<string, { score: number; reasons: Map<string, string> }>();
  add(id: string, weight: number, kind: string, label: string): void {
    let s = this.#scores.get(id);
    if (s === undefined) this.#scores.set(id, s = { score: 0, reasons: new Map() });
    s.score += weight;
    s.reasons.set(kind, label);
  }
  entries() {
    return this.#scores;
  }
}

function _graphSignals(view: RepoView, target: SymbolRecord, scores: _Scores): void {
  const edges = view.get(CALL_EDGES);
  const callees = edges.callees.get(target.id) ?? new Map<string, number>();
  const callers = edges.callers.get(target.id) ?? new Map<string, number>();
  for (const id of callees.keys()) {
    scores.add(id, RELATED_WEIGHTS.direct_call, "called", "called_by_it");
  }
  for (const id of callers.keys()) scores.add(id, RELATED_WEIGHTS.direct_call, "calls", "calls_it");
  const sharedCallers = new Map<string, number>();
  for (const caller of callers.keys()) {
    for (const sibling of edges.callees.get(caller)?.keys() ?? []) {
      sharedCallers.set(sibling, (sharedCallers.get(sibling) ?? 0) + 1);
    }
  }
  for (const [id, n] of sharedCallers) {
    const k = Math.min(n, _MAX_SHARED);
    scores.add(id, k * RELATED_WEIGHTS.shared_caller, "shared_callers", `shared_callers:${n}`);
  }
  const sharedCallees = new Map<string, number>();
  for (const callee of callees.keys()) {
    const others = edges.callers.get(callee);
    if (others === undefined || others.size > _MAX_SHARED_CALLEE_CALLERS) continue;
    for (const id of others.keys()) sharedCallees.set(id, (sharedCallees.get(id) ?? 0) + 1);
  }
  for (const [id, n] of sharedCallees) {
    const k = Math.min(n, _MAX_SHARED);
    scores.add(id, k * RELATED_WEIGHTS.shared_callee, "shared_callees", `shared_callees:${n}`);
  }
}

function _placeSignals(
  view: RepoView,
  target: SymbolRecord,
  coChange: CoChange | null,
  scores: _Scores,
): void {
  const byFile = view.get(BRIEFS_BY_FILE);
  const parents = view.get(SYMBOL_PARENTS);
  const parent = parents.get(target.id);
  for (const s of byFile.get(target.file) ?? []) {
    if (s.kind === "import") continue;
    scores.add(s.id, RELATED_WEIGHTS.same_file, "same_file", "same_file");
    if (parent !== undefined && parents.get(s.id) === parent) {
      scores.add(s.id, RELATED_WEIGHTS.same_class, "same_class", "same_class");
    }
  }
  if (coChange === null || coChange.commits === 0) return;
  for (const [file, n] of coChange.withFile) {
    const w = RELATED_WEIGHTS.co_changed * n / coChange.commits;
    for (const s of byFile.get(file) ?? []) {
      if (s.kind !== "import") {
        scores.add(s.id, w, "co_changed", `co_changed:${n}/${coChange.commits}`);
      }
    }
  }
}

function _nameSignals(view: RepoView, target: SymbolRecord, scores: _Scores): void {
  const parts = [...new Set(splitIdentifier(target.name))].filter((p) => p.length >= 2);
  if (parts.length === 0) return;
  const byPart = view.get(_BY_NAME_PART);
  const shared = new Map<string, string[]>();
  for (const part of parts) {
    const list = byPart.get(part) ?? [];
    const common = list.length > _MAX_NAME_PART_SYMBOLS;
    for (const s of list) {
      if (common && !scores.entries().has(s.id) && !shared.has(s.id)) continue;
      let got = shared.get(s.id);
      if (got === undefined) shared.set(s.id, got = []);
      got.push(part);
    }
  }
  for (const [id, got] of shared) {
    scores.add(id, got.length * RELATED_WEIGHTS.name_part, "name", `name:${got.join("+")}`);
  }
}

const _REASON_ORDER = [
  "same_file",
  "same_class",
  "calls",
  "called",
  "shared_callers",
  "shared_callees",
  "co_changed",
  "name",
];

/**
 * The symbols related to `target`, highest score first (ties by id), every one scored (the
 * caller cuts the list).
 */
export function relatedSymbols(
  view: RepoView,
  target: SymbolRecord,
  coChange: CoChange | null,
): Relation[] {
  const scores = new _Scores();
  _graphSignals(view, target, scores);
  _placeSignals(view, target, coChange, scores);
  _nameSignals(view, target, scores);
  const briefs = view.get(_BRIEF_BY_ID);
  const out: Relation[] = [];
  for (const [id, s] of scores.entries()) {
    const symbol = briefs.get(id);
    if (id === target.id || symbol === undefined || symbol.kind === "import") continue;
    const reasons = _REASON_ORDER.filter((k) => s.reasons.has(k)).map((k) => s.reasons.get(k)!);
    out.push({ symbol, score: Math.round(s.score * 1000) / 1000, reasons });
  }
  return out.sort((a, b) =>
    b.score - a.score || (a.symbol.id < b.symbol.id ? -1 : a.symbol.id > b.symbol.id ? 1 : 0)
  );
}
