/**
 * `search_symbols`: ranked symbol search — BM25 (the FTS5 scores, computed in memory by
 * `store/symbol_search.ts`) plus exact / prefix / substring name bonuses, filters, and an
 * optional fuzzy pass (API.md §1.8, §4.2; Part A §7).
 */
import { z } from "zod";
import { LANGUAGES } from "../parser/languages/mod.ts";
import type { SymbolRecord } from "../parser/types.ts";
import type { RepoIndex, SymbolBriefRecord } from "../store/repo_index.ts";
import { ToolError } from "../errors.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { facet, type RepoView } from "../query/view.ts";
import {
  bytesOfFiles,
  COUNTS,
  freshnessChecker,
  markFreshness,
  PATHS_BY_ID,
  SYMBOL_BRIEFS,
  type SymbolBrief,
} from "../query/files.ts";
import { globMatcher } from "../query/glob.ts";
import { levenshtein } from "../query/names.ts";

/** Tool name. */
export const name = "search_symbols";

/** Tool description shown to agents. */
export const description =
  "Search an indexed repo's functions, classes, methods, types and constants by name or words (camelCase and snake_case parts match; exact and prefix name matches rank first). Returns ids, signatures and one-line summaries with a score. Use it to find code by what it is called or does, then read it with get_symbol_source. Filter by kind, language or file_pattern; fuzzy=true tolerates typos.";

const _KINDS = ["function", "class", "method", "constant", "type", "template", "import"] as const;

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (or a bare name that identifies one repo)"),
  query: z.string().min(1).max(500).describe(
    "Symbol name, name fragment or words, e.g. getUser, parse config, HTTPClient",
  ),
  kind: z.enum(_KINDS).optional().describe("Only symbols of this kind"),
  language: z.string().optional().describe('Only symbols in this language, e.g. "python", "go"'),
  file_pattern: z.string().optional().describe(
    'Only files matching this glob ("*" also crosses "/"), e.g. "src/*.ts" or "*_test.go"',
  ),
  decorator: z.string().optional().describe(
    "Only symbols with a decorator/annotation containing this text (case-insensitive)",
  ),
  max_results: z.number().int().min(1).max(500).optional().describe(
    "Most results (1-500, default 10)",
  ),
  detail_level: z.enum(["compact", "standard", "full"]).optional().describe(
    "compact: ids and locations; standard (default): + signature and summary; full: + docstring and source",
  ),
  fuzzy: z.boolean().optional().describe(
    "Also add names within an edit distance or trigram similarity (typos); runs anyway when nothing matches",
  ),
  fuzzy_threshold: z.number().min(0).max(1).optional().describe(
    "Least trigram similarity (0-1) for a fuzzy hit (default 0.4)",
  ),
  max_edit_distance: z.number().int().min(0).max(10).optional().describe(
    "Most edits for a fuzzy hit (default 2)",
  ),
});

/** Validated arguments. */
export type SearchSymbolsArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * Bonus for the query being the name or id (50; 45 ignoring case), a prefix of the name (30), or
 * inside the id (20), all but the first ignoring case.
 */
export function identityBonus(s: Pick<SymbolRecord, "id" | "name">, query: string): number {
  if (s.name === query || s.id === query) return 50;
  const q = query.toLowerCase();
  const n = s.name.toLowerCase();
  if (n === q || s.id.toLowerCase() === q) return 45;
  if (n.startsWith(q)) return 30;
  if (s.id.toLowerCase().includes(q)) return 20;
  return 0;
}

function _trigrams(s: string): Set<string> {
  const t = new Set<string>();
  const padded = `  ${s} `;
  for (let i = 0; i + 3 <= padded.length; i++) t.add(padded.slice(i, i + 3));
  return t;
}

type NameEntry = SymbolBrief;

/**
 * The distinct lower-cased symbol names of a repo with a trigram inverted index over them, so a
 * fuzzy lookup touches only names that share a trigram with the query (plus the short names,
 * which can be within the edit distance while sharing none).
 */
interface NameIndex {
  names: string[];
  entries: NameEntry[][];
  gramCounts: number[];
  postings: Map<string, number[]>;
  /** Indexes of names of at most 6 characters. */
  short: number[];
}

