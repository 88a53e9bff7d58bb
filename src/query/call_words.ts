/**
 * Call words: symbols found by the names they call. "How does the pool reject a task?" is answered
 * by the function that calls `reject` and `offer`, whose own name (`execute`) shares no word with
 * the question; the symbol ranking (`symbol_rank.ts`) reads names, signatures and docstrings only,
 * so such a symbol is never a candidate. This stage gives each symbol a second, small document —
 * the words of the names its call sites write (`CALL_EDGES.calleeNames`, resolved or not, each
 * name once), split and stemmed as the symbol index does (`rejectedExecution` → `reject`,
 * `execut`) — and ranks them by BM25 (k1 = 1.2, b = 0.75, `bm25.ts`) over those documents.
 *
 * 1. Words: the query's meaningful words (`query_words.ts`) and their identifier parts, stemmed
 *    (`queryTerm`), matched exactly (no prefix: a call name's parts are whole words).
 * 2. Score: BM25 over the call documents, times the share of the query's terms the document
 *    holds; a document must hold at least two of the terms when the query has two or more.
 * 3. The {@linkcode CALL_MATCHES} best are returned; `get_ranked_context` can add
 *    `CALLS_WEIGHT` times their score (times the file's prior) to a candidate, or let a symbol
 *    enter with it (`ranked_context.ts`); and the symbol ranking can count the question's words a
 *    symbol's calls hold toward its coverage ({@linkcode callTermMasks}, `CALL_COVERAGE` of
 *    `symbol_rank.ts`). Both are off (0): measured with each tuning corpus left out in round 12
 *    (`deno task bench fit-context --grid calls|callcover`, BENCHMARKS.md), neither raised the
 *    objective; they stay as tunings for later rounds.
 *
 * Cost: the postings are built once per index state from the call sites already read for the
 * call graph (no index field: index time and size are unchanged); a query reads the postings of
 * its few terms.
 */
import { splitIdentifier } from "../store/fts_text.ts";
import { queryTerm } from "../store/symbol_terms.ts";
import { B, K1 } from "./bm25.ts";
import { CALL_EDGES } from "./call_edges.ts";
import { meaningfulQuery, PROJECT_WORDS } from "./query_words.ts";
import { facet } from "./view.ts";

/** Most matches returned. */
export const CALL_MATCHES = 30;

/** Postings of the call documents of one index state. */
export interface CallPostings {
  /** Term → symbol id → count of the distinct callee names holding the term. */
  postings: Map<string, Map<string, number>>;
  /** Symbol id → length of its call document (terms, with repeats). */
  lengths: Map<string, number>;
  /** Mean document length. */
  avgLength: number;
}

/** One symbol found by its call words. */
export interface CallMatch {
  id: string;
  score: number;
  /** The query terms its call document holds. */
  terms: string[];
}

/** The stemmed terms of one identifier or word (its parts, and itself when one part). */
export function identifierTerms(name: string): string[] {
  const out: string[] = [];
  for (const part of splitIdentifier(name)) {
    const t = queryTerm(part);
    if (t !== "" && !out.includes(t)) out.push(t);
  }
  return out;
}

/** Build the postings from caller → callee names. */
export function callPostings(calleeNames: ReadonlyMap<string, ReadonlySet<string>>): CallPostings {
  const postings = new Map<string, Map<string, number>>();
  const lengths = new Map<string, number>();
  let total = 0;
  const memo = new Map<string, string[]>();
  for (const [id, names] of calleeNames) {
    let length = 0;
    for (const name of names) {
      let terms = memo.get(name);
      if (terms === undefined) memo.set(name, terms = identifierTerms(name));
      for (const t of terms) {
        let row = postings.get(t);
        if (row === undefined) postings.set(t, row = new Map());
        row.set(id, (row.get(id) ?? 0) + 1);
        length++;
      }
    }
    if (length === 0) continue;
    lengths.set(id, length);
    total += length;
  }
  return { postings, lengths, avgLength: lengths.size === 0 ? 1 : total / lengths.size };
}

/** The call postings of a view, built once per index state. */
export const CALL_POSTINGS = facet(
  "call-postings",
  (view) => callPostings(view.get(CALL_EDGES).calleeNames),
);

/** The distinct stemmed terms of a query's meaningful words, in order. */
export function callQueryTerms(query: string, project: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  for (const word of meaningfulQuery(query, project).split(/\s+/)) {
    for (const t of identifierTerms(word)) if (!out.includes(t)) out.push(t);
  }
  return out;
}

/** The symbols whose call documents best match `terms`, best first (see the module doc). */
export function rankCallWords(
  p: CallPostings,
  terms: readonly string[],
  limit = CALL_MATCHES,
): CallMatch[] {
  const n = p.lengths.size;
  if (n === 0 || terms.length === 0) return [];
  const acc = new Map<string, { score: number; terms: string[] }>();
  for (const term of terms) {
    const row = p.postings.get(term);
    if (row === undefined) continue;
    const idf = Math.log((n - row.size + 0.5) / (row.size + 0.5));
    if (idf <= 0) continue;
    for (const [id, f] of row) {
      const dl = p.lengths.get(id)!;
      const s = idf * f * (K1 + 1) / (f + K1 * (1 - B + B * dl / p.avgLength));
      let a = acc.get(id);
      if (a === undefined) acc.set(id, a = { score: 0, terms: [] });
      a.score += s;
      a.terms.push(term);
    }
  }
  const least = Math.min(2, terms.length);
  const out: CallMatch[] = [];
  for (const [id, a] of acc) {
    if (a.terms.length < least) continue;
    out.push({ id, score: a.score * a.terms.length / terms.length, terms: a.terms });
  }
  return out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
}

/** {@linkcode rankCallWords} for a query over a view. */
export function callWordMatches(
  view: import("./view.ts").RepoView,
  query: string,
  limit = CALL_MATCHES,
): CallMatch[] {
  return rankCallWords(
    view.get(CALL_POSTINGS),
    callQueryTerms(query, view.get(PROJECT_WORDS)),
    limit,
  );
}

/**
 * Symbol id → bit mask of the `terms` (bit i for term i, the first 31) its call document holds,
 * for the symbols holding any.
 */
export function callTermMasks(p: CallPostings, terms: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const [i, term] of terms.entries()) {
    if (i > 30) break;
    const row = p.postings.get(term);
    if (row === undefined) continue;
    for (const id of row.keys()) out.set(id, (out.get(id) ?? 0) | (1 << i));
  }
  return out;
}
