/**
 * The postings and statistics of one repo's symbols, in memory: an inverted index over the stored
 * `symbol_terms` rows (built once, then updated after each small change: see
 * {@linkcode SymbolSearch.updated}) — per term the symbols holding it and their weighted counts
 * (name ×10, signature ×3, docstring ×1, summary ×1, keywords ×2), per symbol its length, kind and
 * language — and the term dictionary for exact and prefix lookups. The store hands these out; the
 * query layer scores them (`src/query/bm25.ts`), once.
 */
import { VarintReader } from "./symbol_terms.ts";

/** One stored `symbol_terms` row (see `symbol_terms.ts`). */
export interface SymbolTermsStored {
  file_id: number;
  labels: string;
  data: Uint8Array;
}

/**
 * Documents added to an index since it was built (the symbols of files re-indexed since),
 * numbered on from the built documents: the i-th is document `base + i`.
 */
export interface AddedDocs {
  /** Per added document (index i): rowid, file id, length, kind and language labels. */
  readonly rowid: Int32Array;
  readonly file: Int32Array;
  readonly length: Float64Array;
  readonly kind: Uint16Array;
  readonly language: Uint16Array;
  /** Postings of term t among them: documents ascending (numbered from `base`), weights alike. */
  readonly postings: ReadonlyMap<number, { readonly doc: Int32Array; readonly weight: Int32Array }>;
}

/**
 * The postings and statistics of one repo's symbols, as {@linkcode SymbolSearch.postings} hands
 * them out (read-only: the arrays are the index's own). The documents of the build are dense
 * indexes 0..rowid.length−1, some of them gone (`dead`) once files were re-indexed, whose
 * documents now are `added` after them.
 */
export interface SymbolPostings {
  /** Per built document: its symbol's rowid, file id, length in tokens, kind and language labels. */
  readonly rowid: Int32Array;
  readonly file: Int32Array;
  readonly length: Float64Array;
  readonly kind: Uint16Array;
  readonly language: Uint16Array;
  /** Kind and language label texts by label id. */
  readonly labels: readonly string[];
  /** The mean length in tokens of the documents in the index (the live ones). */
  readonly avgdl: number;
  /**
   * Postings of term t among the built documents: `doc[start[t] .. start[t + 1])`, with their
   * weighted counts (column weight × occurrences) in `weight` alike.
   */
  readonly start: Int32Array;
  readonly doc: Int32Array;
  readonly weight: Int32Array;
  /** Documents in the index: the built ones not dead, and the added ones. */
  readonly live: number;
  /** Per built document, 1 when it is gone since (its file re-indexed); null when none is. */
  readonly dead: Uint8Array | null;
  /** The documents added since the build; null when none are. */
  readonly added: AddedDocs | null;
}

