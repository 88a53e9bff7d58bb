/**
 * Ranked symbol search (API.md §1.8, §4.2; Part A §7 and §12), shared by `search_symbols` and the
 * context tools: a pipeline of named stages, each its own module.
 *
 * 1. **Words** (`query_words.ts`): question words and the project's own name left out; each
 *    remaining word weighed by its rarity in this repo.
 * 2. **Candidates and text score** (the store's postings, `store/symbol_search.ts`): BM25 over the
 *    symbol's fields — name parts (weight 10), signature (3), docstring (1), summary (1),
 *    keywords (2) — times **coverage**, the rarity-weighted share of the question's words the
 *    symbol (or its file's path, `path_terms.ts`) has; plus the **identity** bonus
 *    (`identity.ts`: the query is the name, spells it, or starts it).
 * 3. **Priors** (`priors.ts`, `file_priors.ts`): the file's role (tests, examples, vendored code
 *    below source) times its content (documents and configuration below code, unless asked
 *    for) times 0.85 for a private name, times {@linkcode DATA_KIND_WEIGHT} for a field, property,
 *    variable or constant in a description; plus the capped **centrality** bonus
 *    (`centrality.ts`). In a description the **owner groups** (`owner_groups.ts`, off as shipped)
 *    can move each match's coverage toward that of its owning type's matches together.
 * 4. **Description stages** (a query of three words of prose or more): the graph-neighbour bonus
 *    (`graph_neighbours.ts`) and the file focus (`file_focus.ts`).
 * 5. **Order and collapse**: score, public before private, id; translated copies of one document
 *    keep only their best file.
 * 6. **Learned re-ranking** (a description): the 50 best are re-ordered, all but the first, by the
 *    logistic model of `learned_rank.ts`.
 *
 * The result is a ranked list (ids with scores) that a later fusion (reciprocal rank, with a
 * semantic ranking) can combine. Fuzzy matches (`fuzzy_hits.ts`) come after it.
 *
 * Cost: candidates are read best BM25 first, in chunks, until none can reach the top any more
 * (its BM25 plus the largest bonuses is below the current last place, every prior being at most 1).
 */
import type { SymbolKind, SymbolRecord } from "../parser/types.ts";
import type { SymbolBriefRecord } from "../store/repo_index.ts";
import { semanticsOf } from "../parser/semantics/mod.ts";
import { languageForPath } from "../parser/registry.ts";
import { B, BM25, countedQueryTerms, K1, type RankedSymbol } from "./bm25.ts";
import { facet, type RepoView } from "./view.ts";
import { PATHS_BY_ID } from "./files.ts";
import { globMatcher } from "./glob.ts";
import {
  asksForContent,
  type ContentKind,
  contentWeight,
  isPrivateName,
  PRIVATE_WEIGHT,
  ROLE_WEIGHT,
} from "./priors.ts";
import { FILE_PRIORS, type FilePrior } from "./file_priors.ts";
import { CENTRALITY, MAX_CENTRALITY_BONUS } from "./centrality.ts";
import { NEIGHBOUR_SEEDS, neighbourBonuses } from "./graph_neighbours.ts";
import { PATH_WORDS, pathTermMasks } from "./path_terms.ts";
import { fileFocus, FOCUS_POOL, FOCUS_WEIGHT } from "./file_focus.ts";
import {
  identityScorer,
  MAX_IDENTITY_BONUS,
  SPELLED_NAME_BONUS,
  spelledNames,
} from "./identity.ts";
import { type FuzzyHit, fuzzyHits, fuzzyScore } from "./fuzzy_hits.ts";
import { isProseQuery, meaningfulQuery, PROJECT_WORDS } from "./query_words.ts";
import { groupCoverage, groupMasks, OWNER_SHARE } from "./owner_groups.ts";
import {
  nameCoverTerms,
  rerank,
  RERANK_DEPTH,
  type RerankItem,
  rerankItem,
  type RerankModel,
  SEARCH_MODEL,
} from "./learned_rank.ts";

export { identityBonus } from "./identity.ts";
export { isProseQuery, meaningfulQuery } from "./query_words.ts";
export type { FuzzyHit } from "./fuzzy_hits.ts";

/** How results are ordered (API.md §1.8 `sort_by`). */
export type SortBy = "relevance" | "centrality" | "combined";

