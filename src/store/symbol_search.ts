/**
 * In-memory symbol ranking for one repo: an inverted index over the stored `symbol_terms` rows
 * (loaded once per index state), scored with the same BM25 as FTS5's `bm25(symbols_fts, 10, 3, 1,
 * 1, 2)` over the same MATCH expression (every query word and identifier part as an exact and,
 * unless one character long, a prefix phrase, OR-ed). Scoring a common one-word query on a large repo (10k matching symbols)
 * takes well under a millisecond here; FTS5 computes BM25 row by row, several µs each.
 *
 * FTS5's BM25 (k1 = 1.2, b = 0.75): for each phrase p of the query,
 * `idf(p) · f·(k1 + 1) / (f + k1·(1 − b + b·|D|/avgdl))`, summed in phrase order, where f is the
 * weighted count of the phrase in the row, |D| the row's length in tokens (all columns),
 * `idf(p) = ln((N − n(p) + 0.5) / (n(p) + 0.5))` (1e-6 when not positive), n(p) the rows matching
 * p, N the rows. The same operations in the same order give the same doubles.
 */
import { splitIdentifier } from "./fts_text.ts";
import { queryTerm, VarintReader } from "./symbol_terms.ts";

const _K1 = 1.2;
const _B = 0.75;

/** One stored `symbol_terms` row (see `symbol_terms.ts`). */
export interface SymbolTermsStored {
  file_id: number;
  labels: string;
  data: Uint8Array;
}

/**
 * Term ids for a query term: the id of the term itself (`prefix` false, at most one) or of every
 * term that starts with it.
 */
export type TermLookup = (term: string, prefix: boolean) => readonly number[];

