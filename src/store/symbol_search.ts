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

  /** The number of terms in the dictionary (−1 when none was set). */
  get dictionarySize(): number {
    return this.#terms?.length ?? -1;
  }

  /**
   * The index after the `symbol_terms` rows of the files `files` were written again, no file
   * added or removed (so every other row, the rows' order and the term ids are as they were):
   * those files' documents replaced by `rows` (their rows now, in file id order, only of
   * `files`); when they hold terms the dictionary lacks, `newTerms(size)` gives the terms with
   * an id from the dictionary's size on (ids are dense, never reused), in ascending order. Exactly what {@linkcode build} gives for the new rows, in one pass over the
   * postings instead of decoding every row of the repo.
   */
  static updated(
    old: SymbolSearch,
    files: ReadonlySet<number>,
    rows: Iterable<SymbolTermsStored>,
    newTerms: (fromId: number) => { terms: string[]; ids: number[] },
  ): SymbolSearch {
    const labels = [...old.#labels];
    const added = _decode(rows, labels);
    const order = _order(old.#file, files, added);
    const { fromOld, fromNew, size } = order;
    const docs: _Docs = {
      rowid: new Int32Array(size),
      file: new Int32Array(size),
      length: new Float64Array(size),
      kind: new Uint16Array(size),
      language: new Uint16Array(size),
    };
    const put = (k: number, from: ArrayLike<number>[], i: number) => {
      docs.rowid[k] = from[0]![i]!;
      docs.file[k] = from[1]![i]!;
      docs.length[k] = from[2]![i]!;
      docs.kind[k] = from[3]![i]!;
      docs.language[k] = from[4]![i]!;
    };
    const olds = [old.#rowid, old.#file, old.#length, old.#kind, old.#language];
    for (let i = 0; i < fromOld.length; i++) if (fromOld[i]! >= 0) put(fromOld[i]!, olds, i);
    const news = [added.rowid, added.file, added.length, added.kind, added.language];
    for (let j = 0; j < fromNew.length; j++) put(fromNew[j]!, news, j);
    const postings = _mergePostings(old, order, added);
    const search = new SymbolSearch(docs, labels, postings);
    if (old.#terms !== null && old.#termIds !== null) {
      const known = old.#terms.length;
      const dict = added.maxTerm < known
        ? { terms: old.#terms, ids: old.#termIds }
        : _mergeTerms(old.#terms, old.#termIds, newTerms(known));
      search.#terms = dict.terms;
      search.#termIds = dict.ids;
    }
    return search;
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
      const labelMap = _internLabels(r.labels, labels, labelIds);
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

/** Per-document arrays of an index being assembled. */
interface _Docs {
  rowid: Int32Array;
  file: Int32Array;
  length: Float64Array;
  kind: Uint16Array;
  language: Uint16Array;
}

/** Documents decoded from some `symbol_terms` rows, and their postings in document order. */
interface _Decoded {
  rowid: number[];
  file: number[];
  length: number[];
  kind: number[];
  language: number[];
  /** Per term: the decoded documents holding it (ascending) and their weights alike. */
  postings: Map<number, { doc: number[]; weight: number[] }>;
  /** The largest term id met, −1 when none. */
  maxTerm: number;
}

/**
 * A row's labels (space-separated) as ids into `labels`, adding the ones it lacks (`ids`: the
 * id of each label text in `labels`).
 */
function _internLabels(row: string, labels: string[], ids: Map<string, number>): number[] {
  return (row === "" ? [] : row.split(" ")).map((l) => {
    let id = ids.get(l);
    if (id === undefined) {
      ids.set(l, id = labels.length);
      labels.push(l);
    }
    return id;
  });
}

/** Decode rows into documents, their kind and language labels interned into `labels`. */
function _decode(rows: Iterable<SymbolTermsStored>, labels: string[]): _Decoded {
  const labelIds = new Map(labels.map((l, i) => [l, i]));
  const out: _Decoded = {
    rowid: [],
    file: [],
    length: [],
    kind: [],
    language: [],
    postings: new Map(),
    maxTerm: -1,
  };
  for (const r of rows) {
    const labelMap = _internLabels(r.labels, labels, labelIds);
    const values = new VarintReader(r.data);
    while (values.more) {
      const d = out.rowid.length;
      out.rowid.push(values.next());
      out.file.push(r.file_id);
      out.length.push(values.next());
      out.kind.push(labelMap[values.next()]!);
      out.language.push(labelMap[values.next()]!);
      const n = values.next();
      for (let i = 0; i < n; i++) {
        const t = values.next();
        let p = out.postings.get(t);
        if (p === undefined) out.postings.set(t, p = { doc: [], weight: [] });
        p.doc.push(d);
        p.weight.push(values.next());
        if (t > out.maxTerm) out.maxTerm = t;
      }
    }
  }
  return out;
}

/**
 * The new document order: the old documents not of `files` and the decoded ones (all of
 * `files`), merged by file id — as a build orders them (by row, a row per file). Returns each
 * old document's new index (−1: dropped), each decoded one's and the old document it comes
 * before, and the count.
 */
function _order(
  oldFile: Int32Array,
  files: ReadonlySet<number>,
  added: _Decoded,
): { fromOld: Int32Array; fromNew: Int32Array; oldAt: Int32Array; size: number } {
  const fromOld = new Int32Array(oldFile.length);
  const fromNew = new Int32Array(added.file.length);
  const oldAt = new Int32Array(added.file.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < oldFile.length || j < fromNew.length) {
    if (i < oldFile.length && files.has(oldFile[i]!)) {
      fromOld[i++] = -1;
    } else if (j < fromNew.length && (i >= oldFile.length || added.file[j]! < oldFile[i]!)) {
      oldAt[j] = i;
      fromNew[j++] = k++;
    } else {
      fromOld[i++] = k++;
    }
  }
  return { fromOld, fromNew, oldAt, size: k };
}

/** Merge two sorted lists of terms (and their ids); `b` holds no term of `a`. */
function _mergeTerms(
  a: string[],
  aIds: Int32Array,
  b: { terms: string[]; ids: number[] },
): { terms: string[]; ids: Int32Array } {
  const terms: string[] = new Array(a.length + b.terms.length);
  const ids = new Int32Array(terms.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < terms.length; k++) {
    if (j >= b.terms.length || (i < a.length && a[i]! < b.terms[j]!)) {
      terms[k] = a[i]!;
      ids[k] = aIds[i++]!;
    } else {
      terms[k] = b.terms[j]!;
      ids[k] = b.ids[j++]!;
    }
  }
  return { terms, ids };
}

/**
 * The postings after an update: per term, the old documents kept (renumbered by `fromOld`) and
 * the decoded ones (by `fromNew`; `oldAt[j]`: the old document the j-th one comes before), in
 * document order. Every old posting is renumbered in one pass; the few that go (documents
 * dropped) and the few that come are edits between which whole runs are copied.
 */
function _mergePostings(
  old: SymbolSearch,
  order: { fromOld: Int32Array; fromNew: Int32Array; oldAt: Int32Array },
  added: _Decoded,
): { start: Int32Array; doc: Int32Array; weight: Int32Array } {
  const { doc: oldDoc, weight: oldWeight, start: oldStart } = old.postings();
  const { fromOld, fromNew, oldAt } = order;
  const oldTerms = oldStart.length - 1;
  const total = oldDoc.length;
  const mapped = new Int32Array(total);
  const dropped: number[] = [];
  for (let i = 0; i < total; i++) {
    const d = fromOld[oldDoc[i]!]!;
    mapped[i] = d;
    if (d < 0) dropped.push(i);
  }
  // The postings that come: where each goes among the old ones, its term, document and weight.
  const inserts: { at: number; term: number; doc: number; weight: number }[] = [];
  for (const [term, p] of added.postings) {
    const lo = term < oldTerms ? oldStart[term]! : total;
    const hi = term < oldTerms ? oldStart[term + 1]! : total;
    for (let j = 0; j < p.doc.length; j++) {
      const at = _lowerBound(oldDoc, lo, hi, oldAt[p.doc[j]!]!);
      inserts.push({ at, term, doc: fromNew[p.doc[j]!]!, weight: p.weight[j]! });
    }
  }
  inserts.sort((a, b) => a.at - b.at || a.term - b.term || a.doc - b.doc);
  const size = total - dropped.length + inserts.length;
  const doc = new Int32Array(size);
  const weight = new Int32Array(size);
  let src = 0;
  let dst = 0;
  const copyTo = (end: number) => {
    doc.set(mapped.subarray(src, end), dst);
    weight.set(oldWeight.subarray(src, end), dst);
    dst += end - src;
    src = end;
  };
  for (let a = 0, r = 0; a < inserts.length || r < dropped.length;) {
    const nextInsert = a < inserts.length ? inserts[a]!.at : Infinity;
    const nextDrop = r < dropped.length ? dropped[r]! : Infinity;
    copyTo(Math.min(nextInsert, nextDrop));
    if (nextInsert <= nextDrop) {
      doc[dst] = inserts[a]!.doc;
      weight[dst++] = inserts[a++]!.weight;
    } else {
      src++;
      r++;
    }
  }
  copyTo(total);
  const start = _startsAfter(oldStart, Math.max(oldTerms, added.maxTerm + 1), total, [
    ...inserts.map((x) => [x.term, 1] as const),
    ...dropped.map((at) => [_termAt(oldStart, at), -1] as const),
  ]);
  return { start, doc, weight };
}

/** The first index in `a[lo..hi)` (ascending) whose value is at least `value`. */
function _lowerBound(a: Int32Array, lo: number, hi: number, value: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The term whose postings hold position `at`. */
function _termAt(start: Int32Array, at: number): number {
  // The last term starting at or before `at` with a posting there: start[t] <= at < start[t + 1].
  let lo = 0;
  let hi = start.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (start[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The postings' starts of `nTerms` terms after `changes` (a term, and +1 for a posting that came,
 * −1 for one that went), from the old starts (`total` postings before).
 */
function _startsAfter(
  oldStart: Int32Array,
  nTerms: number,
  total: number,
  changes: (readonly [number, number])[],
): Int32Array {
  changes.sort((a, b) => a[0] - b[0]);
  const oldTerms = oldStart.length - 1;
  const start = new Int32Array(nTerms + 1);
  let shift = 0;
  let c = 0;
  for (let t = 0; t <= nTerms; t++) {
    while (c < changes.length && changes[c]![0] < t) shift += changes[c++]![1];
    start[t] = (t < oldTerms ? oldStart[t]! : total) + shift;
  }
  return start;
}

function _grow<T extends Int32Array | Float64Array | Uint16Array>(a: T, least = 0): T {
  const next = new (a.constructor as new (n: number) => T)(Math.max(a.length * 2, least));
  next.set(a);
  return next;
}
