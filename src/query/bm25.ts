/**
 * The text score of symbol ranking: BM25 over the postings and statistics the store hands out
 * (`store/symbol_search.ts`), computed in memory, the same scores as SQLite FTS5's
 * `bm25(symbols_fts, 10, 3, 1, 1, 2)` over the same MATCH expression (every query word and
 * identifier part as an exact and, unless one character long, a prefix phrase, OR-ed; the tests
 * compare both). Scoring a common one-word query on a large repo (10k matching symbols) takes well
 * under a millisecond; FTS5 computes BM25 row by row, several µs each.
 *
 * For each phrase p of the query, `idf(p) · f·(k1 + 1) / (f + k1·(1 − b + b·|D|/avgdl))`, summed in
 * phrase order, where f is the weighted count of the phrase in the symbol (the field weights:
 * name ×10, signature ×3, docstring ×1, summary ×1, keywords ×2), |D| the symbol's length in
 * tokens, `idf(p) = ln((N − n(p) + 0.5) / (n(p) + 0.5))` (1e-6 when not positive), n(p) the
 * symbols matching p, N the symbols. The same operations in the same order give the same doubles.
 */
import { splitIdentifier } from "../store/fts_text.ts";
import type { SymbolPostings, SymbolSearch } from "../store/symbol_search.ts";
import { queryTerm } from "../store/symbol_terms.ts";
import { facet } from "./view.ts";
import { abbreviationsOf } from "./abbreviations.ts";

/** BM25's term-frequency saturation. */
export const K1 = 1.2;
/** BM25's length normalisation. */
export const B = 0.75;

/** Options of {@linkcode Bm25Ranker.rank}. */
export interface RankOptions {
  /** Hits wanted; every hit scoring at least the `limit`-th best is returned (ties at the cut). */
  limit: number;
  /** Only these kinds. */
  kinds?: readonly string[];
  /** Only this language. */
  language?: string;
  /** Only symbols of the files (ids) this accepts. */
  keepFile?: (fileId: number) => boolean;
  /** @default {@linkcode K1} (another value is for fitting; the scores then differ from FTS5's) */
  k1?: number;
  /** @default {@linkcode B} */
  b?: number;
  /**
   * The weight of the abbreviations code writes for the query's words (`abbreviations.ts`: an
   * exact `ctx` for "context"), each an extra phrase whose score counts this much and whose match
   * counts toward its word's coverage; 0 (the default here: the store's own ranking stays FTS5's)
   * adds none. The symbol ranking passes `ABBREVIATION_WEIGHT` of `symbol_rank.ts`.
   */
  abbreviations?: number;
}

/** A ranked symbol: its rowid and BM25 score (higher is better). */
export interface RankedSymbol {
  rowid: number;
  fileId: number;
  score: number;
  /** Share of the query's distinct terms (as prefixes) found in the symbol, 0..1. */
  coverage: number;
  /**
   * Which of the query's distinct terms ({@linkcode countedQueryTerms}, in order) the symbol has:
   * bit i for term i (the first 31 terms).
   */
  terms: number;
}

/**
 * The distinct terms of a free-text query that coverage counts, in query order (stemmed like the
 * index: see `queryTerm`); bit i of {@linkcode RankedSymbol.terms} is term i.
 */
export function countedQueryTerms(query: string): string[] {
  const out: string[] = [];
  for (const p of _queryPhrases(query)) if (p.counts && !out.includes(p.term)) out.push(p.term);
  return out;
}

/**
 * The phrases of a free-text query in MATCH-expression order (see `symbolMatchExpression`): for
 * every distinct word and identifier part, its term as an exact and (longer than one character)
 * as a prefix phrase.
 */