/** Options of {@linkcode SymbolSearch.rank}. */
export interface RankOptions {
  /** Hits wanted; every hit scoring at least the `limit`-th best is returned (ties at the cut). */
  limit: number;
  /** Only these kinds. */
  kinds?: readonly string[];
  /** Only this language. */
  language?: string;
  /** Only symbols of the files (ids) this accepts. */
  keepFile?: (fileId: number) => boolean;
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
function _queryPhrases(query: string): { term: string; prefix: boolean; counts: boolean }[] {
  const words = new Set<string>();
  for (const word of query.split(/\s+/)) {
    const whole = word.replace(/[^\p{L}\p{N}]+/gu, "").toLowerCase();
    if (whole !== "") words.add(whole);
    for (const part of splitIdentifier(word)) words.add(part);
  }
  const out: { term: string; prefix: boolean; counts: boolean }[] = [];
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

/** The inverted index of one repo's symbols. Build with {@linkcode SymbolSearch.build}. */
export class SymbolSearch {
  /** Per document (dense index): rowid, file id, length, kind label, language label. */
  readonly #rowid: Int32Array;
  readonly #file: Int32Array;
  readonly #length: Float64Array;
  readonly #kind: Uint16Array;
  readonly #language: Uint16Array;
  readonly #labels: string[];
  readonly #avgdl: number;
  /** Postings of term t: docs `#postDoc[#postStart[t] .. #postStart[t + 1])`, weights alike. */
  readonly #postStart: Int32Array;
  readonly #postDoc: Int32Array;
  readonly #postWeight: Int32Array;
  /** The term dictionary, when loaded: terms in ascending order and their ids. */
  #terms: string[] | null = null;
  #termIds: Int32Array | null = null;
  /** Scratch per document (zero between calls). */
  readonly #freq: Float64Array;
  readonly #score: Float64Array;
  readonly #termHits: Uint16Array;
  readonly #termMask: Int32Array;
  /** Per document: `k1 · (1 − b + b·|D|/avgdl)`, the length part of BM25's denominator. */
  readonly #norm: Float64Array;
  /** Scratch: the documents of one phrase, then the documents touched by the query. */
  readonly #phraseDocs: Int32Array;
  readonly #touched: Int32Array;

  private constructor(
    docs: {
      rowid: Int32Array;
      file: Int32Array;
      length: Float64Array;
      kind: Uint16Array;
      language: Uint16Array;
    },
    labels: string[],
    postings: { start: Int32Array; doc: Int32Array; weight: Int32Array },
  ) {
    this.#rowid = docs.rowid;
    this.#file = docs.file;
    this.#length = docs.length;
    this.#kind = docs.kind;
    this.#language = docs.language;
    this.#labels = labels;
    let total = 0;
    for (let d = 0; d < docs.length.length; d++) total += docs.length[d]!;
    this.#avgdl = docs.length.length === 0 ? 0 : total / docs.length.length;
    this.#postStart = postings.start;
    this.#postDoc = postings.doc;
    this.#postWeight = postings.weight;
    this.#freq = new Float64Array(docs.rowid.length);
    this.#score = new Float64Array(docs.rowid.length);
    this.#termHits = new Uint16Array(docs.rowid.length);
    this.#termMask = new Int32Array(docs.rowid.length);
    // The same operations in the same order as the score's denominator: the same doubles.
    this.#norm = new Float64Array(docs.rowid.length);
    for (let d = 0; d < docs.rowid.length; d++) {
      this.#norm[d] = _K1 * (1 - _B + _B * docs.length[d]! / this.#avgdl);
    }
    this.#phraseDocs = new Int32Array(docs.rowid.length);
    this.#touched = new Int32Array(docs.rowid.length);
  }

  /**
   * Keep the term dictionary (`symbol_term_ids`: terms with their ids) in memory, so that
   * {@linkcode lookup} needs no query. Any order; sorted here when not ascending.
   */
  setDictionary(terms: string[], ids: Int32Array): void {
    let sorted = true;
    for (let i = 1; i < terms.length && sorted; i++) {
      if (!(terms[i - 1]! < terms[i]!)) sorted = false;
    }
    if (!sorted) {
      const order = Array.from(terms.keys()).sort((a, b) =>
        terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0
      );
      terms = order.map((i) => terms[i]!);
      ids = Int32Array.from(order, (i) => ids[i]!);
    }
    this.#terms = terms;
    this.#termIds = ids;
  }

  /**
   * Ids of a term, or of every term starting with it, from the dictionary in memory; null when
   * no dictionary was set.
   */
  lookup(term: string, prefix: boolean): number[] | null {
    const terms = this.#terms;
    const ids = this.#termIds;
    if (terms === null || ids === null) return null;
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[mid]! < term) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    if (!prefix) {
      if (lo < terms.length && terms[lo] === term) out.push(ids[lo]!);
      return out;
    }
    for (let i = lo; i < terms.length && terms[i]!.startsWith(term); i++) out.push(ids[i]!);
    return out;
  }

  /** Number of symbols indexed. */
  get size(): number {
    return this.#rowid.length;
  }

  /**
   * Build the index from every `symbol_terms` row of a repo. `rows` is read twice — first to
   * count the documents and the postings of each term, then to fill arrays of exactly that
   * size — so no intermediate list of all (document, term, weight) triples is held: for the Go
   * standard library (142k symbols, 2.1M postings) that list and its growth held 25–50 MB while
   * the first search answered.
   */
  static build(rows: () => Iterable<SymbolTermsStored>): SymbolSearch {
    // Pass 1: documents, and postings per term.
    let nDocs = 0;
    let counts = new Int32Array(1024);
    let nTerms = 0;
    for (const r of rows()) {
      const values = new VarintReader(r.data);
      while (values.more) {
        values.next(); // rowid
        values.next(); // length
        values.next(); // kind
        values.next(); // language
        const n = values.next();
        for (let i = 0; i < n; i++) {
          const t = values.next();
          values.next(); // weight
          if (t >= counts.length) counts = _grow(counts, t + 1);
          counts[t]!++;
          if (t >= nTerms) nTerms = t + 1;
        }
        nDocs++;
      }
    }
    const start = new Int32Array(nTerms + 1);
    for (let t = 0; t < nTerms; t++) start[t + 1] = start[t]! + counts[t]!;
    const fill = start.slice(0, nTerms);
    const nPostings = start[nTerms]!;
    const doc = new Int32Array(nPostings);
    // Weighted term counts are integers (column weight × occurrences): exact in 32 bits.
    const weight = new Int32Array(nPostings);
    const rowid = new Int32Array(nDocs);
    const file = new Int32Array(nDocs);
    const length = new Float64Array(nDocs);
    const kind = new Uint16Array(nDocs);
    const language = new Uint16Array(nDocs);
    const labelIds = new Map<string, number>();
    const labels: string[] = [];
    // Pass 2: the same rows, in the same order, into the arrays (postings in document order).
    let d = 0;
    for (const r of rows()) {
      const localLabels = r.labels === "" ? [] : r.labels.split(" ");
      const labelMap = localLabels.map((l) => {
        let id = labelIds.get(l);
        if (id === undefined) {
          labelIds.set(l, id = labels.length);
          labels.push(l);
        }
        return id;
      });
      const values = new VarintReader(r.data);
      while (values.more) {
        if (d >= nDocs) throw new Error("symbol_terms changed while the ranking index was built");
        rowid[d] = values.next();
        file[d] = r.file_id;
        length[d] = values.next();
        kind[d] = labelMap[values.next()]!;
        language[d] = labelMap[values.next()]!;
        const n = values.next();
        for (let i = 0; i < n; i++) {
          const t = values.next();
          const at = fill[t]!++;
          doc[at] = d;
          weight[at] = values.next();
        }
        d++;
      }
    }
    if (d !== nDocs) throw new Error("symbol_terms changed while the ranking index was built");
    return new SymbolSearch({ rowid, file, length, kind, language }, labels, {
      start,
      doc,
      weight,
    });
  }

  /**
   * The symbols matching `query` with their BM25 score: every hit scoring at least the
   * `limit`-th best score (so ties at the cut are all there), unordered.
   */
  rank(query: string, lookup: TermLookup, options: RankOptions): RankedSymbol[] {
    const phrases = _queryPhrases(query);
    const nRow = this.#rowid.length;
    if (phrases.length === 0 || nRow === 0) return [];
    const freq = this.#freq;
    const score = this.#score;
    const termHits = this.#termHits;
    const termMask = this.#termMask;
    const norm = this.#norm;
    const postStart = this.#postStart;
    const postDoc = this.#postDoc;
    const postWeight = this.#postWeight;
    const docsOfPhrase = this.#phraseDocs;
    const touchedDocs = this.#touched;
    let nTouched = 0;
    // Coverage counts each distinct term once, on its prefix phrase (which includes the exact one),
    // or on its exact phrase when it has no prefix phrase (one character).
    const counted = new Set<string>();
    for (const phrase of phrases) {
      const countTerm = phrase.counts && !counted.has(phrase.term);
      const bit = countTerm && counted.size < 31 ? 1 << counted.size : 0;
      if (countTerm) counted.add(phrase.term);
      // The phrase's weighted count per document, summed over its terms.
      let nHit = 0;
      for (
        const t of this.lookup(phrase.term, phrase.prefix) ?? lookup(phrase.term, phrase.prefix)
      ) {
        if (t + 1 >= postStart.length) continue;
        const end = postStart[t + 1]!;
        for (let i = postStart[t]!; i < end; i++) {
          const d = postDoc[i]!;
          if (freq[d] === 0) docsOfPhrase[nHit++] = d;
          freq[d]! += postWeight[i]!;
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
        }
        score[d]! += idf * ((f * (_K1 + 1.0)) / (f + norm[d]!));
      }
    }
    const touched = touchedDocs.subarray(0, nTouched);
    // Filters, then the cut at the limit-th best score.
    const kinds = options.kinds === undefined || options.kinds.length === 0
      ? null
      : new Set(options.kinds);
    const language = options.language;
    const fileOk = new Map<number, boolean>();
    let kept: Int32Array = touched;
    if (kinds !== null || language !== undefined || options.keepFile !== undefined) {
      let nKept = 0;
      kept = new Int32Array(nTouched);
      for (const d of touched) {
        if (kinds !== null && !kinds.has(this.#labels[this.#kind[d]!]!)) continue;
        if (language !== undefined && this.#labels[this.#language[d]!] !== language) continue;
        if (options.keepFile !== undefined) {
          const f = this.#file[d]!;
          let ok = fileOk.get(f);
          if (ok === undefined) fileOk.set(f, ok = options.keepFile(f));
          if (!ok) continue;
        }
        kept[nKept++] = d;
      }
      kept = kept.subarray(0, nKept);
    }
    const limit = Math.max(1, Math.floor(options.limit));
    const cut = kept.length <= limit ? -Infinity : _kthLargest(kept, score, limit);
    const out: RankedSymbol[] = [];
    for (const d of kept) {
      if (score[d]! >= cut) {
        out.push({
          rowid: this.#rowid[d]!,
          fileId: this.#file[d]!,
          score: score[d]!,
          coverage: counted.size === 0 ? 1 : termHits[d]! / counted.size,
          terms: termMask[d]!,
        });
      }
    }
    for (const d of touched) {
      score[d] = 0;
      termHits[d] = 0;
      termMask[d] = 0;
    }
    return out;
  }
}

function _grow<T extends Int32Array | Float64Array | Uint16Array>(a: T, least = 0): T {
  const next = new (a.constructor as new (n: number) => T)(Math.max(a.length * 2, least));
  next.set(a);
  return next;
}

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