/** What an index has been through since its build (see {@linkcode SymbolSearch.updated}). */
interface _Since {
  dead: Uint8Array | null;
  added: AddedDocs | null;
  /** The current rows of the files re-indexed since the build, by file id. */
  rows: ReadonlyMap<number, SymbolTermsStored>;
  /** How many built documents are dead, and the total length of the others. */
  deadCount: number;
  builtLength: number;
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
  readonly #live: number;
  readonly #since: _Since;
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
    since?: _Since,
  ) {
    this.#rowid = docs.rowid;
    this.#file = docs.file;
    this.#length = docs.length;
    this.#kind = docs.kind;
    this.#language = docs.language;
    this.#labels = labels;
    let builtLength = 0;
    if (since === undefined) {
      for (let d = 0; d < docs.length.length; d++) builtLength += docs.length[d]!;
    }
    this.#since = since ?? { dead: null, added: null, rows: new Map(), deadCount: 0, builtLength };
    // Lengths are integers: their sum is exact in doubles, whatever the order of the adds.
    let total = this.#since.builtLength;
    let live = docs.rowid.length - this.#since.deadCount;
    const added = this.#since.added;
    if (added !== null) {
      live += added.rowid.length;
      for (let i = 0; i < added.length.length; i++) total += added.length[i]!;
    }
    this.#live = live;
    this.#avgdl = live === 0 ? 0 : total / live;
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
    return this.#live;
  }

  /** Documents added since the build (by updates). */
  get addedSize(): number {
    return this.#since.added?.rowid.length ?? 0;
  }

  /** Documents of the build. */
  get builtSize(): number {
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
      live: this.#live,
      dead: this.#since.dead,
      added: this.#since.added,
    };
  }

  /** The number of terms in the dictionary (−1 when none was set). */
  get dictionarySize(): number {
    return this.#terms?.length ?? -1;
  }

  /**
   * The index after the `symbol_terms` rows of the files `files` were written again, no file
   * added or removed (so the term ids are as they were): `rows` are those files' rows now (only
   * of `files`; a file with no symbols has none). Their built documents are marked dead and
   * their rows' documents added after the built ones, so the built arrays are shared, not
   * copied (on the linux source, 37M postings: copying them took 1.7-2.4 s, most of it the first
   * touch of new memory). A ranking over it scores exactly what a build's would: the same live
   * documents, lengths, postings and weights, in another order. When the rows hold terms the
   * dictionary lacks, `newTerms(size)` gives the terms with an id from the dictionary's size on
   * (ids are dense, never reused), in ascending order.
   */
  static updated(
    old: SymbolSearch,
    files: ReadonlySet<number>,
    rows: Iterable<SymbolTermsStored>,
    newTerms: (fromId: number) => { terms: string[]; ids: number[] },
  ): SymbolSearch {
    const since = old.#since;
    const built = old.#rowid.length;
    let dead = since.dead;
    let deadCount = since.deadCount;
    let builtLength = since.builtLength;
    for (const f of files) {
      // The built documents of a file are contiguous (rows in file id order).
      const lo = _lowerBound(old.#file, 0, built, f);
      const hi = _lowerBound(old.#file, lo, built, f + 1);
      for (let d = lo; d < hi; d++) {
        if (dead !== null && dead[d] === 1) continue;
        if (dead === since.dead) dead = dead === null ? new Uint8Array(built) : dead.slice();
        dead![d] = 1;
        deadCount++;
        builtLength -= old.#length[d]!;
      }
    }
    const current = new Map(since.rows);
    for (const f of files) current.delete(f);
    for (const r of rows) current.set(r.file_id, r);
    const labels = [...old.#labels];
    const order = [...current.keys()].sort((a, b) => a - b).map((f) => current.get(f)!);
    const decoded = _decode(order, labels);
    const added = _addedDocs(decoded, built);
    const search = new SymbolSearch(
      {
        rowid: old.#rowid,
        file: old.#file,
        length: old.#length,
        kind: old.#kind,
        language: old.#language,
      },
      labels,
      { start: old.#postStart, doc: old.#postDoc, weight: old.#postWeight },
      { dead, added, rows: current, deadCount, builtLength },
    );
    if (old.#terms !== null && old.#termIds !== null) {
      const known = old.#terms.length;
      const dict = decoded.maxTerm < known
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

/** Decoded documents as added documents, numbered from `base`. */
function _addedDocs(decoded: _Decoded, base: number): AddedDocs | null {
  if (decoded.rowid.length === 0) return null;
  const postings = new Map<number, { doc: Int32Array; weight: Int32Array }>();
  for (const [term, p] of decoded.postings) {
    postings.set(term, {
      doc: Int32Array.from(p.doc, (d) => base + d),
      weight: Int32Array.from(p.weight),
    });
  }
  return {
    rowid: Int32Array.from(decoded.rowid),
    file: Int32Array.from(decoded.file),
    length: Float64Array.from(decoded.length),
    kind: Uint16Array.from(decoded.kind),
    language: Uint16Array.from(decoded.language),
    postings,
  };
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

/** The first index in `a[lo..hi)` (ascending) whose value is at least `value`. */
function _lowerBound(a: Int32Array, lo: number, hi: number, value: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function _grow<T extends Int32Array | Float64Array | Uint16Array>(a: T, least = 0): T {
  const next = new (a.constructor as new (n: number) => T)(Math.max(a.length * 2, least));
  next.set(a);
  return next;
}
