/**
 * Context for a task (`get_ranked_context`): the source of the symbols a natural-language task
 * most likely needs, best first, packed by value into a token budget that is never exceeded.
 *
 * 1. **Text candidates**: the best symbols of {@linkcode rankSymbolHits} for the task text: the
 *    first {@linkcode TEXT_CANDIDATES}, and down to the {@linkcode WIDE_CANDIDATES}th the matches
 *    in a file holding at least {@linkcode FOCUS_FILE_SHARE} of the 20 best matches' score (a
 *    task's code sits mostly in one file, `file_focus.ts`).
 * 2. **Body words** (a task described in several words): the symbols whose own lines hold several
 *    of its words (`body_matches.ts`); a match gains their weight (`body words +x`) times its
 *    file's prior, another enters with it.
 * 3. **Graph neighbours** of the best five candidates (`graph_neighbours.ts`): a neighbour that is
 *    not a text match enters at {@linkcode NEIGHBOUR_ENTRY} of its seed's score; one that is gains
 *    0.15 of its seed's score.
 * 4. **File focus**: every candidate in a file where the best matches concentrate gains.
 * 5. **Graph entry** (`graph_spread.ts`): the best candidates spread a share of their score over
 *    what they call and, for a class, its members; a symbol no word found enters with what it
 *    gathered.
 * 6. **Learned re-ranking** (a described task): the 50 best candidates re-ordered, all but the
 *    first, by the logistic model of `learned_rank.ts` (`learned relevance x` in `why`).
 * 7. **Packing by value** (`context_pack.ts`): a relevance floor, places before depth, long
 *    symbols as outlines.
 */
import { CENTRALITY } from "./centrality.ts";
import { CALL_COVERAGE, DATA_KIND_WEIGHT, isProseQuery, rankSymbolHits } from "./symbol_rank.ts";
import { bodyMatches } from "./body_matches.ts";
import { callWordMatches } from "./call_words.ts";
import { globMatcher } from "./glob.ts";
import { fileFocus, fileShares } from "./file_focus.ts";
import { FILE_PRIORS } from "./file_priors.ts";
import { asksForContent, contentWeight, ROLE_WEIGHT } from "./priors.ts";
import { NEIGHBOUR_SEEDS, neighbourBonuses, seedNeighbours } from "./graph_neighbours.ts";
import {
  type ContextCandidate,
  FULL_SHARE,
  packContext,
  type PackedContext,
  RELEVANCE_FLOOR,
} from "./context_pack.ts";
import { SPREAD_SEEDS, SPREAD_SHARE, spreadOverGraph } from "./graph_spread.ts";
import type { RepoView } from "./view.ts";
import {
  CONTEXT_MODEL,
  nameCoverTerms,
  rerank,
  type RerankItem,
  rerankItem,
  type RerankModel,
} from "./learned_rank.ts";
import { meaningfulQuery, PROJECT_WORDS } from "./query_words.ts";
import { OWNER_SHARE } from "./owner_groups.ts";

export type { ContextCandidate, ContextItem } from "./context_pack.ts";

/** How candidates are scored. */
export type ContextStrategy = "combined" | "bm25" | "centrality";

/** What to pack. */
export interface ContextQuery {
  query: string;
  tokenBudget: number;
  strategy: ContextStrategy;
  kinds?: readonly string[] | undefined;
  scope?: string | undefined;
  /** Per-file freshness (`_freshness` of each item, counted in its tokens). */
  freshness?: ((file: string) => string | null) | undefined;
  /**
   * The model that re-orders a described task's best candidates (`learned_rank.ts`; default
   * {@linkcode CONTEXT_MODEL}); `null` keeps the order of the stages before it (to fit the model).
   */
  model?: RerankModel | null | undefined;
  /** Other values of the fitted constants (the fitting script tries them; tools never pass it). */
  tuning?: Partial<ContextTuning> | undefined;
}

/**
 * The constants of the context's stages that are fitted with each corpus of the retrieval bench
 * left out in turn (`deno task bench fit-context`).
 */
