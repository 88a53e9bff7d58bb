/**
 * Ranked symbol search (API.md §1.8, §4.2; Part A §7 and §12), shared by `search_symbols` and the
 * context tools.
 *
 * A hit's score is `(bm25 + identity) · role + centrality`:
 * - `bm25`: FTS5's BM25 over the symbol's name parts, signature, docstring, summary and keywords
 *   (computed in memory by `store/symbol_search.ts`; words are split at camelCase and snake_case
 *   and Porter-stemmed). Question words (`where`, `how`, `the`, …) are dropped from a query of
 *   several words first.
 * - `identity`: the query is the name or id (50; 45 ignoring case), spells the name as words
 *   (`solve dependencies` → `solve_dependencies`, 40), is a prefix of the name (30) or inside the
 *   id (20).
 * - `role`: the file-role prior of `priors.ts` (source 1, tests 0.55, vendored 0.4, …).
 * - `centrality`: the capped bonus of `centrality.ts` (files importing or calling the symbol).
 *
 * Ties go to public names before private ones (`_helper`, Go's lower-case names), then by id.
 * Fuzzy matches (typos) come after, ranked by edit distance and trigram similarity.
 */
import type { SymbolKind, SymbolRecord } from "../parser/types.ts";
import type { SymbolBriefRecord } from "../store/repo_index.ts";
import { facet, type RepoView } from "./view.ts";
import { PATHS_BY_ID } from "./files.ts";
import { globMatcher } from "./glob.ts";
import { isPrivateName, roleWeight } from "./priors.ts";
import { CENTRALITY, MAX_CENTRALITY_BONUS } from "./centrality.ts";
import { fuzzyNames, NAMES, spelledNames, squashName } from "./name_index.ts";

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
  if (s.name === query || s.id === query) return 50;
  const q = query.toLowerCase();
  const n = s.name.toLowerCase();
  if (n === q || s.id.toLowerCase() === q) return 45;
  const sq = squashName(q);
  if (sq !== "" && sq.length >= 4 && squashName(n) === sq) return 40;
  if (n.startsWith(q)) return 30;
  if (s.id.toLowerCase().includes(q)) return 20;
  return 0;
}

/** The largest {@linkcode identityBonus}. */
const _MAX_BONUS = 50;

/**
 * Words that say what kind of question it is, not what it is about: left out of a query of
 * several words (all of them stay when nothing else is left).
 */
const _QUESTION_WORDS = new Set(
  ("a an and are as at be by can could do does did for from has have how i if in is it its me " +
    "my of on or our should that the their there these this those to was we what when where " +
    "which who why will with would you your function functions method methods code find")
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
}

function _isPrivate(x: { name: string; file: string }): boolean {
  return isPrivateName(x.name, x.file.endsWith(".go") ? "go" : "");
}

/** Order: score, then public before private, then id. */
function _compare(a: _Scored, b: _Scored): number {
  return b.score - a.score || Number(_isPrivate(a)) - Number(_isPrivate(b)) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The best `maxResults` symbols for a query, and up to `maxResults` fuzzy hits after them when
 * asked for or when nothing matched. Deterministic for an index state.
 */
export function rankSymbolHits(view: RepoView, q: SymbolQuery): SymbolRanking {
  const index = view.index;
  const query = q.query.trim();
  const words = meaningfulQuery(query);
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
  const paths = view.get(PATHS_BY_ID);
  const sortBy = q.sortBy ?? "relevance";
  const finalScore = (lexical: number, role: number, c: number, id: string) =>
    sortBy === "relevance"
      ? lexical * role + c
      : sortBy === "combined"
      ? lexical * role + 3 * c + 3 * centrality.of(id)
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
  const candidates = index.rankSymbols(search, words, {
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
  const ceiling = _MAX_BONUS + MAX_CENTRALITY_BONUS;
  const scored = new Map<string, _Scored>();
  const best = new _TopScores(maxResults);
  const add = (
    s: { id: string; name: string; file: string },
    rowid: number | null,
    base: number,
    role: number,
  ) => {
    const lexical = base + identityBonus(s, query);
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
    });
    best.add(score);
  };
  let matched = candidates.length;
  const sortsByScore = sortBy !== "centrality";
  for (let i = 0, chunk = Math.max(16, 2 * maxResults); i < candidates.length;) {
    if (
      sortsByScore && decorator === undefined && sortBy === "relevance" &&
      candidates[i]!.score + ceiling < best.last()
    ) break;
    const part = candidates.slice(i, i + chunk);
    i += part.length;
    const rowids = part.map((c) => c.rowid);
    // Kind, language and file were checked while ranking: only a decorator filter needs more.
    const briefs = decorator === undefined ? null : index.symbolBriefsByRowid(rowids);
    const names = briefs ?? index.symbolNamesByRowid(rowids);
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
        c.score,
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
  // Names the words of the query spell (`add api route` → add_api_route), ranked or not.
  for (const b of spelledNames(view.get(NAMES), query)) {
    if (scored.has(b.id) || !keepPlace(b)) continue;
    if (decorator !== undefined) {
      const s = index.symbol(b.id);
      if (s === undefined || !keep(s)) continue;
    }
    add(b, null, 0, roleWeight(b.file));
    matched++;
  }
  let ranked = [...scored.values()].filter((x) => x.lexical > 0);
  if (sortBy === "centrality") {
    ranked = ranked.sort((a, b) => centrality.of(b.id) - centrality.of(a.id) || _compare(a, b));
  } else ranked.sort(_compare);
  const top = ranked.slice(0, maxResults);
  const byRowid = index.symbolsByRowid(top.flatMap((x) => x.rowid === null ? [] : [x.rowid]));
  const hits: RankedHit[] = [];
  for (const x of top) {
    const s = x.rowid === null ? index.symbol(x.id) : byRowid.get(x.rowid);
    if (s === undefined) continue;
    hits.push({
      symbol: s,
      score: x.score,
      lexical: x.lexical,
      role: x.role,
      centrality: x.centrality,
    });
  }
  const fuzzy: FuzzyHit[] = [];
  if (q.fuzzy === true || hits.length === 0) {
    const threshold = q.fuzzyThreshold ?? 0.4;
    const maxEdits = q.maxEditDistance ?? 2;
    const names = view.get(NAMES);
    const seen = new Set(top.map((x) => x.id));
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