const NAMES = facet("symbol-names", (view): NameIndex => {
  const byName = new Map<string, NameEntry[]>();
  for (const s of view.get(SYMBOL_BRIEFS)) {
    const n = s.name.toLowerCase();
    let list = byName.get(n);
    if (list === undefined) byName.set(n, list = []);
    list.push(s);
  }
  const names = [...byName.keys()];
  const postings = new Map<string, number[]>();
  const gramCounts: number[] = [];
  const short: number[] = [];
  names.forEach((n, i) => {
    const grams = _trigrams(n);
    gramCounts.push(grams.size);
    if (n.length <= 6) short.push(i);
    for (const g of grams) {
      let list = postings.get(g);
      if (list === undefined) postings.set(g, list = []);
      list.push(i);
    }
  });
  return { names, entries: names.map((n) => byName.get(n)!), gramCounts, postings, short };
});

/** The in-memory BM25 ranking index of a repo's symbols. */
const SYMBOL_SEARCH = facet("symbol-search", (view) => view.index.symbolSearch());

/** The search result LRU of a repo's index state (API.md §0.6). */
const SEARCH_LRU = facet("search-lru", () => new Map<string, ToolOutput>());

/** Names within `maxEdits` edits of `q` or with trigram similarity ≥ `threshold`. */
function _fuzzyNames(
  names: NameIndex,
  q: string,
  maxEdits: number,
  threshold: number,
): { i: number; d: number; j: number }[] {
  const qGrams = _trigrams(q);
  const shared = new Map<number, number>();
  for (const g of qGrams) {
    for (const i of names.postings.get(g) ?? []) shared.set(i, (shared.get(i) ?? 0) + 1);
  }
  // A name longer than 3 × maxEdits keeps a trigram of the query through maxEdits edits.
  if (maxEdits <= 2) {
    for (const i of names.short) if (!shared.has(i)) shared.set(i, 0);
  } else {
    names.names.forEach((n, i) => {
      if (n.length <= 3 * maxEdits && !shared.has(i)) shared.set(i, 0);
    });
  }
  const out: { i: number; d: number; j: number }[] = [];
  for (const [i, common] of shared) {
    const j = common / (qGrams.size + names.gramCounts[i]! - common || 1);
    const d = levenshtein(names.names[i]!, q, maxEdits);
    if (d <= maxEdits || j >= threshold) out.push({ i, d, j });
  }
  return out;
}

/** The largest {@linkcode identityBonus}. */
const _MAX_BONUS = 50;

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

/**
 * Build (if not cached for the repo's current index) the in-memory ranking index that the first
 * search of `repo` would otherwise build.
 */
export function prewarm(ctx: ToolContext, repo: string): void {
  openRepo(ctx, repo).view.get(SYMBOL_SEARCH);
}

/** A file-id filter for the ranking from a path matcher. */
function _fileFilter(
  view: RepoView,
  pattern: (path: string) => boolean,
): (fileId: number) => boolean {
  const paths = view.get(PATHS_BY_ID);
  return (id) => {
    const path = paths.get(id);
    return path !== undefined && pattern(path);
  };
}

/** Most result sets kept per server (the reference's search result LRU, API.md §0.6). */
const _CACHE_SIZE = 128;

/**
 * Ranked hits with scores; fuzzy hits after the lexical ones. Results are cached per server for
 * the same arguments and the same index state (`_meta.cache_hit: true` on a hit).
 */
export function handler(ctx: ToolContext, args: SearchSymbolsArgs): ToolOutput {
  const { view } = openRepo(ctx, args.repo);
  const lru = view.get(SEARCH_LRU);
  const key = JSON.stringify([
    args.query,
    args.kind,
    args.language,
    args.file_pattern,
    args.decorator,
    args.max_results,
    args.detail_level,
    args.fuzzy,
    args.fuzzy_threshold,
    args.max_edit_distance,
  ]);
  let out = lru.get(key);
  if (out !== undefined) {
    lru.delete(key);
    lru.set(key, out);
    out = { ...out, meta: { ...out.meta, cache_hit: true } };
  } else {
    out = _search(view, args);
    lru.set(key, out);
    if (lru.size > _CACHE_SIZE) lru.delete(lru.keys().next().value!);
  }
  // The cached copy stays untouched: freshness is checked on every call.
  const response = structuredClone(out.response);
  const freshness = markFreshness(
    response.results as Record<string, unknown>[],
    freshnessChecker(view),
  );
  return {
    ...out,
    response,
    meta: { ...out.meta, ...(freshness === null ? {} : { freshness }) },
  };
}

