/**
 * Ranked symbol search (API.md §1.8, §4.2; Part A §7 and §12), shared by `search_symbols` and the
 * context tools.
 *
 * A hit's score is
 * `(bm25 · coverage + identity) · role · private + centrality + neighbour + focus`:
 * - `bm25`: FTS5's BM25 over the symbol's name parts, signature, docstring, summary and keywords
 *   (computed in memory by `store/symbol_search.ts`; words are split at camelCase and snake_case
 *   and Porter-stemmed). Question words (`where`, `how`, `the`, …) are dropped from a query of
 *   several words first. `coverage` is the share of the query's words the symbol matches at all.
 * - `identity`: the query is the name or id (50; 45 ignoring case), spells the name as words
 *   (`solve dependencies` → `solve_dependencies` or `solveDependencies`, 40), is a prefix of the
 *   name (30) or inside the id (20).
 * - `role`: the file-role prior of `priors.ts` (source 1, tests 0.55, vendored 0.4, …);
 *   `private`: 0.85 for a private name.
 * - `centrality`: the capped bonus of `centrality.ts` (files importing or calling the symbol).
 * - `neighbour` (relevance order, a query of three words of prose or more once question words are
 *   left out): 0.15 of the score of the best of the five first hits that the hit is a call-graph
 *   neighbour of (`graph_neighbours.ts`), for the 50 best hits (at least twice `maxResults`): the
 *   code a question is about is connected, an isolated match with the same words less likely part
 *   of it.
 * - `focus` (the same queries): the file-focus bonus of `file_focus.ts`, from the files of the 20
 *   best hits before any bonus: the code a task needs sits mostly in one file.
 *
 * A description's 50 best hits by that score are then re-ordered, all but the first, by the
 * learned model of `learned_rank.ts` (`model` holds its estimate); their scores are rescaled so
 * that they still fall down the list.
 *
 * `coverage` counts a query word as matched when the symbol's file path has it too
 * (`path_terms.ts`: `template/library.py` covers "template" for `Library.filter`).
 *
 * Ties go to public names before private ones (`_helper`, Go's lower-case names), then by id.
 * Fuzzy matches (typos) come after, ranked by edit distance and trigram similarity.
 */
import type { SymbolKind, SymbolRecord } from "../parser/types.ts";
import type { SymbolBriefRecord } from "../store/repo_index.ts";
import { facet, type RepoView } from "./view.ts";
import { PATHS_BY_ID } from "./files.ts";
import { globMatcher } from "./glob.ts";
import { isPrivateName, PRIVATE_WEIGHT, roleWeight } from "./priors.ts";
import { CENTRALITY, MAX_CENTRALITY_BONUS } from "./centrality.ts";
import { fuzzyNames, NAMES, squashName } from "./name_index.ts";
import { NEIGHBOUR_SEEDS, neighbourBonuses } from "./graph_neighbours.ts";
import { countedQueryTerms } from "../store/symbol_search.ts";
import { PATH_WORDS, pathTermMasks } from "./path_terms.ts";
import { fileFocus, FOCUS_POOL, FOCUS_WEIGHT } from "./file_focus.ts";
import {
  nameCoverTerms,
  rerank,
  RERANK_DEPTH,
  type RerankItem,
  rerankItem,
  type RerankModel,
  SEARCH_MODEL,
} from "./learned_rank.ts";

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
   * {@linkcode SEARCH_MODEL}); `null` keeps the hand-made order (to fit the model).
   */
  model?: RerankModel | null | undefined;
}

