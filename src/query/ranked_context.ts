/**
 * Context for a task (`get_ranked_context`): the source of the symbols a natural-language task
 * most likely needs, best first, packed into a token budget that is never exceeded.
 *
 * 1. Candidates: the best symbols of {@linkcode rankSymbolHits} for the task text (BM25 over
 *    names, signatures, docstrings with the identity bonus, the file-role prior and centrality):
 *    the first 40, and down to the 200th the matches in a file holding at least 15% of the 20
 *    best matches' score (a task's code sits mostly in one file, `file_focus.ts`).
 *    A task described in several words adds the symbols whose own lines hold several of its
 *    words (`body_matches.ts`; a match gains their weight, `body words +x`).
 * 2. Graph neighbours of the best five candidates (`graph_neighbours.ts`: resolved calls only,
 *    what a seed calls, and what calls it when at most 3 symbols do — the callers of a symbol
 *    called from everywhere say nothing about the task and would fill the budget), with the
 *    reason. A neighbour that is not a text match enters at half its seed's score; one
 *    that is gains 0.15 of its seed's score on top of its own (the code a task needs is
 *    connected: a match that the best matches call, or that calls them, is more likely part of it
 *    than an isolated one).
 * 3. A described task's best 50 candidates are re-ordered by the learned model of
 *    `learned_rank.ts` (its estimate is in `why`: `learned relevance x`); the first stays first.
 * 4. Packing, best score first, as many symbols of a file as score high enough (what a task
 *    needs usually sits together, in a file or two: neither a per-file cap nor a decay of later
 *    picks from a file — `perFile` sets a cap, from which the ten best text matches are exempt);
 *    a symbol inside one already packed is skipped (its source is there); a symbol whose source
 *    does not fit is cut to its signature and docstring (marked `cut`) when that fits.
 *    Tokens are estimated as UTF-8 bytes / 4 of each item as returned (its JSON), the estimate
 *    `_meta` uses; the items' sum never exceeds the budget.
 */
import type { SymbolKind, SymbolRecord } from "../parser/types.ts";
import { CENTRALITY } from "./centrality.ts";
import { estimateTokens } from "./budget.ts";
import { isProseQuery, meaningfulQuery, rankSymbolHits } from "./symbol_rank.ts";
import {
  CONTEXT_MODEL,
  nameCoverTerms,
  rerank,
  type RerankItem,
  rerankItem,
  type RerankModel,
} from "./learned_rank.ts";
import { bodyMatches } from "./body_matches.ts";
import { roleWeight } from "./priors.ts";
import { globMatcher } from "./glob.ts";
import { fileFocus, fileShares } from "./file_focus.ts";
import { NEIGHBOUR_SEEDS, neighbourBonuses, seedNeighbours } from "./graph_neighbours.ts";
import type { RepoView } from "./view.ts";

/** How candidates are scored. */
export type ContextStrategy = "combined" | "bm25" | "centrality";

/** What to pack. */
export interface ContextQuery {
  query: string;
  tokenBudget: number;
  strategy: ContextStrategy;
  kinds?: readonly string[] | undefined;
  scope?: string | undefined;
  /** Most symbols taken from one file (no cap by default; the ten best text matches are exempt). */
  perFile?: number | undefined;
  /** Per-file freshness (`_freshness` of each item, counted in its tokens). */
  freshness?: ((file: string) => string | null) | undefined;
  /**
   * The model that re-orders a described task's best candidates (`learned_rank.ts`; default
   * {@linkcode CONTEXT_MODEL}); `null` keeps the hand-made order (to fit the model).
   */
  model?: RerankModel | null | undefined;
}

/** One packed symbol. */
export interface ContextItem {
  symbol_id: string;
  name: string;
  kind: SymbolKind;
  file: string;
  line: number;
  end_line: number;
  score: number;
  /** Why it was chosen: text relevance, centrality, a graph neighbour of a chosen symbol. */
  why: string;
  /** True when only the signature and docstring are given (the source did not fit). */
  cut: boolean;
  tokens: number;
  source: string;
  _freshness?: string;
}

/** The packed context. */
export interface RankedContext {
  items: ContextItem[];
  totalTokens: number;
  considered: number;
  /** Candidates left out for lack of budget. */
  leftOut: number;
}

