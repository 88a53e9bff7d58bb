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
import {
  isProseQuery,
  RANK_TUNING,
  rankSymbolHits,
  type RankTuning,
  rankTuningOf,
} from "./symbol_rank.ts";
import { bodyMatches } from "./body_matches.ts";
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
export interface ContextTuning extends RankTuning {
  /** {@linkcode RELEVANCE_FLOOR} of `context_pack.ts`. */
  relevanceFloor: number;
  /** {@linkcode FULL_SHARE} of `context_pack.ts`. */
  fullShare: number;
  /** {@linkcode SPREAD_SHARE} of `graph_spread.ts` (0: no graph entry). */
  spreadShare: number;
  /** {@linkcode SPREAD_SEEDS} of `graph_spread.ts`. */
  spreadSeeds: number;
  /** {@linkcode TEXT_CANDIDATES}. */
  textCandidates: number;
  /** {@linkcode WIDE_CANDIDATES}. */
  wideCandidates: number;
  /** {@linkcode FOCUS_FILE_SHARE}. */
  focusFileShare: number;
}

/** Text matches always considered. */
export const TEXT_CANDIDATES = 40;
/** How deep the ranking is read for the matches of a focus file. */
export const WIDE_CANDIDATES = 200;
/** The share of the 20 best matches' score that makes a file a focus file. */
export const FOCUS_FILE_SHARE = 0.15;

/** The shipped values of {@linkcode ContextTuning}. */
export const CONTEXT_TUNING: Readonly<ContextTuning> = {
  relevanceFloor: RELEVANCE_FLOOR,
  fullShare: FULL_SHARE,
  spreadShare: SPREAD_SHARE,
  spreadSeeds: SPREAD_SEEDS,
  ...RANK_TUNING,
  textCandidates: TEXT_CANDIDATES,
  wideCandidates: WIDE_CANDIDATES,
  focusFileShare: FOCUS_FILE_SHARE,
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
  }
  const ranked = [...byId.values()].sort(_byScore);
  _neighbours(view, ranked.slice(0, NEIGHBOUR_SEEDS), byId, consider);
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
    tuning: rankTuningOf(tuning),
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