function _queryPhrases(query: string): _Phrase[] {
  const words = new Set<string>();
  for (const word of query.split(/\s+/)) {
    const whole = word.replace(/[^\p{L}\p{N}]+/gu, "").toLowerCase();
    if (whole !== "") words.add(whole);
    for (const part of splitIdentifier(word)) words.add(part);
  }
  const out: _Phrase[] = [];
  for (const w of words) {
    const term = queryTerm(w);
    if (term === "") continue;
    // A one-character word only exactly, decided on the word as typed, as `symbolMatchExpression`
    // does (a longer word may stem to one character). Coverage counts the prefix phrase, which
    // includes the exact one, or the exact phrase when it is alone.
    const prefix = w.length > 1;
    out.push({ term, prefix: false, counts: !prefix });
    if (prefix) out.push({ term, prefix: true, counts: true });
  }
  return out;
}

/** One phrase of the MATCH expression, or an abbreviation of a counted term (`abbreviations.ts`). */
interface _Phrase {
  term: string;
  prefix: boolean;
  /** Whether coverage counts it (see `_queryPhrases`). */
  counts: boolean;
  /** For an abbreviation: the counted term whose coverage its match gives. */
  of?: string;
}

/** The abbreviation phrases of a query's counted terms, after every phrase of the query. */
function _abbreviationPhrases(phrases: readonly _Phrase[]): _Phrase[] {
  const own = new Set(phrases.map((p) => p.term));
  const out: _Phrase[] = [];
  for (const p of phrases) {
    if (!p.counts) continue;
    for (const a of abbreviationsOf(p.term)) {
      if (own.has(a) || out.some((x) => x.term === a)) continue;
      out.push({ term: a, prefix: false, counts: false, of: p.term });
    }
  }
  return out;
}

/** Scores a repo's symbols by BM25 (see the module doc); one per index state ({@linkcode BM25}). */
export class Bm25Ranker {
  readonly #search: SymbolSearch;
  readonly #p: SymbolPostings;
  /**
   * Scratch per document, zero between calls: shared by every ranker of at most its size (one
   * call runs at a time), so that a new index state (every edit) allocates none — on the linux
   * source (3.7M symbols) 140 MB a ranker, whose first touch alone took ~0.4 s.
   */
  readonly #scratch: _Scratch;

  constructor(search: SymbolSearch) {
    this.#search = search;
    const p = this.#p = search.postings();
    this.#scratch = _scratchFor(_documents(p));
  }

