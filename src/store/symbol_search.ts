/**
 * The postings and statistics of one repo's symbols, in memory: an inverted index over the stored
 * `symbol_terms` rows (loaded once per index state) — per term the symbols holding it and their
 * weighted counts (name ×10, signature ×3, docstring ×1, summary ×1, keywords ×2), per symbol its
 * length, kind and language — and the term dictionary for exact and prefix lookups. The store
 * hands these out; the query layer scores them (`src/query/bm25.ts`), once.
 */
import { VarintReader } from "./symbol_terms.ts";

/** One stored `symbol_terms` row (see `symbol_terms.ts`). */
export interface SymbolTermsStored {
  file_id: number;
  labels: string;
  data: Uint8Array;
}

/**
 * The postings and statistics of one repo's symbols, as {@linkcode SymbolSearch.postings} hands
 * them out (read-only: the arrays are the index's own). Documents are dense indexes 0..size−1.
 */
export interface SymbolPostings {
  /** Per document: its symbol's rowid, file id, length in tokens, kind and language labels. */
  readonly rowid: Int32Array;
  readonly file: Int32Array;
  readonly length: Float64Array;
  readonly kind: Uint16Array;
  readonly language: Uint16Array;
  /** Kind and language label texts by label id. */
  readonly labels: readonly string[];
  /** The mean document length in tokens. */
  readonly avgdl: number;
  /**
   * Postings of term t: documents `doc[start[t] .. start[t + 1])`, with their weighted counts
   * (column weight × occurrences) in `weight` alike.
   */
  readonly start: Int32Array;
  readonly doc: Int32Array;
  readonly weight: Int32Array;
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

  /** The postings and statistics, for a scorer (`src/query/bm25.ts`). */
  postings(): SymbolPostings {
    return {
      rowid: this.#rowid,
      file: this.#file,
      length: this.#length,
      kind: this.#kind,
      language: this.#language,
      labels: this.#labels,
      avgdl: this.#avgdl,
      start: this.#postStart,
      doc: this.#postDoc,
      weight: this.#postWeight,
    };
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
}

function _grow<T extends Int32Array | Float64Array | Uint16Array>(a: T, least = 0): T {
  const next = new (a.constructor as new (n: number) => T)(Math.max(a.length * 2, least));
  next.set(a);
  return next;
}