export interface ContextTuning {
  /** {@linkcode RELEVANCE_FLOOR} of `context_pack.ts`. */
  relevanceFloor: number;
  /** {@linkcode FULL_SHARE} of `context_pack.ts`. */
  fullShare: number;
  /** {@linkcode SPREAD_SHARE} of `graph_spread.ts` (0: no graph entry). */
  spreadShare: number;
  /** {@linkcode SPREAD_SEEDS} of `graph_spread.ts`. */
  spreadSeeds: number;
  /** {@linkcode OWNER_SHARE} of `owner_groups.ts` (0: no owner groups), for the text candidates. */
  ownerShare: number;
  /** `DATA_KIND_WEIGHT` of `symbol_rank.ts`, for the text candidates. */
  dataKindWeight: number;
  /** {@linkcode TEXT_CANDIDATES}. */
  textCandidates: number;
  /** {@linkcode WIDE_CANDIDATES}. */
  wideCandidates: number;
  /** {@linkcode FOCUS_FILE_SHARE}. */
  focusFileShare: number;
  /** {@linkcode CALLS_WEIGHT} (0: no call-word stage). */
  callsWeight: number;
  /** `CALL_COVERAGE` of `symbol_rank.ts`, for `search_symbols` (the fit reads it). */
  callCoverage: number;
  /** {@linkcode CONTEXT_CALL_COVERAGE}: `CALL_COVERAGE` for the context's text candidates. */
  contextCallCoverage: number;
  /** {@linkcode SIBLING_SHARE} (0: no same-file neighbours). */
  siblingShare: number;
  /** {@linkcode SIBLING_SPAN}. */
  siblingSpan: number;
}

/** Text matches always considered. */
export const TEXT_CANDIDATES = 40;
/** How deep the ranking is read for the matches of a focus file. */
export const WIDE_CANDIDATES = 200;
/** The share of the 20 best matches' score that makes a file a focus file. */
export const FOCUS_FILE_SHARE = 0.15;

/**
 * What a call-word match (`call_words.ts`: the words of the names a symbol calls) adds to a
 * candidate, or enters with, per unit of its score (times its file's prior). Off: fitted over 0,
 * 0.25, 0.5, 1 and 2 with each tuning corpus left out (`deno task bench fit-context --grid
 * calls`, round 12), 0 was chosen (mean objective 0.712 against 0.710–0.711).
 */
export const CALLS_WEIGHT = 0;

/**
 * Same-file neighbours: each of the {@linkcode SIBLING_SEEDS} best candidates lets the symbols
 * at most {@linkcode SIBLING_SPAN} places before or after it in its file (source order, neither
 * inside it nor holding it) enter with `SIBLING_SHARE · score / (1 + places)`: the code a task
 * needs sits next to the code that names it (a helper below its caller, the other methods of a
 * flow). 0 is off: fitted over 0.1 / 0.2 / 0.4 × ±2 / ±5 (`--grid siblings`, round 12), the best
 * (0.4, ±2) scored 0.713 against 0.712 without (within one question) and moved no held-out figure
 * up, so it stays off.
 */
export const SIBLING_SHARE = 0;
/** How many places around a seed {@linkcode SIBLING_SHARE} reaches. */
export const SIBLING_SPAN = 3;
/** How many of the best candidates are seeds of the same-file neighbours. */
export const SIBLING_SEEDS = 5;

/**
 * `CALL_COVERAGE` of `symbol_rank.ts` for the context's own text candidates; off: 0.5 lowered the
 * tuning objective under every `search_symbols` weight (`--grid callweight`, round 12).
 */
export const CONTEXT_CALL_COVERAGE = 0;

/** The shipped values of {@linkcode ContextTuning}. */
export const CONTEXT_TUNING: Readonly<ContextTuning> = {
  relevanceFloor: RELEVANCE_FLOOR,
  fullShare: FULL_SHARE,
  spreadShare: SPREAD_SHARE,
  spreadSeeds: SPREAD_SEEDS,
  ownerShare: OWNER_SHARE,
  dataKindWeight: DATA_KIND_WEIGHT,
  textCandidates: TEXT_CANDIDATES,
  wideCandidates: WIDE_CANDIDATES,
  focusFileShare: FOCUS_FILE_SHARE,
  callsWeight: CALLS_WEIGHT,
  callCoverage: CALL_COVERAGE,
  contextCallCoverage: CONTEXT_CALL_COVERAGE,
  siblingShare: SIBLING_SHARE,
  siblingSpan: SIBLING_SPAN,
};

/** The packed context. */
export type RankedContext = PackedContext;

/** The share of its seed's score a graph neighbour that is no text match enters with. */
export const NEIGHBOUR_ENTRY = 0.5;

/** Pack the context of a task. */
export function rankedContext(view: RepoView, q: ContextQuery): RankedContext {
  const tuning = { ...CONTEXT_TUNING, ...q.tuning };
  let candidates = contextCandidates(view, q);
  const model = q.model === undefined ? CONTEXT_MODEL : q.model;
  if (model !== null && q.strategy !== "centrality" && isProseQuery(q.query)) {
    const terms = nameCoverTerms(meaningfulQuery(q.query, view.get(PROJECT_WORDS)));
    candidates = rerank(
      candidates.map((c) => ({ c, ...candidateRerankItem(c) })),
      terms,
      model,
      (x, score, p) => {
        x.c.score = score;
        if (p !== undefined) x.c.why = `${x.c.why}, learned relevance ${_round(p)}`;
      },
    ).map((x) => x.c);
  }
  return packContext(view, candidates, q.tokenBudget, {
    freshness: q.freshness ?? (() => null),
    relevanceFloor: tuning.relevanceFloor,
    fullShare: tuning.fullShare,
  });
}