/** A ranked hit: the full record and how its score was made. */
export interface RankedHit {
  symbol: SymbolRecord;
  score: number;
  /** BM25 plus the identity bonus, before the priors. */
  lexical: number;
  /** The file-role weight applied. */
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

/** A fuzzy hit: the record, its edit distance and trigram similarity. */
export interface FuzzyHit {
  symbol: SymbolRecord;
  distance: number;
  similarity: number;
}

/** The outcome of {@linkcode rankSymbolHits}. */
export interface SymbolRanking {
  hits: RankedHit[];
  fuzzy: FuzzyHit[];
  /** Symbols that matched lexically (a lower bound when a filter stopped the count early). */
  matched: number;
}

/**
 * Bonus for the query being the name or id (50; 45 ignoring case), spelling the name as words
 * (40), a prefix of the name (30), or inside the id (20), all but the first ignoring case.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { identityBonus } from "./symbol_rank.ts";
 * const s = { id: "fastapi/dependencies/utils.py::solve_dependencies#function", name: "solve_dependencies" };
 * equal(identityBonus(s, "solve_dependencies"), 50);
 * equal(identityBonus(s, "solve dependencies"), 40);
 * equal(identityBonus(s, "solve"), 30);
 * ```
 */
export function identityBonus(s: Pick<SymbolRecord, "id" | "name">, query: string): number {
  return identityScorer(query)(s);
}

/**
 * {@linkcode identityBonus} for one query, with what depends on the query alone computed once
 * (a search scores hundreds of candidates).
 */
export function identityScorer(query: string): (s: Pick<SymbolRecord, "id" | "name">) => number {
  const q = query.toLowerCase();
  const words = q.split(/\s+/).filter((w) => w !== "");
  // A query of several words spells a name joined by `_` or run together (the forms the search
  // looks up); one word differs from the name only in separators (`add_api_route` → addApiRoute).
  const joined = words.length >= 2 ? [words.join("_"), words.join("")] : null;
  const sq = joined === null ? squashName(q) : "";
  return (s) => {
    if (s.name === query || s.id === query) return 50;
    const n = s.name.toLowerCase();
    if (n === q || s.id.toLowerCase() === q) return 45;
    if (
      joined !== null ? n === joined[0] || n === joined[1] : sq.length >= 4 && squashName(n) === sq
    ) {
      return 40;
    }
    if (n.startsWith(q)) return 30;
    if (s.id.toLowerCase().includes(q)) return 20;
    return 0;
  };
}

/**
 * How much a symbol that matches only some of the query's words is held back: BM25 is multiplied
 * by (matched words / words) to this power, so that a symbol matching every word of a question
 * weakly beats one matching a single word strongly.
 */
export const COVERAGE_POWER = 1;

/**
 * The graph-neighbour bonus applies to a query of at least this many words of prose (question
 * words left out): a description of several words is about connected code, while a name, a word or
 * two, or a signature asks for one symbol (and stays as fast as the lexical ranking alone).
 */
export const NEIGHBOUR_MIN_WORDS = 3;

/**
 * Whether a query is a description (at least {@linkcode NEIGHBOUR_MIN_WORDS} words of prose once
 * question words are left out), which gets the file-focus and graph-neighbour bonuses.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { isProseQuery } from "./symbol_rank.ts";
 * equal(isProseQuery("how does a form validate its fields"), true);
 * equal(isProseQuery("func (c *Conn) Read"), false);
 * ```
 */
export function isProseQuery(query: string): boolean {
  return _proseWords(meaningfulQuery(query.trim())) >= NEIGHBOUR_MIN_WORDS;
}

/** Words of prose in a query (a signature's `(c` or `*Conn)` is code, not a word). */
function _proseWords(query: string): number {
  return query.split(/\s+/).filter((w) => /^[\p{L}\p{N}_.'’-]+[?!.,;:]*$/u.test(w)).length;
}

/** How many of the best matches can gain the graph-neighbour bonus (at least 2 × max_results). */
const _NEIGHBOUR_POOL = 50;

/** The largest {@linkcode identityBonus}. */
const _MAX_BONUS = 50;

/**
 * Words that say what kind of question it is, not what it is about: left out of a query of
 * several words (all of them stay when nothing else is left).
 */
const _QUESTION_WORDS = new Set(
  ("a an and are as at be by can could do does did for from has have how i if in is it its me " +
    "my of on or our should that the their there these this those to was we what when where " +
    "which who why will with would you your function functions")
    .split(" "),
);

/**
 * The words of a query that carry its meaning: question words dropped from a query of several
 * words (see the list above), the query unchanged otherwise.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { meaningfulQuery } from "./symbol_rank.ts";
 * equal(meaningfulQuery("where are request dependencies resolved"), "request dependencies resolved");
 * equal(meaningfulQuery("the"), "the");
 * ```
 */
export function meaningfulQuery(query: string): string {
  const words = query.trim().split(/\s+/);
  if (words.length < 2) return query.trim();
  const kept = words.filter((w) => !_QUESTION_WORDS.has(w.toLowerCase().replace(/[?.,!]+$/, "")));
  return kept.length === 0 ? query.trim() : kept.join(" ");
}

/** The in-memory BM25 ranking index of a repo's symbols. */
export const SYMBOL_SEARCH = facet("symbol-search", (view) => view.index.symbolSearch());

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

/** The file-role weight of each file id (computed on first use). */
const ROLE_BY_FILE = facet("role-by-file-id", (view) => {
  const paths = view.get(PATHS_BY_ID);
  const memo = new Map<number, number>();
  return (fileId: number): number => {
    let w = memo.get(fileId);
    if (w === undefined) memo.set(fileId, w = roleWeight(paths.get(fileId) ?? ""));
    return w;
  };
});

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

interface _Scored {
  id: string;
  name: string;
  file: string;
  rowid: number | null;
  score: number;
  lexical: number;
  role: number;
  centrality: number;
  graph: number;
  focus: number;
}

function _bits(mask: number): number {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
}

function _isPrivate(x: { name: string; file: string }): boolean {
  return isPrivateName(x.name, x.file.endsWith(".go") ? "go" : "");
}

/** Order: score, then public before private, then id. */
function _compare(a: _Scored, b: _Scored): number {
  return b.score - a.score || Number(_isPrivate(a)) - Number(_isPrivate(b)) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** A hit as the learned re-ranking reads it (linked: it gained the graph-neighbour bonus). */
export function hitRerankItem(h: RankedHit): RerankItem {
  return rerankItem(h.symbol, h.score, h.graph > 0);
}

/**
 * The best `maxResults` symbols for a query, and up to `maxResults` fuzzy hits after them when
 * asked for or when nothing matched. Deterministic for an index state.
 */
export function rankSymbolHits(view: RepoView, q: SymbolQuery): SymbolRanking {
  const index = view.index;
  const query = q.query.trim();
  const meaningful = meaningfulQuery(query);
  const maxResults = q.maxResults;
  const pattern = q.filePattern === undefined ? null : globMatcher(q.filePattern);
  const decorator = q.decorator?.toLowerCase();
  const keepPlace = (s: Pick<SymbolRecord, "file" | "kind" | "language">) =>
    (pattern === null || pattern(s.file)) &&
    (q.kind === undefined || s.kind === q.kind) &&
    (q.language === undefined || s.language === q.language);
  const keep = (s: SymbolBriefRecord) =>
    keepPlace(s) &&
    (decorator === undefined || s.decorators.some((d) => d.toLowerCase().includes(decorator)));
  const centrality = view.get(CENTRALITY);
  const roleOf = view.get(ROLE_BY_FILE);
  const knownNames = view.get(NAMES_BY_ROWID);
  const namesOf = (rowids: number[]) => {
    const missing = rowids.filter((r) => !knownNames.has(r));
    if (missing.length > 0) {
      for (const [r, n] of index.symbolNamesByRowid(missing)) knownNames.set(r, n);
    }
    return knownNames;
  };
  const paths = view.get(PATHS_BY_ID);
  const sortBy = q.sortBy ?? "relevance";
  const finalScore = (lexical: number, role: number, c: number, id: string) =>
    sortBy === "relevance"
      ? lexical * role + c
      : sortBy === "combined"
      ? lexical * role + c + 3 * centrality.of(id)
      : lexical * role;
  // Kind, language and file pattern are applied while ranking (in memory), a decorator filter on
  // the hits read.
  const filtered = pattern !== null || decorator !== undefined;
  const limit = filtered ? 5000 : Math.max(200, maxResults * 10);
  // BM25 in memory gives every symbol that can make the top `limit` by BM25 (all of those tied at
  // the cut); exact names always compete too, with their bonus alone. Candidates are read best
  // BM25 first, in chunks, until no unread one can reach the top `maxResults` any more (its BM25
  // plus the largest bonuses is below the current last place, the priors being at most 1).
  const search = view.get(SYMBOL_SEARCH);
  const candidates = index.rankSymbols(search, meaningful, {
    limit,
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
  // Names the words of the query spell (`add api route` → add_api_route, addApiRoute), ranked
  // or not: two case-insensitive name lookups. Knowing them first bounds the identity bonus of
  // every other candidate of a query of several words: a name has no spaces, so only a spelled
  // name can get one (unless a path has spaces).
  const words = query.split(/\s+/).filter((w) => w !== "");
  const spelled = new Map<number, SymbolBriefRecord>();
  if (words.length >= 2 && words.length <= 6) {
    for (const name of new Set([words.join("_"), words.join("")])) {
      const found = index.namedSymbolBriefs(name, {
        ...(q.kind !== undefined ? { kind: q.kind } : {}),
        ...(q.language !== undefined ? { language: q.language } : {}),
        limit: 50,
      });
      for (const { rowid, symbol } of found.hits) spelled.set(rowid, symbol);
    }
  }
  const tight = words.length >= 2 && words.length <= 6 && !view.get(PATHS_WITH_SPACES);
  const bonusBound = (rowid: number) => !tight ? _MAX_BONUS : spelled.has(rowid) ? 40 : 0;
  const ceiling = (tight && spelled.size === 0 ? 0 : _MAX_BONUS) + MAX_CENTRALITY_BONUS;
  const scored = new Map<string, _Scored>();
  // A description of several words (prose) gets the file-focus and graph-neighbour bonuses: the
  // focus pool (the FOCUS_POOL best before any bonus) is read whole, and a match below it is read
  // while the largest focus bonus could lift it into the results.
  const prose = sortBy === "relevance" && q.neighbourBonus !== false && isProseQuery(query);
  // A description's best RERANK_DEPTH are ranked exactly, then re-ordered (learned_rank.ts).
  const model = !prose ? null : q.model === undefined ? SEARCH_MODEL : q.model;
  const depth = model !== null ? Math.max(maxResults, RERANK_DEPTH) : maxResults;
  const best = new _TopScores(prose ? Math.max(depth, FOCUS_POOL) : maxResults);
  const focusSlack = prose && candidates.length > 0
    ? FOCUS_WEIGHT * (candidates[0]!.score + _MAX_BONUS + MAX_CENTRALITY_BONUS)
    : 0;
  const identity = identityScorer(query);
  const add = (
    s: { id: string; name: string; file: string },
    rowid: number | null,
    base: number,
    fileRole: number,
  ) => {
    const role = _isPrivate(s) ? fileRole * PRIVATE_WEIGHT : fileRole;
    const lexical = base + identity(s);
    const c = centrality.bonus(s.id);
    const score = finalScore(lexical, role, c, s.id);
    scored.set(s.id, {
      id: s.id,
      name: s.name,
      file: s.file,
      rowid,
      score,
      lexical,
      role,
      centrality: c,
      graph: 0,
      focus: 0,
    });
    best.add(score);
  };
  // Coverage counts the query terms of the symbol and of its file's path (path_terms.ts).
  const terms = countedQueryTerms(meaningful);
  const pathMask = pathTermMasks(view.get(PATH_WORDS), terms);
  const coverageOf = (c: { coverage: number; terms: number; fileId: number }) =>
    terms.length === 0 || terms.length > 31
      ? c.coverage
      : _bits(c.terms | pathMask(c.fileId)) / terms.length;
  let matched = candidates.length;
  // Relevance without a decorator filter: a candidate whose best possible score (largest bonuses,
  // its file's role) is below the current last place is never read.
  const prune = sortBy === "relevance" && decorator === undefined;
  for (let i = 0, chunk = Math.max(16, 2 * maxResults); i < candidates.length;) {
    if (prune && candidates[i]!.score + ceiling + focusSlack < best.last()) break;
    let part = candidates.slice(i, i + chunk);
    i += part.length;
    if (prune) {
      const last = best.last();
      part = part.filter((c) =>
        (c.score + bonusBound(c.rowid)) * roleOf(c.fileId) + MAX_CENTRALITY_BONUS + focusSlack >=
          last
      );
      if (part.length === 0) continue;
    }
    const rowids = part.map((c) => c.rowid);
    // Kind, language and file were checked while ranking: only a decorator filter needs more.
    const briefs = decorator === undefined ? null : index.symbolBriefsByRowid(rowids);
    const names = briefs ?? namesOf(rowids);
    for (const c of part) {
      const s = names.get(c.rowid);
      const brief = briefs?.get(c.rowid);
      if (s === undefined || (brief !== undefined && !keep(brief))) {
        matched--;
        continue;
      }
      add(
        { id: s.id, name: s.name, file: paths.get(c.fileId) ?? "" },
        c.rowid,
        c.score * Math.pow(coverageOf(c), COVERAGE_POWER),
        roleOf(c.fileId),
      );
    }
    chunk *= 2;
  }
  const exclude = candidates.map((c) => c.rowid);
  if (!/\s/.test(query)) {
    // Symbols named like the query that BM25 did not rank: their bonus (45 or 50) is their
    // lexical score. Read only when one could make the top (or with a file or decorator filter,
    // which is checked on each here), and counted only when the count decides `truncated`.
    const readHits = filtered || sortBy !== "relevance" || best.last() <= ceiling;
    const readCount = !filtered && matched <= maxResults;
    if (readHits || readCount) {
      const extras = index.namedSymbolBriefs(query, {
        exclude,
        ...(q.kind !== undefined ? { kind: q.kind } : {}),
        ...(q.language !== undefined ? { language: q.language } : {}),
        ...(filtered || sortBy !== "relevance" ? {} : { limit: readHits ? maxResults * 4 : 0 }),
      });
      matched += filtered ? 0 : extras.count - extras.hits.length;
      for (const { rowid, symbol: s } of extras.hits) {
        if (scored.has(s.id) || !keep(s)) continue;
        add(s, rowid, 0, roleWeight(s.file));
        matched++;
      }
    }
  }
  // Spelled names BM25 did not rank compete with their bonus alone.
  const ranked0 = new Set(exclude);
  for (const [rowid, s] of spelled) {
    if (ranked0.has(rowid) || scored.has(s.id) || !keep(s)) continue;
    add(s, rowid, 0, roleWeight(s.file));
    matched++;
  }
  let ranked = [...scored.values()].filter((x) => x.lexical > 0);
  if (prose && ranked.length > 1) {
    // Matches connected to the best ones gain a share of their score (graph_neighbours.ts); only
    // the best matches can gain (a neighbour far down the list has little to do with the query).
    ranked.sort(_compare);
    // Files where the best matches concentrate lift their matches (file_focus.ts), read on the
    // scores before any bonus.
    const focusOf = fileFocus(ranked);
    const seeds = ranked.slice(0, NEIGHBOUR_SEEDS).flatMap((x) => {
      const symbol = index.symbol(x.id);
      return symbol === undefined ? [] : [{ symbol, score: x.score }];
    });
    const byId = new Map(
      ranked.slice(0, Math.max(_NEIGHBOUR_POOL, 2 * depth)).map((x) => [x.id, x]),
    );
    for (const [id, b] of neighbourBonuses(view, seeds, (id) => byId.has(id))) {
      const x = byId.get(id)!;
      x.score += b.add;
      x.graph = b.add;
    }
    for (const x of ranked) {
      x.focus = focusOf(x.file);
      x.score += x.focus;
    }
  }
  if (sortBy === "centrality") {
    ranked = ranked.sort((a, b) => centrality.of(b.id) - centrality.of(a.id) || _compare(a, b));
  } else ranked.sort(_compare);
  const top = ranked.slice(0, depth);
  const byRowid = index.symbolsByRowid(top.flatMap((x) => x.rowid === null ? [] : [x.rowid]));
  let hits: RankedHit[] = [];
  for (const x of top) {
    const s = x.rowid === null ? index.symbol(x.id) : byRowid.get(x.rowid);
    if (s === undefined) continue;
    hits.push({
      symbol: s,
      score: x.score,
      lexical: x.lexical,
      role: x.role,
      centrality: x.centrality,
      graph: x.graph,
      focus: x.focus,
    });
  }
  if (model !== null) {
    const items = hits.map((hit) => ({ hit, ...hitRerankItem(hit) }));
    hits = rerank(items, nameCoverTerms(meaningful), model, (x, score, p) => {
      if (p !== undefined) x.hit.model = p;
      x.hit.score = score;
    }).map((x) => x.hit);
  }
  hits = hits.slice(0, maxResults);
  const fuzzy: FuzzyHit[] = [];
  if (q.fuzzy === true || hits.length === 0) {
    const threshold = q.fuzzyThreshold ?? 0.4;
    const maxEdits = q.maxEditDistance ?? 2;
    const names = view.get(NAMES);
    const seen = new Set(hits.map((h) => h.symbol.id));
    const found: { id: string; d: number; j: number; role: number }[] = [];
    for (const f of fuzzyNames(names, query.toLowerCase(), maxEdits, threshold)) {
      for (const e of names.entries[f.i]!) {
        if (!seen.has(e.id) && keepPlace(e)) {
          found.push({ id: e.id, d: f.d, j: f.j, role: roleWeight(e.file) });
        }
      }
    }
    found.sort((a, b) => a.d - b.d || b.j - a.j || b.role - a.role || (a.id < b.id ? -1 : 1));
    for (const f of found) {
      if (fuzzy.length >= maxResults) break;
      const s = index.symbol(f.id);
      if (s === undefined || !keep(s)) continue;
      fuzzy.push({ symbol: s, distance: Math.min(f.d, maxEdits + 1), similarity: f.j });
    }
  }
  return { hits, fuzzy, matched };
}