const _CANDIDATES = 40;
/** Fewer tokens than any item takes (its keys alone are about 110 bytes of JSON). */
const _SMALLEST_ITEM = 24;
/** How deep the ranking is read for the matches of a focus file. */
const _WIDE_CANDIDATES = 200;
/** The share of the 20 best matches' score that makes a file a focus file. */
const _FOCUS_FILE_SHARE = 0.15;
const _NEIGHBOUR_FACTOR = 0.5;

/** A candidate of the context, before packing. */
export interface ContextCandidate {
  symbol: SymbolRecord;
  score: number;
  why: string;
  /** One of the ten best text matches: packed whatever the per-file cap. */
  core?: boolean;
  /** A call-graph neighbour of one of the best candidates (it entered or gained as one). */
  linked?: boolean;
}

/** Pack the context of a task. */
export function rankedContext(view: RepoView, q: ContextQuery): RankedContext {
  let candidates = contextCandidates(view, q);
  const model = q.model === undefined ? CONTEXT_MODEL : q.model;
  if (model !== null && q.strategy !== "centrality" && isProseQuery(q.query)) {
    candidates = rerank(
      candidates.map((c) => ({ c, ...candidateRerankItem(c) })),
      nameCoverTerms(meaningfulQuery(q.query)),
      model,
      (x, score, p) => {
        x.c.score = score;
        if (p !== undefined) x.c.why = `${x.c.why}, learned relevance ${_round(p)}`;
      },
    ).map((x) => x.c);
  }
  const perFile = q.perFile ?? Infinity;
  return _pack(view, candidates, q.tokenBudget, perFile, q.freshness ?? (() => null));
}

/** A candidate as the learned re-ranking reads it. */
export function candidateRerankItem(c: ContextCandidate): RerankItem {
  return rerankItem(c.symbol, c.score, c.linked === true);
}

/**
 * The candidates of a task's context, best first by the hand-made score (steps 1 and 2 of the
 * module doc and the file focus), before the learned re-ordering and packing.
 */
