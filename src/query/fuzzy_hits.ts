/**
 * Fuzzy hits: names spelled like the query (typos), for `fuzzy: true` or as the fallback when no
 * symbol matched the query's words. A fuzzy hit is kept only when it is really similar — within
 * the edits its length allows ({@linkcode allowedEdits}, Lucene's "AUTO" fuzziness, and at most
 * `max_edit_distance`) or sharing at least `fuzzy_threshold` of its trigrams — and its score is its
 * similarity, below every real match ({@linkcode fuzzyScore}).
 */
import type { SymbolRecord } from "../parser/types.ts";
import { fuzzyNames, NAMES } from "./name_index.ts";
import type { RepoView } from "./view.ts";

/** A fuzzy hit: the record, its edit distance and trigram similarity. */
export interface FuzzyHit {
  symbol: SymbolRecord;
  distance: number;
  similarity: number;
}

/** What a fuzzy pass looks for. */
export interface FuzzyQuery {
  query: string;
  maxResults: number;
  /** Least trigram similarity (default 0.4). */
  threshold?: number | undefined;
  /** Most edits (default 2; the query's length may allow fewer). */
  maxEdits?: number | undefined;
  /** Ids already among the hits. */
  seen: ReadonlySet<string>;
  /** Whether a name entry passes the filters (kind, language, file). */
  keepPlace: (e: { file: string; kind: string; language: string }) => boolean;
  /** Whether a full record passes the filters (a decorator). */
  keep: (s: SymbolRecord) => boolean;
  /** The prior of a file (source before tests), to order equal matches. */
  weightOf: (file: string) => number;
}

/**
 * Edits a word of this length may have and still be the same word misspelt: none up to 2
 * characters, one up to 5, two beyond (Lucene's and Elasticsearch's `AUTO` fuzziness).
 *
 * @example Usage
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { allowedEdits } from "./fuzzy_hits.ts";
 * deepEqual([2, 4, 8].map(allowedEdits), [0, 1, 2]);
 * ```
 */
export function allowedEdits(length: number): number {
  return length <= 2 ? 0 : length <= 5 ? 1 : 2;
}

/**
 * A fuzzy hit's similarity to the query, 0..1: the larger of its trigram similarity and the
 * share of the query's characters its edits leave alone.
 */
export function fuzzySimilarity(distance: number, trigram: number, queryLength: number): number {
  return Math.max(trigram, 1 - distance / Math.max(1, queryLength));
}

/**
 * A fuzzy hit's score: its similarity times just below the lowest real match's score (1 when
 * there is none), so that it ranks after every real match.
 */
export function fuzzyScore(similarity: number, lowestReal: number | undefined): number {
  return similarity * (lowestReal !== undefined && lowestReal > 0 ? lowestReal * 0.99 : 1);
}

/** The fuzzy hits of a query, most similar first (then by file prior, then id). */
export function fuzzyHits(view: RepoView, q: FuzzyQuery): FuzzyHit[] {
  const threshold = q.threshold ?? 0.4;
  const text = q.query.toLowerCase();
  const maxEdits = Math.min(q.maxEdits ?? 2, allowedEdits(text.length));
  const names = view.get(NAMES);
  const found: { id: string; d: number; j: number; w: number }[] = [];
  for (const f of fuzzyNames(names, text, maxEdits, threshold)) {
    // Within the edits allowed, or similar by trigrams; nothing else is a real likeness.
    if (f.d > maxEdits && f.j < threshold) continue;
    for (const e of names.entries[f.i]!) {
      if (!q.seen.has(e.id) && q.keepPlace(e)) {
        found.push({ id: e.id, d: f.d, j: f.j, w: q.weightOf(e.file) });
      }
    }
  }
  const similarity = (f: { d: number; j: number }) => fuzzySimilarity(f.d, f.j, text.length);
  found.sort((a, b) =>
    similarity(b) - similarity(a) || a.d - b.d || b.w - a.w || (a.id < b.id ? -1 : 1)
  );
  const out: FuzzyHit[] = [];
  for (const f of found) {
    if (out.length >= q.maxResults) break;
    const s = view.index.symbol(f.id);
    if (s === undefined || !q.keep(s)) continue;
    out.push({ symbol: s, distance: Math.min(f.d, maxEdits + 1), similarity: similarity(f) });
  }
  return out;
}