/** What to search for. */
export interface SymbolQuery {
  query: string;
  kind?: SymbolKind | undefined;
  language?: string | undefined;
  filePattern?: string | undefined;
  /** Case-insensitive substring of a decorator. */
  decorator?: string | undefined;
  /** Most lexical hits (and, separately, most fuzzy hits). */
  maxResults: number;
  /** Force the fuzzy pass (it runs anyway when nothing matched). */
  fuzzy?: boolean | undefined;
  fuzzyThreshold?: number | undefined;
  maxEditDistance?: number | undefined;
  sortBy?: SortBy | undefined;
  /**
   * Add the graph-neighbour bonus of `graph_neighbours.ts` to the matches that the five best call
   * or are called by (relevance order only; default true).
   */
  neighbourBonus?: boolean | undefined;
  /**
   * The model that re-orders a description's best matches (`learned_rank.ts`; default
   * {@linkcode SEARCH_MODEL}); `null` keeps the order of the stages before it (to fit the model).
   */
  model?: RerankModel | null | undefined;
  /** Other values of the fitted constants (the fitting script tries them; tools never pass it). */
  tuning?: Partial<RankTuning> | undefined;
}

/** The constants of the ranking fitted on the tuning corpora (`deno task bench fit-retrieval`). */
export interface RankTuning {
  /** {@linkcode OWNER_SHARE} of `owner_groups.ts` (0: no owner groups). */
  ownerShare: number;
  /** {@linkcode DATA_KIND_WEIGHT}: the prior of a data member or binding in a description. */
  dataKindWeight: number;
  /** BM25's term-frequency saturation (`K1` of `bm25.ts`). */
  k1: number;
  /** BM25's length normalisation (`B` of `bm25.ts`). */
  b: number;
  /** {@linkcode ABBREVIATION_WEIGHT}. */
  abbreviations: number;
}

/**
 * The weight of the abbreviations code writes for a question's words (`abbreviations.ts`:
 * `ctx` for "context", `req` for "request"), as extra BM25 phrases whose match also counts toward
 * the word's coverage; 0 is off. Fitted on the tuning corpora (ours) each left out in turn over 0,
 * 0.25, 0.5 and 1 (`deno task bench fit-context --grid abbreviations`, BENCHMARKS.md round 13): 1,
 * mean objective 0.712 → 0.715; held out (looked at once, after the choice) 0.600 → 0.607, every
 * macro figure up (tokio lookup MRR 0.55 → 0.63, pytest task recall 0.54 → 0.56).
 */
export const ABBREVIATION_WEIGHT = 1;

/**
 * The prior of a symbol of a data kind ({@linkcode DATA_KINDS}: a field, property, variable or
 * constant) in a description: a question about how something works is answered by code with a
 * body, and a struct field or a module variable that shares its words crowds it out. Fitted on the
 * tuning corpora (ours) each left out in turn over 1, 0.5, 0.3, 0.2 and 0.1 (`deno task bench
 * fit-context --grid kind`; BENCHMARKS.md, round 11): 0.2, mean objective 0.706 → 0.712.
 */
export const DATA_KIND_WEIGHT = 0.2;

/** The kinds {@linkcode DATA_KIND_WEIGHT} applies to. */
export const DATA_KINDS: ReadonlySet<string> = new Set([
  "field",
  "property",
  "variable",
  "constant",
]);

/** The kind of a symbol id (`file::name#kind~2` → `kind`). */
function _kindOfId(id: string): string {
  const hash = id.lastIndexOf("#");
  return hash < 0 ? "" : id.slice(hash + 1).replace(/~\d+$/, "");
}

/** The shipped values of {@linkcode RankTuning}. */
export const RANK_TUNING: Readonly<RankTuning> = {
  ownerShare: OWNER_SHARE,
  dataKindWeight: DATA_KIND_WEIGHT,
  k1: K1,
  b: B,
  abbreviations: ABBREVIATION_WEIGHT,
};