export function contextCandidates(view: RepoView, q: ContextQuery): ContextCandidate[] {
  const kinds = q.kinds === undefined || q.kinds.length === 0 ? null : new Set(q.kinds);
  const centrality = view.get(CENTRALITY);
  const ranking = rankSymbolHits(view, {
    query: q.query,
    maxResults: _WIDE_CANDIDATES,
    filePattern: q.scope,
    sortBy: q.strategy === "centrality" ? "centrality" : "relevance",
    // The neighbour bonus is applied below, on this tool's own scores.
    neighbourBonus: false,
  });
  const byId = new Map<string, ContextCandidate>();
  const consider = (c: ContextCandidate) => {
    if (c.symbol.kind === "import") return;
    if (kinds !== null && !kinds.has(c.symbol.kind)) return;
    const had = byId.get(c.symbol.id);
    if (had === undefined || had.score < c.score) byId.set(c.symbol.id, c);
  };
  // Below the first _CANDIDATES, only the matches of a focus file are taken: one that holds at
  // least _FOCUS_FILE_SHARE of the score of the 20 best (file_focus.ts says why).
  const shareOf = fileShares(ranking.hits.map((h) => ({ file: h.symbol.file, score: h.score })));
  for (const [rank, h] of ranking.hits.entries()) {
    if (rank >= _CANDIDATES && shareOf(h.symbol.file) < _FOCUS_FILE_SHARE) continue;
    const lexical = q.strategy === "centrality" ? 0 : h.lexical * h.role;
    const central = q.strategy === "bm25" ? 0 : h.centrality;
    const score = q.strategy === "centrality" ? centrality.of(h.symbol.id) : lexical + central;
    const why = [
      lexical > 0 ? `text relevance ${_round(lexical)}` : "",
      central > 0 ? `centrality +${_round(central)}` : "",
      h.role < 1 ? `file role ×${h.role}` : "",
    ].filter((x) => x !== "").join(", ");
    consider({ symbol: h.symbol, score, why: why === "" ? "name match" : why });
  }
  // Symbols whose own lines hold several words of a described task (body_matches.ts): a match
  // gains, a new one enters, with the words' weight times its file's role.
  if (q.strategy !== "centrality" && isProseQuery(q.query)) {
    const scoped = q.scope === undefined ? {} : { keepFile: globMatcher(q.scope) };
    for (const m of bodyMatches(view, q.query, scoped)) {
      const add = m.score * roleWeight(m.file);
      const had = byId.get(m.id);
      if (had !== undefined) {
        had.score += add;
        had.why = `${had.why}, body words +${_round(add)}`;
        continue;
      }
      const symbol = view.index.symbol(m.id);
      if (symbol === undefined) continue;
      consider({ symbol, score: add, why: `body words ${_round(add)}` });
    }
  }
  // What the best few call, and what calls them.
  const ranked = [...byId.values()].sort(_byScore);
  const focusOf = q.strategy === "centrality"
    ? () => 0
    : fileFocus(ranked.map((c) => ({ file: c.symbol.file, score: c.score })));
  for (const c of ranked.slice(0, 10)) c.core = true;
  const seeds = ranked.slice(0, NEIGHBOUR_SEEDS);
  const textMatches = new Set(byId.keys());
  for (const seed of seeds) {
    const score = seed.score * _NEIGHBOUR_FACTOR;
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
  // Every candidate in a file where the best matches concentrate gains (file_focus.ts).
  for (const c of byId.values()) {
    const add = focusOf(c.symbol.file);
    if (add <= 0) continue;
    c.score += add;
    c.why = `${c.why}, file focus +${_round(add)}`;
  }
  return [...byId.values()].sort(_byScore);
}

function _byScore(a: ContextCandidate, b: ContextCandidate): number {
  return b.score - a.score || (a.symbol.id < b.symbol.id ? -1 : 1);
}

function _round(x: number): number {
  return Math.round(x * 100) / 100;
}

function _pack(
  view: RepoView,
  candidates: ContextCandidate[],
  budget: number,
  perFile: number,
  freshness: (file: string) => string | null,
): RankedContext {
  const picksOfFile = new Map<string, number>();
  const items: ContextItem[] = [];
  let total = 0;
  let leftOut = 0;
  for (let k = 0; k < candidates.length; k++) {
    const c = candidates[k]!;
    const s = c.symbol;
    const picks = picksOfFile.get(s.file) ?? 0;
    if (picks >= perFile && c.core !== true) continue;
    if (
      items.some((i) => !i.cut && i.file === s.file && i.line <= s.line && s.end_line <= i.end_line)
    ) {
      continue; // its source is inside an item already packed
    }
    const contains = items.some((i) =>
      i.file === s.file && s.line <= i.line && i.end_line <= s.end_line
    );
    const fresh = freshness(s.file);
    // Its source alone (UTF-8 bytes / 4) is over what is left: only the cut form can fit.
    const fits = !contains && s.byte_length / 4 <= budget - total;
    const full = fits ? _item(s, c, view.index.symbolSource(s.id) ?? "", false, fresh) : null;
    const item = full !== null && total + full.tokens <= budget
      ? full
      : _fitsCut(s, c, budget - total, fresh);
    if (item === null) {
      leftOut++;
      // Nothing fits in what is left: the rest are left out too.
      if (budget - total < _SMALLEST_ITEM) {
        leftOut += candidates.length - 1 - k;
        break;
      }
      continue;
    }
    items.push(item);
    total += item.tokens;
    picksOfFile.set(s.file, picks + 1);
  }
  return { items, totalTokens: total, considered: candidates.length, leftOut };
}

/** An item with its token count (the estimate of the item as returned). */
function _item(
  s: SymbolRecord,
  c: ContextCandidate,
  source: string,
  cut: boolean,
  fresh: string | null,
): ContextItem {
  const item: ContextItem = {
    symbol_id: s.id,
    name: s.name,
    kind: s.kind,
    file: s.file,
    line: s.line,
    end_line: s.end_line,
    score: _round(c.score),
    why: c.why,
    cut,
    tokens: 0,
    source,
  };
  if (fresh !== null) item._freshness = fresh;
  // The count is part of the item: settle it at a fixed point (one more digit at most).
  item.tokens = estimateTokens(item);
  item.tokens = estimateTokens(item);
  return item;
}

/** The signature-and-docstring form of a symbol, if it fits in `room` tokens. */
function _fitsCut(
  s: SymbolRecord,
  c: ContextCandidate,
  room: number,
  fresh: string | null,
): ContextItem | null {
  const doc = s.docstring === "" ? "" : `\n${_docComment(s.docstring)}`;
  const item = _item(s, c, `${s.signature}${doc}\n…`, true, fresh);
  if (item.tokens <= room) return item;
  const bare = _item(s, c, `${s.signature}\n…`, true, fresh);
  return bare.tokens <= room ? bare : null;
}

function _docComment(doc: string): string {
  const lines = doc.split("\n");
  const kept = lines.slice(0, 12).join("\n");
  return kept.length > 1200 ? kept.slice(0, 1200) + " …" : kept;
}