/** A candidate as the learned re-ranking reads it. */
export function candidateRerankItem(c: ContextCandidate): RerankItem {
  return rerankItem(c.symbol, c.score, c.linked === true);
}

/** The candidates of a task's context, best first (stages 1–5 of the module doc). */
export function contextCandidates(view: RepoView, q: ContextQuery): ContextCandidate[] {
  const tuning = { ...CONTEXT_TUNING, ...q.tuning };
  const byId = new Map<string, ContextCandidate>();
  const kinds = q.kinds === undefined || q.kinds.length === 0 ? null : new Set(q.kinds);
  const consider = (c: ContextCandidate) => {
    if (c.symbol.kind === "import") return;
    if (kinds !== null && !kinds.has(c.symbol.kind)) return;
    const had = byId.get(c.symbol.id);
    if (had === undefined || had.score < c.score) byId.set(c.symbol.id, c);
  };
  _textCandidates(view, q, tuning, consider);
  if (q.strategy !== "centrality" && isProseQuery(q.query)) {
    _bodyCandidates(view, q, byId, consider);
    if (tuning.callsWeight > 0) _callCandidates(view, q, tuning.callsWeight, byId, consider);
  }
  const ranked = [...byId.values()].sort(_byScore);
  _neighbours(view, ranked.slice(0, NEIGHBOUR_SEEDS), byId, consider);
  if (q.strategy !== "centrality" && tuning.siblingShare > 0) {
    _siblings(view, ranked.slice(0, SIBLING_SEEDS), tuning, consider);
  }
  if (q.strategy !== "centrality") {
    const focusOf = fileFocus(ranked.map((c) => ({ file: c.symbol.file, score: c.score })));
    for (const c of byId.values()) {
      const add = focusOf(c.symbol.file);
      if (add <= 0) continue;
      c.score += add;
      c.why = `${c.why}, file focus +${_round(add)}`;
    }
    _graphEntry(view, [...byId.values()].sort(_byScore), tuning, consider);
  }
  return [...byId.values()].sort(_byScore);
}

/** Stage 5: symbols no word found that the best candidates call or hold (`graph_spread.ts`). */
function _graphEntry(
  view: RepoView,
  ranked: readonly ContextCandidate[],
  tuning: ContextTuning,
  consider: (c: ContextCandidate) => void,
): void {
  if (tuning.spreadShare <= 0) return;
  const found = new Set(ranked.map((c) => c.symbol.id));
  const seeds = ranked.slice(0, tuning.spreadSeeds);
  for (const [id, hit] of spreadOverGraph(view, seeds, tuning.spreadShare)) {
    if (found.has(id)) continue;
    consider({
      symbol: hit.symbol,
      score: hit.gain,
      why: `graph ${_round(hit.gain)} (${hit.why})`,
      linked: true,
    });
  }
}

/** Stage 1: the text matches, with why each was chosen. */
function _textCandidates(
  view: RepoView,
  q: ContextQuery,
  tuning: ContextTuning,
  consider: (c: ContextCandidate) => void,
): void {
  const centrality = view.get(CENTRALITY);
  const ranking = rankSymbolHits(view, {
    query: q.query,
    maxResults: tuning.wideCandidates,
    filePattern: q.scope,
    sortBy: q.strategy === "centrality" ? "centrality" : "relevance",
    // The neighbour bonus is applied below, on this tool's own scores.
    neighbourBonus: false,
    tuning: {
      ownerShare: tuning.ownerShare,
      dataKindWeight: tuning.dataKindWeight,
      callCoverage: tuning.contextCallCoverage,
    },
  });
  // Below the first TEXT_CANDIDATES, only the matches of a focus file (file_focus.ts says why).
  const shareOf = fileShares(ranking.hits.map((h) => ({ file: h.symbol.file, score: h.score })));
  for (const [rank, h] of ranking.hits.entries()) {
    if (rank >= tuning.textCandidates && shareOf(h.symbol.file) < tuning.focusFileShare) continue;
    const lexical = q.strategy === "centrality" ? 0 : h.lexical * h.role;
    const central = q.strategy === "bm25" ? 0 : h.centrality;
    const score = q.strategy === "centrality" ? centrality.of(h.symbol.id) : lexical + central;
    const why = [
      lexical > 0 ? `text relevance ${_round(lexical)}` : "",
      central > 0 ? `centrality +${_round(central)}` : "",
      h.role < 1 ? `prior ×${_round(h.role)}` : "",
    ].filter((x) => x !== "").join(", ");
    consider({ symbol: h.symbol, score, why: why === "" ? "name match" : why });
  }
}