function _search(view: RepoView, args: SearchSymbolsArgs): ToolOutput {
  const { repo, index } = view;
  const query = args.query.trim();
  if (query === "") {
    throw new ToolError("invalid_argument", 'Argument "query" must contain a name or words');
  }
  if (args.language !== undefined && !LANGUAGES.some((l) => l.id === args.language)) {
    throw new ToolError(
      "invalid_argument",
      `Unknown language "${args.language}": expected one of ${
        LANGUAGES.map((l) => l.id).join(", ")
      }`,
    );
  }
  const maxResults = args.max_results ?? 10;
  const detail = args.detail_level ?? "standard";
  const pattern = args.file_pattern === undefined ? null : globMatcher(args.file_pattern);
  const decorator = args.decorator?.toLowerCase();
  const keepPlace = (s: Pick<SymbolRecord, "file" | "kind" | "language">) =>
    (pattern === null || pattern(s.file)) &&
    (args.kind === undefined || s.kind === args.kind) &&
    (args.language === undefined || s.language === args.language);
  const keep = (s: SymbolBriefRecord) =>
    keepPlace(s) &&
    (decorator === undefined || s.decorators.some((d) => d.toLowerCase().includes(decorator)));
  // Kind, language and file pattern are applied while ranking (in memory), a decorator filter on
  // the hits read.
  const filtered = pattern !== null || decorator !== undefined;
  const limit = filtered ? 5000 : Math.max(100, maxResults * 5);
  // BM25 in memory (the scores of FTS5's bm25, see store/symbol_search.ts) gives every symbol
  // that can make the top `limit` by BM25 (all of those tied at the cut); exact names always
  // compete too, with their bonus alone. The name bonus needs each candidate's name and id, so
  // candidates are read best BM25 first, in chunks, until no unread one can reach the top
  // `maxResults` any more (its BM25 plus the largest bonus is below the current last place):
  // the same hits, order and scores as scoring every candidate.
  const search = view.get(SYMBOL_SEARCH);
  const candidates = index.rankSymbols(search, query, {
    limit,
    ...(args.kind !== undefined ? { kinds: [args.kind] } : {}),
    ...(args.language !== undefined ? { language: args.language } : {}),
    ...(pattern !== null ? { keepFile: _fileFilter(view, pattern) } : {}),
  }).sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  const scored = new Map<string, { id: string; rowid: number; score: number }>();
  const best = new _TopScores(maxResults);
  let matched = candidates.length;
  for (let i = 0, chunk = Math.max(16, 2 * maxResults); i < candidates.length;) {
    if (decorator === undefined && candidates[i]!.score + _MAX_BONUS < best.last()) break;
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
      const score = c.score + identityBonus(s, query);
      scored.set(s.id, { id: s.id, rowid: c.rowid, score });
      best.add(score);
    }
    chunk *= 2;
  }
  if (!/\s/.test(query)) {
    // Symbols named like the query that BM25 did not rank: their bonus (45 or 50) is their
    // score. Read only when one could make the top (or with a file or decorator filter, which
    // is checked on each here), and counted only when the count decides `truncated`.
    const readHits = filtered || best.last() <= _MAX_BONUS;
    const readCount = !filtered && matched <= maxResults;
    if (readHits || readCount) {
      const extras = index.namedSymbolBriefs(query, {
        exclude: candidates.map((c) => c.rowid),
        ...(args.kind !== undefined ? { kind: args.kind } : {}),
        ...(args.language !== undefined ? { language: args.language } : {}),
        ...(filtered ? {} : { limit: readHits ? maxResults : 0 }),
      });
      matched += filtered ? 0 : extras.count - extras.hits.length;
      for (const { rowid, symbol: s } of extras.hits) {
        if (scored.has(s.id) || !keep(s)) continue;
        const score = identityBonus(s, query);
        scored.set(s.id, { id: s.id, rowid, score });
        best.add(score);
        matched++;
      }
    }
  }
  const ranked = [...scored.values()]
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const top = ranked.slice(0, maxResults);
  const records = index.symbolsByRowid(top.map((x) => x.rowid));
  const results: Record<string, unknown>[] = [];
  for (const x of top) {
    const s = records.get(x.rowid);
    if (s !== undefined) results.push(_entry(index, s, detail, x.score));
  }
  let fuzzyCount = 0;
  if (args.fuzzy === true || results.length === 0) {
    const threshold = args.fuzzy_threshold ?? 0.4;
    const maxEdits = args.max_edit_distance ?? 2;
    const q = query.toLowerCase();
    const names = view.get(NAMES);
    const seen = new Set(top.map((x) => x.id));
    const fuzzy: { e: NameEntry; d: number; j: number }[] = [];
    for (const f of _fuzzyNames(names, q, maxEdits, threshold)) {
      for (const e of names.entries[f.i]!) {
        if (!seen.has(e.id) && keepPlace(e)) fuzzy.push({ e, d: f.d, j: f.j });
      }
    }
    fuzzy.sort((a, b) => a.d - b.d || b.j - a.j || (a.e.id < b.e.id ? -1 : 1));
    for (const f of fuzzy) {
      if (fuzzyCount >= maxResults) break;
      const s = index.symbol(f.e.id);
      if (s === undefined || !keep(s)) continue;
      const entry = _entry(index, s, detail, _round(f.j * 10));
      entry.match_type = "fuzzy";
      entry.fuzzy_similarity = _round(f.j);
      entry.edit_distance = Math.min(f.d, maxEdits + 1);
      results.push(entry);
      fuzzyCount++;
    }
  }
  const counts = view.get(COUNTS);
  const truncated = matched > maxResults;
  const response: Record<string, unknown> = { result_count: results.length, results };
  const meta: Record<string, unknown> = { total_symbols: counts.symbols, truncated };
  if (truncated) {
    meta.hint =
      `More than ${maxResults} symbols matched: narrow with kind, language or file_pattern, or raise max_results`;
  }
  if (results.length === 0) {
    const terms = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t.length >= 3);
    const related = terms.length === 0 ? [] : index.listFiles().map((f) => f.path).filter((p) => {
      const base = p.slice(p.lastIndexOf("/") + 1).toLowerCase();
      return terms.some((t) => base.includes(t));
    }).slice(0, 5);
    const evidence: Record<string, unknown> = {
      verdict: "no_implementation_found",
      scanned_symbols: counts.symbols,
      scanned_files: counts.files,
      best_match_score: 0,
    };
    if (related.length > 0) evidence.related_existing = related;
    response.negative_evidence = evidence;
    response["⚠ warning"] =
      `No implementation found for '${query}'. Do not claim this feature exists.`;
  }
  return {
    response,
    rawBytes: bytesOfFiles(view, results.map((r) => String(r.file))),
    repo,
    meta,
  };
}

function _round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function _entry(
  index: RepoIndex,
  s: SymbolRecord,
  detail: "compact" | "standard" | "full",
  score: number,
): Record<string, unknown> {
  const e: Record<string, unknown> = detail === "compact"
    ? { id: s.id, name: s.name, kind: s.kind, file: s.file, line: s.line }
    : {
      id: s.id,
      kind: s.kind,
      name: s.name,
      file: s.file,
      line: s.line,
      signature: s.signature,
      summary: s.summary,
    };
  e.byte_length = s.byte_length;
  if (detail === "full") {
    const source = index.symbolSource(s.id) ?? "";
    e.end_line = s.end_line;
    e.docstring = s.docstring;
    e.source = source;
  }
  if (s.decorators.length > 0) e.decorators = s.decorators;
  e.score = _round(score);
  return e;
}