/** The {@linkcode RankTuning} part of a larger tuning (the context's), set fields only. */
export function rankTuningOf(tuning: Partial<RankTuning>): Partial<RankTuning> {
  const out: Partial<Record<keyof RankTuning, number>> = {};
  for (const key of Object.keys(RANK_TUNING) as (keyof RankTuning)[]) {
    const value = tuning[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** A ranked hit: the full record and how its score was made. */
export interface RankedHit {
  symbol: SymbolRecord;
  score: number;
  /** BM25 times coverage plus the identity bonus, before the priors. */
  lexical: number;
  /** The prior applied: file role × content × private name. */
  role: number;
  /** The centrality bonus added. */
  centrality: number;
  /** The graph-neighbour bonus added (0 when none). */
  graph: number;
  /** The file-focus bonus added (`file_focus.ts`; 0 when none). */
  focus: number;
  /** The learned model's estimate that the hit answers a description (`learned_rank.ts`), 0..1. */
  model?: number;
}

/** A hit as the learned re-ranking reads it (linked: it gained the graph-neighbour bonus). */
export function hitRerankItem(h: RankedHit): RerankItem {
  return rerankItem(h.symbol, h.score, h.graph > 0);
}

/** The outcome of {@linkcode rankSymbolHits}. */
export interface SymbolRanking {
  hits: RankedHit[];
  /** Names spelled like the query, after the hits, each scoring below every hit. */
  fuzzy: (FuzzyHit & { score: number })[];
  /** True when nothing matched the query's words and the fuzzy hits stand in (not asked for). */
  fuzzyFallback: boolean;
  /** Symbols that matched lexically (a lower bound when a filter stopped the count early). */
  matched: number;
}

/** How many of the best matches can gain the graph-neighbour bonus (at least 2 × max_results). */
const _NEIGHBOUR_POOL = 50;

export { SYMBOL_SEARCH } from "./bm25.ts";

/** Whether any indexed path has a space (an id could then contain a query of several words). */
const PATHS_WITH_SPACES = facet(
  "paths-with-spaces",
  (view) => [...view.get(PATHS_BY_ID).values()].some((p) => p.includes(" ")),
);

/**
 * Ids and names of the symbols a search has read, by rowid: later searches of the same index state
 * read only the candidates no earlier one did (at most one entry per symbol).
 */
const NAMES_BY_ROWID = facet(
  "names-by-rowid",
  () => new Map<number, { id: string; name: string }>(),
);

/** The text part of a candidate no word matched (an exact or spelled name). */
const _NO_TEXT = { bm25: 0, cover: 0, mask: 0 };

/** The `k` best scores seen so far; `last()` is the k-th best (−∞ while fewer than k). */
class _TopScores {
  readonly #k: number;
  readonly #scores: number[] = [];

  constructor(k: number) {
    this.#k = k;
  }

  add(score: number): void {
    const a = this.#scores;
    if (a.length === this.#k && score <= a[a.length - 1]!) return;
    let i = a.length;
    while (i > 0 && a[i - 1]! < score) i--;
    a.splice(i, 0, score);
    if (a.length > this.#k) a.pop();
  }

  last(): number {
    return this.#scores.length < this.#k ? -Infinity : this.#scores[this.#k - 1]!;
  }
}

/** A scored candidate. */
interface _Scored {
  id: string;
  name: string;
  file: string;
  rowid: number | null;
  score: number;
  lexical: number;
  /** BM25 alone, its coverage (own, 0..1) and the query words it has (bit mask). */
  bm25: number;
  cover: number;
  mask: number;
  role: number;
  centrality: number;
  graph: number;
  focus: number;
}

function _isPrivate(x: { name: string; file: string }): boolean {
  return isPrivateName(x.name, semanticsOf(languageForPath(x.file)?.id ?? "").privacy);
}

/** Order: score, then public before private, then id. */
function _compare(a: _Scored, b: _Scored): number {
  return b.score - a.score || Number(_isPrivate(a)) - Number(_isPrivate(b)) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Coverage: the share of the query's `terms` counted terms that a symbol has (bit i of `mask` for
 * term i, the first 31), 1 for a query without terms.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { coverageShare } from "./symbol_rank.ts";
 * equal(coverageShare(0b101, 4), 0.5);
 * ```
 */
export function coverageShare(mask: number, terms: number): number {
  if (terms === 0) return 1;
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n / Math.min(31, terms);
}

/**
 * The best `maxResults` symbols for a query, and up to `maxResults` fuzzy hits after them when
 * asked for or when nothing matched. Deterministic for an index state.
 */
export function rankSymbolHits(view: RepoView, q: SymbolQuery): SymbolRanking {
  const run = new _Ranking(view, q);
  const candidates = run.candidates();
  run.scoreCandidates(candidates);
  run.addNamed(candidates);
  if (run.description) run.ownerGroups();
  let ranked = run.ranked();
  if (run.prose && ranked.length > 1) run.descriptionStages(ranked);
  ranked = run.order(ranked);
  let hits = run.hits(ranked);
  hits = run.model !== null ? run.rerank(hits) : hits.slice(0, q.maxResults);
  const fuzzy = q.fuzzy === true || hits.length === 0 ? run.fuzzy(hits) : [];
  return {
    hits,
    fuzzy,
    fuzzyFallback: hits.length === 0 && fuzzy.length > 0 && q.fuzzy !== true,
    matched: run.matched,
  };
}

/** One ranking in progress: the state its stages share. */
class _Ranking {
  readonly view: RepoView;
  readonly q: SymbolQuery;
  readonly query: string;
  readonly meaningful: string;
  readonly sortBy: SortBy;
  readonly prose: boolean;
  /**
   * A description ranked by relevance, with or without the bonuses of `prose` (the context tool
   * adds its own): the owner groups and the data-kind prior apply.
   */
  readonly description: boolean;
  readonly pattern: ((path: string) => boolean) | null;
  readonly decorator: string | undefined;
  readonly filtered: boolean;
  readonly asked: ReadonlySet<ContentKind>;
  readonly priors;
  readonly centrality;
  readonly scored = new Map<string, _Scored>();
  readonly best: _TopScores;
  readonly identity: (s: { id: string; name: string }) => number;
  /** The learned re-ranking of a description, or null. */
  readonly model: RerankModel | null;
  /** How many of the best are ranked exactly (the re-ranking reads its depth). */
  readonly depth: number;
  readonly tuning: RankTuning;
  /** How many query words coverage counts (0 until the candidates are scored). */
  terms = 0;
  readonly #weights = new Map<string, number>();
  readonly #spelled = new Map<number, SymbolBriefRecord>();
  matched = 0;

  constructor(view: RepoView, q: SymbolQuery) {
    this.view = view;
    this.q = q;
    this.query = q.query.trim();
    this.meaningful = meaningfulQuery(this.query, view.get(PROJECT_WORDS));
    this.sortBy = q.sortBy ?? "relevance";
    this.pattern = q.filePattern === undefined ? null : globMatcher(q.filePattern);
    this.decorator = q.decorator?.toLowerCase();
    this.filtered = this.pattern !== null || this.decorator !== undefined;
    this.asked = asksForContent(this.query, q.language);
    this.priors = view.get(FILE_PRIORS);
    this.centrality = view.get(CENTRALITY);
    // A description of several words (prose) gets the file-focus and graph-neighbour bonuses: the
    // focus pool (the FOCUS_POOL best before any bonus) is read whole.
    this.prose = this.sortBy === "relevance" && q.neighbourBonus !== false &&
      isProseQuery(this.query);
    this.description = this.sortBy === "relevance" && isProseQuery(this.query);
    this.model = !this.prose ? null : q.model === undefined ? SEARCH_MODEL : q.model;
    this.depth = this.model !== null ? Math.max(q.maxResults, RERANK_DEPTH) : q.maxResults;
    this.best = new _TopScores(this.prose ? Math.max(this.depth, FOCUS_POOL) : q.maxResults);
    this.identity = identityScorer(this.query);
    this.tuning = { ...RANK_TUNING, ...q.tuning };
  }

  /** Kind, language and file pattern (applied while ranking, in memory). */
  keepPlace(s: Pick<SymbolRecord, "file" | "kind" | "language">): boolean {
    const q = this.q;
    return (this.pattern === null || this.pattern(s.file)) &&
      (q.kind === undefined || s.kind === q.kind) &&
      (q.language === undefined || s.language === q.language);
  }

  /** Every filter, the decorator's too (checked on the records read). */
  keep(s: SymbolBriefRecord): boolean {
    const d = this.decorator;
    return this.keepPlace(s) &&
      (d === undefined || s.decorators.some((x) => x.toLowerCase().includes(d)));
  }

  /** The prior of a file: role × content weight (for what this query asks for). */
  weightOf(prior: FilePrior): number {
    return ROLE_WEIGHT[prior.role] * contentWeight(prior.content, this.asked);
  }

  #weightOfPath(path: string): number {
    let w = this.#weights.get(path);
    if (w === undefined) this.#weights.set(path, w = this.weightOf(this.priors.byPath(path)));
    return w;
  }

  /** Stage 2a: the BM25 candidates, best first. */
  candidates(): RankedSymbol[] {
    const q = this.q;
    const paths = this.view.get(PATHS_BY_ID);
    const pattern = this.pattern;
    const found = this.view.get(BM25).rank(this.meaningful, {
      limit: this.filtered ? 5000 : Math.max(200, q.maxResults * 10),
      k1: this.tuning.k1,
      b: this.tuning.b,
      abbreviations: this.tuning.abbreviations,
      ...(q.kind !== undefined ? { kinds: [q.kind] } : {}),
      ...(q.language !== undefined ? { language: q.language } : {}),
      ...(pattern !== null
        ? {
          keepFile: (id: number) => {
            const path = paths.get(id);
            return path !== undefined && pattern(path);
          },
        }
        : {}),
    }).sort((a, b) => b.score - a.score || a.rowid - b.rowid);
    this.matched = found.length;
    // Names the words of the query spell (`add api route` → add_api_route, addApiRoute), ranked
    // or not: two case-insensitive name lookups.
    for (const name of spelledNames(this.query)) {
      const spelled = this.view.index.namedSymbolBriefs(name, {
        ...(q.kind !== undefined ? { kind: q.kind } : {}),
        ...(q.language !== undefined ? { language: q.language } : {}),
        limit: 50,
      });
      for (const { rowid, symbol } of spelled.hits) this.#spelled.set(rowid, symbol);
    }
    return found;
  }

  /** Add one scored candidate (stage 2b, identity, and stage 3, priors). */
  add(
    s: { id: string; name: string; file: string },
    rowid: number | null,
    text: { bm25: number; cover: number; mask: number },
    w: number,
  ) {
    const kindWeight = this.description && DATA_KINDS.has(_kindOfId(s.id))
      ? this.tuning.dataKindWeight
      : 1;
    const role = (_isPrivate(s) ? w * PRIVATE_WEIGHT : w) * kindWeight;
    const x: _Scored = {
      id: s.id,
      name: s.name,
      file: s.file,
      rowid,
      score: 0,
      lexical: 0,
      ...text,
      role,
      centrality: 0,
      graph: 0,
      focus: 0,
    };
    this.#score(x, text.cover);
    this.scored.set(s.id, x);
    this.best.add(x.score);
  }

  /** Set the text score and the score of `x` for a coverage. */
  #score(x: _Scored, cover: number): void {
    x.lexical = x.bm25 * cover + this.identity(x);
    x.centrality = this.centrality.bonus(x.id);
    x.score = this.sortBy === "relevance"
      ? x.lexical * x.role + x.centrality
      : this.sortBy === "combined"
      ? x.lexical * x.role + x.centrality + 3 * this.centrality.of(x.id)
      : x.lexical * x.role;
  }

  /**
   * Owner groups (`owner_groups.ts`, a description): each match's coverage moves toward that of
   * the matches of its owning type together.
   */
  ownerGroups(): void {
    const share = this.tuning.ownerShare;
    if (share <= 0 || this.terms < 2) return;
    const matches = [...this.scored.values()].filter((x) => x.bm25 > 0);
    const masks = groupMasks(matches);
    for (const x of matches) {
      const group = coverageShare(masks.get(x.id)!, this.terms);
      if (group > x.cover) this.#score(x, groupCoverage(x.cover, group, share));
    }
  }

  /**
   * Stages 2b and 3 over the candidates, best BM25 first, in chunks, until no unread one can reach
   * the top (relevance order without a decorator filter).
   */
  scoreCandidates(candidates: readonly RankedSymbol[]): void {
    const view = this.view;
    const paths = view.get(PATHS_BY_ID);
    const terms = countedQueryTerms(this.meaningful);
    this.terms = terms.length;
    const pathMask = pathTermMasks(view.get(PATH_WORDS), terms);
    // The file weights of a query that asks for no content kind are shared by every search.
    const fileWeight = new Map<number, number>();
    const weightOf = this.asked.size === 0 ? this.priors.weightById : (fileId: number) => {
      let w = fileWeight.get(fileId);
      if (w === undefined) fileWeight.set(fileId, w = this.weightOf(this.priors.byId(fileId)));
      return w;
    };
    // Only a spelled name can get an identity bonus from a query of 2–6 words (a name has no
    // spaces), unless a path has spaces.
    const words = this.query.split(/\s+/).filter((w) => w !== "").length;
    const tight = words >= 2 && words <= 6 && !view.get(PATHS_WITH_SPACES);
    const bonusBound = (rowid: number) =>
      !tight ? MAX_IDENTITY_BONUS : this.#spelled.has(rowid) ? SPELLED_NAME_BONUS : 0;
    const ceiling = (tight && this.#spelled.size === 0 ? 0 : MAX_IDENTITY_BONUS) +
      MAX_CENTRALITY_BONUS;
    const focusSlack = this.prose && candidates.length > 0
      ? FOCUS_WEIGHT * (candidates[0]!.score + MAX_IDENTITY_BONUS + MAX_CENTRALITY_BONUS)
      : 0;
    const prune = this.sortBy === "relevance" && this.decorator === undefined;
    for (let i = 0, chunk = Math.max(16, 2 * this.q.maxResults); i < candidates.length;) {
      if (prune && candidates[i]!.score + ceiling + focusSlack < this.best.last()) break;
      let part = candidates.slice(i, i + chunk);
      i += part.length;
      chunk *= 2;
      if (prune) {
        const last = this.best.last();
        part = part.filter((c) =>
          (c.score + bonusBound(c.rowid)) * weightOf(c.fileId) + MAX_CENTRALITY_BONUS +
              focusSlack >= last
        );
        if (part.length === 0) continue;
      }
      const rowids = part.map((c) => c.rowid);
      // Kind, language and file were checked while ranking: only a decorator filter needs more.
      const briefs = this.decorator === undefined ? null : view.index.symbolBriefsByRowid(rowids);
      const names = briefs ?? this.#namesOf(rowids);
      for (const c of part) {
        const s = names.get(c.rowid);
        const brief = briefs?.get(c.rowid);
        if (s === undefined || (brief !== undefined && !this.keep(brief))) {
          this.matched--;
          continue;
        }
        const mask = c.terms | pathMask(c.fileId);
        const cover = coverageShare(mask, terms.length);
        const file = paths.get(c.fileId) ?? "";
        const text = { bm25: c.score, cover, mask };
        this.add({ id: s.id, name: s.name, file }, c.rowid, text, weightOf(c.fileId));
      }
    }
  }

  #namesOf(rowids: readonly number[]): Map<number, { id: string; name: string }> {
    const known = this.view.get(NAMES_BY_ROWID);
    const missing = rowids.filter((r) => !known.has(r));
    if (missing.length > 0) {
      for (const [r, n] of this.view.index.symbolNamesByRowid(missing)) known.set(r, n);
    }
    return known;
  }

  /**
   * Exact and spelled names BM25 did not rank: their identity bonus is their text score. Exact
   * names are read only when one could make the top (or with a filter, checked on each), and
   * counted only when the count decides `truncated`.
   */
  addNamed(candidates: readonly RankedSymbol[]): void {
    const q = this.q;
    const exclude = candidates.map((c) => c.rowid);
    if (!/\s/.test(this.query)) {
      const relevance = this.sortBy === "relevance";
      const readHits = this.filtered || !relevance ||
        this.best.last() <= MAX_IDENTITY_BONUS + MAX_CENTRALITY_BONUS;
      const readCount = !this.filtered && this.matched <= q.maxResults;
      if (readHits || readCount) {
        const extras = this.view.index.namedSymbolBriefs(this.query, {
          exclude,
          ...(q.kind !== undefined ? { kind: q.kind } : {}),
          ...(q.language !== undefined ? { language: q.language } : {}),
          ...(this.filtered || !relevance ? {} : { limit: readHits ? q.maxResults * 4 : 0 }),
        });
        this.matched += this.filtered ? 0 : extras.count - extras.hits.length;
        for (const { rowid, symbol: s } of extras.hits) {
          if (this.scored.has(s.id) || !this.keep(s)) continue;
          this.add(s, rowid, _NO_TEXT, this.#weightOfPath(s.file));
          this.matched++;
        }
      }
    }
    const ranked = new Set(exclude);
    for (const [rowid, s] of this.#spelled) {
      if (ranked.has(rowid) || this.scored.has(s.id) || !this.keep(s)) continue;
      this.add(s, rowid, _NO_TEXT, this.#weightOfPath(s.file));
      this.matched++;
    }
  }

  /** The scored candidates with a text score, best first. */
  ranked(): _Scored[] {
    return [...this.scored.values()].filter((x) => x.lexical > 0).sort(_compare);
  }

  /**
   * Stage 4: matches connected to the five best gain a share of their score
   * (`graph_neighbours.ts`, only among the best matches), and files where the best matches
   * concentrate lift their matches (`file_focus.ts`), both read on the scores before any bonus.
   */
  descriptionStages(ranked: _Scored[]): void {
    const focusOf = fileFocus(ranked);
    const seeds = ranked.slice(0, NEIGHBOUR_SEEDS).flatMap((x) => {
      const symbol = this.view.index.symbol(x.id);
      return symbol === undefined ? [] : [{ symbol, score: x.score }];
    });
    const pool = new Map(
      ranked.slice(0, Math.max(_NEIGHBOUR_POOL, 2 * this.depth)).map((x) => [x.id, x]),
    );
    for (const [id, b] of neighbourBonuses(this.view, seeds, (id) => pool.has(id))) {
      const x = pool.get(id)!;
      x.score += b.add;
      x.graph = b.add;
    }
    for (const x of ranked) {
      x.focus = focusOf(x.file);
      x.score += x.focus;
    }
  }

  /** Stage 5: the final order, translated copies of a document collapsed to their best file. */
  order(ranked: _Scored[]): _Scored[] {
    const c = this.centrality;
    const sorted = this.sortBy === "centrality"
      ? ranked.sort((a, b) => c.of(b.id) - c.of(a.id) || _compare(a, b))
      : ranked.sort(_compare);
    const chosen = new Map<string, string>();
    return sorted.filter((x) => {
      const family = this.priors.byPath(x.file).family;
      if (family === null) return true;
      const file = chosen.get(family);
      if (file === undefined) chosen.set(family, x.file);
      return file === undefined || file === x.file;
    });
  }

  /** The first `depth` as hits with their full records. */
  hits(ranked: readonly _Scored[]): RankedHit[] {
    const top = ranked.slice(0, this.depth);
    const index = this.view.index;
    const byRowid = index.symbolsByRowid(top.flatMap((x) => x.rowid === null ? [] : [x.rowid]));
    const out: RankedHit[] = [];
    for (const x of top) {
      const s = x.rowid === null ? index.symbol(x.id) : byRowid.get(x.rowid);
      if (s === undefined) continue;
      out.push({
        symbol: s,
        score: x.score,
        lexical: x.lexical,
        role: x.role,
        centrality: x.centrality,
        graph: x.graph,
        focus: x.focus,
      });
    }
    return out;
  }

  /** Stage 6: the learned re-ranking of the best `depth`, then the first `maxResults`. */
  rerank(hits: readonly RankedHit[]): RankedHit[] {
    const items = hits.map((hit) => ({ hit, ...hitRerankItem(hit) }));
    return rerank(items, nameCoverTerms(this.meaningful), this.model!, (x, score, p) => {
      if (p !== undefined) x.hit.model = p;
      x.hit.score = score;
    }).map((x) => x.hit).slice(0, this.q.maxResults);
  }

  /** Names spelled like the query, each scoring below every hit (`fuzzy_hits.ts`). */
  fuzzy(hits: readonly RankedHit[]): SymbolRanking["fuzzy"] {
    const lowest = hits.length === 0 ? undefined : hits[hits.length - 1]!.score;
    return fuzzyHits(this.view, {
      query: this.query,
      maxResults: this.q.maxResults,
      threshold: this.q.fuzzyThreshold,
      maxEdits: this.q.maxEditDistance,
      seen: new Set(hits.map((h) => h.symbol.id)),
      keepPlace: (e) => this.keepPlace(e as Pick<SymbolRecord, "file" | "kind" | "language">),
      keep: (s) => this.keep(s),
      weightOf: (file) => this.#weightOfPath(file),
    }).map((f) => ({ ...f, score: fuzzyScore(f.similarity, lowest) }));
  }
}