/** Stage 2: symbols whose own lines hold several words of the task. */
function _bodyCandidates(
  view: RepoView,
  q: ContextQuery,
  byId: Map<string, ContextCandidate>,
  consider: (c: ContextCandidate) => void,
): void {
  const priors = view.get(FILE_PRIORS);
  const asked = asksForContent(q.query);
  const scoped = q.scope === undefined ? {} : { keepFile: globMatcher(q.scope) };
  for (const m of bodyMatches(view, q.query, scoped)) {
    const prior = priors.byPath(m.file);
    const add = m.score * ROLE_WEIGHT[prior.role] * contentWeight(prior.content, asked);
    const had = byId.get(m.id);
    if (had !== undefined) {
      had.score += add;
      had.why = `${had.why}, body words +${_round(add)}`;
      continue;
    }
    const symbol = view.index.symbol(m.id);
    if (symbol !== undefined) consider({ symbol, score: add, why: `body words ${_round(add)}` });
  }
}

/** Stage 2b: symbols whose calls name the task's words (`call_words.ts`). */
function _callCandidates(
  view: RepoView,
  q: ContextQuery,
  weight: number,
  byId: Map<string, ContextCandidate>,
  consider: (c: ContextCandidate) => void,
): void {
  const priors = view.get(FILE_PRIORS);
  const asked = asksForContent(q.query);
  const keep = q.scope === undefined ? () => true : globMatcher(q.scope);
  for (const m of callWordMatches(view, q.query)) {
    const symbol = view.index.symbol(m.id);
    if (symbol === undefined || !keep(symbol.file)) continue;
    const prior = priors.byPath(symbol.file);
    const add = weight * m.score * ROLE_WEIGHT[prior.role] * contentWeight(prior.content, asked);
    const had = byId.get(m.id);
    if (had !== undefined) {
      had.score += add;
      had.why = `${had.why}, call words +${_round(add)}`;
      continue;
    }
    consider({ symbol, score: add, why: `call words ${_round(add)} (${m.terms.join(" ")})` });
  }
}

/** Stage 3b: the symbols next to the best few in their files ({@linkcode SIBLING_SHARE}). */
function _siblings(
  view: RepoView,
  seeds: readonly ContextCandidate[],
  tuning: ContextTuning,
  consider: (c: ContextCandidate) => void,
): void {
  const spansOf = new Map<string, { id: string; line: number; end_line: number }[]>();
  for (const seed of seeds) {
    const file = seed.symbol.file;
    let spans = spansOf.get(file);
    if (spans === undefined) spansOf.set(file, spans = view.index.symbolSpans(file));
    const at = spans.findIndex((x) => x.id === seed.symbol.id);
    if (at === -1) continue;
    const me = spans[at]!;
    const outside = spans.filter((x, i) =>
      i === at ||
      !((x.line >= me.line && x.end_line <= me.end_line) ||
        (x.line <= me.line && x.end_line >= me.end_line))
    );
    const mine = outside.findIndex((x) => x.id === me.id);
    for (let d = 1; d <= tuning.siblingSpan; d++) {
      for (const i of [mine - d, mine + d]) {
        const x = outside[i];
        if (x === undefined) continue;
        const symbol = view.index.symbol(x.id);
        if (symbol === undefined) continue;
        const score = tuning.siblingShare * seed.score / (1 + d);
        consider({ symbol, score, why: `next to ${seed.symbol.name} ${_round(score)}` });
      }
    }
  }
}

/** Stage 3: what the best few call, and what calls them. */
function _neighbours(
  view: RepoView,
  seeds: readonly ContextCandidate[],
  byId: Map<string, ContextCandidate>,
  consider: (c: ContextCandidate) => void,
): void {
  const textMatches = new Set(byId.keys());
  for (const seed of seeds) {
    const score = seed.score * NEIGHBOUR_ENTRY;
    for (const n of seedNeighbours(view, seed.symbol)) {
      if (!textMatches.has(n.symbol.id)) {
        consider({ symbol: n.symbol, score, why: n.why, linked: true });
      }
    }
  }
  // Text matches that neighbour a seed gain a share of its score (read before any bonus).
  for (const [id, b] of neighbourBonuses(view, seeds, (id) => textMatches.has(id))) {
    const c = byId.get(id)!;
    c.score += b.add;
    c.linked = true;
    c.why = `${c.why}, ${b.why} +${_round(b.add)}`;
  }
}

function _byScore(a: ContextCandidate, b: ContextCandidate): number {
  return b.score - a.score || (a.symbol.id < b.symbol.id ? -1 : 1);
}

function _round(x: number): number {
  return Math.round(x * 100) / 100;
}