  /** The touched documents the kind, language and file filters keep (all when there are none). */
  #filtered(touched: Int32Array, options: RankOptions): Int32Array {
    const p = this.#p;
    const kinds = options.kinds === undefined || options.kinds.length === 0
      ? null
      : new Set(options.kinds);
    const language = options.language;
    if (kinds === null && language === undefined && options.keepFile === undefined) return touched;
    const fileOk = new Map<number, boolean>();
    let nKept = 0;
    const kept = new Int32Array(touched.length);
    for (const d of touched) {
      if (kinds !== null && !kinds.has(p.labels[_field(p, "kind", d)]!)) continue;
      if (language !== undefined && p.labels[_field(p, "language", d)] !== language) continue;
      if (options.keepFile !== undefined) {
        const f = _field(p, "file", d);
        let ok = fileOk.get(f);
        if (ok === undefined) fileOk.set(f, ok = options.keepFile(f));
        if (!ok) continue;
      }
      kept[nKept++] = d;
    }
    return kept.subarray(0, nKept);
  }

  /**
   * The symbols matching `query` with their BM25 score: every hit scoring at least the
   * `limit`-th best score (so ties at the cut are all there), unordered.
   */
  rank(query: string, options: RankOptions): RankedSymbol[] {
    const own = _queryPhrases(query);
    const abbreviationWeight = options.abbreviations ?? 0;
    const phrases = abbreviationWeight > 0 ? [...own, ..._abbreviationPhrases(own)] : own;
    const p = this.#p;
    if (phrases.length === 0 || p.live === 0) return [];
    const scratch = this.#scratch.busy ? new _Scratch(_documents(p)) : this.#scratch;
    scratch.busy = true;
    try {
      return this.#rank(phrases, options, scratch);
    } finally {
      scratch.busy = false;
    }
  }

  /** {@linkcode rank} with this scratch (left zero, whatever happens). */
  #rank(phrases: readonly _Phrase[], options: RankOptions, scratch: _Scratch): RankedSymbol[] {
    const p = this.#p;
    const nRow = p.live;
    const dead = p.dead;
    const added = p.added;
    const { freq, score, termHits, termMask } = scratch;
    const abbreviationWeight = options.abbreviations ?? 0;
    const k1 = options.k1 ?? K1;
    const b = options.b ?? B;
    const avgdl = p.avgdl;
    const postStart = p.start;
    const postDoc = p.doc;
    const postWeight = p.weight;
    const docsOfPhrase = scratch.phraseDocs;
    const touchedDocs = scratch.touched;
    let nTouched = 0;
    try {
      // Coverage counts each distinct term once, on its prefix phrase (which includes the exact one),
      // or on its exact phrase when it has no prefix phrase (one character).
      const counted = new Set<string>();
      const bitOf = new Map<string, number>();
      for (const phrase of phrases) {
        const countTerm = phrase.counts && !counted.has(phrase.term);
        const bit = countTerm && counted.size < 31 ? 1 << counted.size : 0;
        if (countTerm) {
          counted.add(phrase.term);
          bitOf.set(phrase.term, bit);
        }
        // An abbreviation gives its word's coverage to a symbol that lacks the word.
        const gives = phrase.of === undefined ? 0 : bitOf.get(phrase.of) ?? 0;
        const share = phrase.of === undefined ? 1 : abbreviationWeight;
        // The phrase's weighted count per document, summed over its terms.
        let nHit = 0;
        for (
          const t of this.#search.lookup(phrase.term, phrase.prefix) ?? []
        ) {
          if (t + 1 < postStart.length) {
            const end = postStart[t + 1]!;
            for (let i = postStart[t]!; i < end; i++) {
              const d = postDoc[i]!;
              // A document gone since the build (its file re-indexed) is not in the index.
              if (dead !== null && dead[d] === 1) continue;
              if (freq[d] === 0) docsOfPhrase[nHit++] = d;
              freq[d]! += postWeight[i]!;
            }
          }
          const more = added?.postings.get(t);
          if (more === undefined) continue;
          for (let i = 0; i < more.doc.length; i++) {
            const d = more.doc[i]!;
            if (freq[d] === 0) docsOfPhrase[nHit++] = d;
            freq[d]! += more.weight[i]!;
          }
        }
        if (nHit === 0) continue;
        let idf = Math.log((nRow - nHit + 0.5) / (nHit + 0.5));
        if (idf <= 0.0) idf = 1e-6;
        for (let k = 0; k < nHit; k++) {
          const d = docsOfPhrase[k]!;
          const f = freq[d]!;
          freq[d] = 0;
          if (score[d] === 0 && termHits[d] === 0) touchedDocs[nTouched++] = d;
          if (countTerm) {
            termHits[d]!++;
            termMask[d]! |= bit;
          } else if (gives !== 0 && (termMask[d]! & gives) === 0) {
            termHits[d]!++;
            termMask[d]! |= gives;
          }
          // The length part of the denominator, as FTS5 computes it: the same doubles.
          const norm = k1 * (1 - b + b * _field(p, "length", d) / avgdl);
          score[d]! += share * (idf * ((f * (k1 + 1.0)) / (f + norm)));
        }
      }
      const touched = touchedDocs.subarray(0, nTouched);
      const kept = this.#filtered(touched, options);
      return _best(p, kept, Math.max(1, Math.floor(options.limit)), scratch, counted.size);
    } finally {
      for (let i = 0; i < nTouched; i++) {
        const d = touchedDocs[i]!;
        freq[d] = 0;
        score[d] = 0;
        termHits[d] = 0;
        termMask[d] = 0;
      }
    }
  }
}

/**
 * The hits among the kept documents scoring at least the `limit`-th best score (so ties at the
 * cut are all there), unordered; `counted`: the query's counted terms (for coverage).
 */
function _best(
  p: SymbolPostings,
  kept: Int32Array,
  limit: number,
  scratch: _Scratch,
  counted: number,
): RankedSymbol[] {
  const { score, termHits, termMask } = scratch;
  const cut = kept.length <= limit ? -Infinity : _kthLargest(kept, score, limit);
  const out: RankedSymbol[] = [];
  for (const d of kept) {
    if (score[d]! < cut) continue;
    out.push({
      rowid: _field(p, "rowid", d),
      fileId: _field(p, "file", d),
      score: score[d]!,
      coverage: counted === 0 ? 1 : termHits[d]! / counted,
      terms: termMask[d]!,
    });
  }
  return out;
}

/** A per-document field of document `d`, built or added. */
function _field(
  p: SymbolPostings,
  field: "rowid" | "file" | "length" | "kind" | "language",
  d: number,
): number {
  const built = p.rowid.length;
  return d < built ? p[field][d]! : p.added![field][d - built]!;
}

/** Document numbers an index uses: the built ones (dead or not) and the added ones. */
function _documents(p: SymbolPostings): number {
  return p.rowid.length + (p.added?.rowid.length ?? 0);
}

/** Per-document scratch of a ranking (see `Bm25Ranker`). */
class _Scratch {
  readonly size: number;
  readonly freq: Float64Array;
  readonly score: Float64Array;
  readonly termHits: Uint16Array;
  readonly termMask: Int32Array;
  /** The documents of one phrase, then the documents touched by the query (no need of zero). */
  readonly phraseDocs: Int32Array;
  readonly touched: Int32Array;
  busy = false;

  constructor(size: number) {
    this.size = size;
    this.freq = new Float64Array(size);
    this.score = new Float64Array(size);
    this.termHits = new Uint16Array(size);
    this.termMask = new Int32Array(size);
    this.phraseDocs = new Int32Array(size);
    this.touched = new Int32Array(size);
  }
}

/** The scratch rankers share, while one holds it (then collected with the last). */
let _shared: WeakRef<_Scratch> | undefined;

/** Scratch of at least `size` documents: the shared one when large enough, else a new one. */
function _scratchFor(size: number): _Scratch {
  const shared = _shared?.deref();
  if (shared !== undefined && shared.size >= size) return shared;
  const fresh = new _Scratch(size);
  _shared = new WeakRef(fresh);
  return fresh;
}

/** The store's postings and statistics of a repo's symbols, one per index state. */
export const SYMBOL_SEARCH = facet("symbol-search", (view) => view.index.symbolSearch(), {
  // A few files re-indexed: their built documents go dead and their rows' documents are added
  // (a ranking then scores what a build's would). Built again once the added documents are many
  // (each is scored apart from the built ones): a tenth of the built ones, and at least 20,000.
  update: (view, previous, change) =>
    previous.addedSize > Math.max(20_000, previous.builtSize / 10)
      ? view.index.symbolSearch()
      : view.index.symbolSearchAfter(previous, change.paths),
});

/** The BM25 ranker of a repo's index state. */
export const BM25 = facet("bm25", (view) => new Bm25Ranker(view.get(SYMBOL_SEARCH)));

/** The `k`-th largest score among `docs` (a min-heap of the k best). */
function _kthLargest(docs: ArrayLike<number>, score: Float64Array, k: number): number {
  const heap = new Float64Array(k);
  let n = 0;
  for (let j = 0; j < docs.length; j++) {
    const s = score[docs[j]!]!;
    if (n < k) {
      let i = n++;
      heap[i] = s;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (heap[parent]! <= heap[i]!) break;
        const tmp = heap[parent]!;
        heap[parent] = heap[i]!;
        heap[i] = tmp;
        i = parent;
      }
    } else if (s > heap[0]!) {
      heap[0] = s;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < k && heap[l]! < heap[m]!) m = l;
        if (r < k && heap[r]! < heap[m]!) m = r;
        if (m === i) break;
        const tmp = heap[m]!;
        heap[m] = heap[i]!;
        heap[i] = tmp;
        i = m;
      }
    }
  }
  return heap[0]!;
}
