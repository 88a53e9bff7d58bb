/**
 * The symbol search terms of each file, stored next to the symbols (`symbol_terms`, one row per
 * file) so that a reader can rank symbols in memory (`symbol_search.ts`) instead of asking FTS5
 * to compute BM25 for every matching row.
 *
 * Terms are the tokens of the FTS5 `porter unicode61 remove_diacritics 2` tokenizer that
 * `symbols_fts` uses, over the same five columns (name tokens, signature, docstring, summary,
 * keywords), so both give the same matches and the same BM25: {@linkcode tokenize} splits and
 * folds text like `unicode61` and {@linkcode _porterStem} is the Porter (1980) stemmer with the
 * same rules and conditions as SQLite's `porter` tokenizer. The tests compare both with SQLite.
 *
 * A row holds, per symbol, its rowid, its length in tokens (all columns) and for each distinct
 * term the weighted count (name ×10, signature ×3, docstring ×1, summary ×1, keywords ×2 — the
 * weights of the `bm25()` call the search used).
 */
import type { SymbolRecord } from "../parser/types.ts";
import type { DatabaseSync } from "./sqlite.ts";
import { nameTokens } from "./fts_text.ts";

/** Column weights, in column order: name tokens, signature, docstring, summary, keywords. */
const _COLUMN_WEIGHTS = [10, 3, 1, 1, 2] as const;

/** Token characters of `unicode61` (categories L*, N*, Co, plus combining diacritics). */
const _TOKEN = /[\p{L}\p{N}\p{Co}\u0300-\u036f]+/gu;
/** Latin letters with diacritics that `remove_diacritics 2` folds to their base letter. */
const _ACCENTED = /[\u00c0-\u024f\u1e00-\u1eff\u0300-\u036f]/;
// deno-lint-ignore no-control-regex
const _NON_ASCII = /[^\x00-\x7f]/;
/** Case folds where Unicode's simple folding differs from `toLowerCase()`. */
const _FOLD: Record<string, string> = { "\u00b5": "\u03bc", "\u017f": "s", "\u1e9e": "ss" };

/**
 * Splits text into the tokens of the FTS5 tokenizer `porter unicode61 remove_diacritics 2`:
 * runs of letters and digits, lower-cased, diacritics removed, Porter-stemmed. Stems are
 * memoised per instance (a repo has far fewer distinct words than words).
 */
export class Tokenizer {
  readonly #stems = new Map<string, string>();
  readonly #memoLimit: number;

  /** @param memoLimit most stems kept (0: none, for callers that memoise words themselves) */
  constructor(memoLimit = 1_000_000) {
    this.#memoLimit = memoLimit;
  }

  /** The tokens of `text`, in order. */
  tokenize(text: string): string[] {
    const out: string[] = [];
    if (_NON_ASCII.test(text)) {
      for (const m of text.matchAll(_TOKEN)) {
        const t = _foldToken(m[0]);
        if (t !== "") out.push(this.stem(t));
      }
      return out;
    }
    // ASCII: letters and digits only, no regular expression.
    let start = -1;
    for (let i = 0; i <= text.length; i++) {
      const c = i < text.length ? text.charCodeAt(i) : 0;
      const alnum = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
      if (alnum) {
        if (start < 0) start = i;
      } else if (start >= 0) {
        out.push(this.stem(text.slice(start, i).toLowerCase()));
        start = -1;
      }
    }
    return out;
  }

  /** The Porter stem of a folded token (memoised {@linkcode _porterStem}). */
  stem(token: string): string {
    let s = this.#stems.get(token);
    if (s === undefined) {
      s = _porterStem(token);
      if (this.#stems.size < this.#memoLimit) this.#stems.set(token, s);
    }
    return s;
  }
}

/** {@linkcode Tokenizer.tokenize} without memoised stems. */
export function tokenize(text: string): string[] {
  return new Tokenizer().tokenize(text);
}

/** Lower-case and strip diacritics (for non-ASCII text) like `unicode61 remove_diacritics 2`. */
function _foldToken(word: string): string {
  let t = word.toLowerCase();
  if (!_NON_ASCII.test(t)) return t;
  t = t.replace(/[\u00b5\u017f\u1e9e]/g, (c) => _FOLD[c]!);
  if (_ACCENTED.test(t)) {
    t = t.normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFC");
  }
  return t;
}

/**
 * The query term for one search word as FTS5 tokenizes a quoted phrase (also for a prefix
 * phrase: the porter tokenizer stems those too), or `""` when nothing is left.
 */
export function queryTerm(word: string): string {
  const tokens = tokenize(word);
  return tokens.length === 0 ? "" : tokens[0]!;
}

// --- Porter stemmer ---------------------------------------------------------------------------

const _VOWELS = "aeiou";

/** Consonant flags of `w[0..n)`: `y` is a vowel after a consonant, a consonant otherwise. */
function _consonants(w: string, n: number): boolean[] {
  const c: boolean[] = [];
  let prev = false;
  for (let i = 0; i < n; i++) {
    const ch = w[i]!;
    const vowel: boolean = _VOWELS.includes(ch) || (ch === "y" && prev);
    c.push(prev = !vowel);
  }
  return c;
}

/** Porter's measure m of `w[0..n)`: the number of vowel-consonant sequences. */
function _measure(w: string, n: number): number {
  const c = _consonants(w, n);
  let m = 0;
  for (let i = 1; i < n; i++) if (c[i] && !c[i - 1]) m++;
  return m;
}

/** `*v*`: `w[0..n)` contains a vowel (`y` counts unless it is the first letter). */
function _hasVowel(w: string, n: number): boolean {
  for (let i = 0; i < n; i++) {
    const ch = w[i]!;
    if (_VOWELS.includes(ch) || (ch === "y" && i > 0)) return true;
  }
  return false;
}

/** `*o`: `w[0..n)` ends consonant-vowel-consonant, the last not `w`, `x` or `y`. */
function _cvc(w: string, n: number): boolean {
  if (n < 3) return false;
  const last = w[n - 1]!;
  if (last === "w" || last === "x" || last === "y") return false;
  const c = _consonants(w, n);
  return c[n - 1]! && !c[n - 2]! && c[n - 3]!;
}

type _Cond = (w: string, n: number) => boolean;
const _m0: _Cond = (w, n) => _measure(w, n) > 0;
const _m1: _Cond = (w, n) => _measure(w, n) > 1;
const _m1st: _Cond = (w, n) => (w[n - 1] === "s" || w[n - 1] === "t") && _measure(w, n) > 1;

/** A suffix rule: suffix, replacement, condition on the stem before the suffix. */
type _Rule = readonly [string, string, _Cond];

const _STEP2: readonly _Rule[] = [
  ["ational", "ate", _m0],
  ["tional", "tion", _m0],
  ["enci", "ence", _m0],
  ["anci", "ance", _m0],
  ["izer", "ize", _m0],
  ["logi", "log", _m0],
  ["bli", "ble", _m0],
  ["alli", "al", _m0],
  ["entli", "ent", _m0],
  ["eli", "e", _m0],
  ["ousli", "ous", _m0],
  ["ization", "ize", _m0],
  ["ation", "ate", _m0],
  ["ator", "ate", _m0],
  ["alism", "al", _m0],
  ["iveness", "ive", _m0],
  ["fulness", "ful", _m0],
  ["ousness", "ous", _m0],
  ["aliti", "al", _m0],
  ["iviti", "ive", _m0],
  ["biliti", "ble", _m0],
];

const _STEP3: readonly _Rule[] = [
  ["ical", "ic", _m0],
  ["ness", "", _m0],
  ["icate", "ic", _m0],
  ["iciti", "ic", _m0],
  ["ful", "", _m0],
  ["ative", "", _m0],
  ["alize", "al", _m0],
];

const _STEP4: readonly _Rule[] = [
  ["al", "", _m1],
  ["ance", "", _m1],
  ["ence", "", _m1],
  ["er", "", _m1],
  ["ic", "", _m1],
  ["able", "", _m1],
  ["ible", "", _m1],
  ["ant", "", _m1],
  ["ement", "", _m1],
  ["ment", "", _m1],
  ["ent", "", _m1],
  ["ion", "", _m1st],
  ["ou", "", _m1],
  ["ism", "", _m1],
  ["ate", "", _m1],
  ["iti", "", _m1],
  ["ous", "", _m1],
  ["ive", "", _m1],
  ["ize", "", _m1],
];

/**
 * Apply the first rule whose suffix ends the word (and is shorter than it); only that rule is
 * tried, whether its condition holds or not.
 */
function _step(w: string, rules: readonly _Rule[]): string {
  for (const [suffix, replacement, cond] of rules) {
    if (suffix.length < w.length && w.endsWith(suffix)) {
      const n = w.length - suffix.length;
      return cond(w, n) ? w.slice(0, n) + replacement : w;
    }
  }
  return w;
}

/** Stem one ASCII (or UTF-8 byte-string) token. */
function _stemBytes(word: string): string {
  let w = word;
  // Step 1a.
  if (w.endsWith("s")) {
    if (w[w.length - 2] === "e") {
      const n = w.length;
      if ((n > 4 && w[n - 4] === "s" && w[n - 3] === "s") || (n > 3 && w[n - 3] === "i")) {
        w = w.slice(0, -2);
      } else {
        w = w.slice(0, -1);
      }
    } else if (w[w.length - 2] !== "s") {
      w = w.slice(0, -1);
    }
  }
  // Step 1b.
  let removed = false;
  if (w.length > 3 && w.endsWith("eed")) {
    if (_m0(w, w.length - 3)) w = w.slice(0, -1);
  } else if (w.length > 2 && w.endsWith("ed")) {
    if (_hasVowel(w, w.length - 2)) {
      w = w.slice(0, -2);
      removed = true;
    }
  } else if (w.length > 3 && w.endsWith("ing")) {
    if (_hasVowel(w, w.length - 3)) {
      w = w.slice(0, -3);
      removed = true;
    }
  }
  if (removed) {
    if (w.length > 2 && (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz"))) {
      w += "e";
    } else {
      const c = w[w.length - 1]!;
      if (
        !_VOWELS.includes(c) && c !== "l" && c !== "s" && c !== "z" && w.length >= 2 &&
        c === w[w.length - 2]
      ) {
        w = w.slice(0, -1);
      } else if (_measure(w, w.length) === 1 && _cvc(w, w.length)) {
        w += "e";
      }
    }
  }
  // Step 1c.
  if (w.endsWith("y") && _hasVowel(w, w.length - 1)) w = w.slice(0, -1) + "i";
  // Steps 2-4.
  w = _step(w, _STEP2);
  w = _step(w, _STEP3);
  w = _step(w, _STEP4);
  // Step 5a.
  if (w.endsWith("e")) {
    const m = _measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !_cvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  // Step 5b.
  if (w.length > 1 && w.endsWith("ll") && _measure(w, w.length - 1) > 1) w = w.slice(0, -1);
  return w;
}

const _utf8 = new TextEncoder();
const _fromUtf8 = new TextDecoder();

/**
 * The Porter stem of a folded token, as SQLite's `porter` tokenizer computes it: tokens shorter
 * than 3 or longer than 64 bytes (UTF-8) are left as they are; other characters than ASCII
 * letters count as consonants, byte by byte.
 */
function _porterStem(token: string): string {
  if (!_NON_ASCII.test(token)) {
    return token.length < 3 || token.length > 64 ? token : _stemBytes(token);
  }
  const bytes = _utf8.encode(token);
  if (bytes.length < 3 || bytes.length > 64) return token;
  // The rules only remove or replace ASCII letters at the end, so the stem is valid UTF-8.
  const stem = _stemBytes(String.fromCharCode(...bytes));
  return _fromUtf8.decode(Uint8Array.from(stem, (ch) => ch.charCodeAt(0)));
}

// --- Stored rows --------------------------------------------------------------------------------

/** The tables, created by the schema (version 2) and by the migration from version 1. */
export const SYMBOL_TERMS_DDL = `
CREATE TABLE symbol_term_ids(
  term TEXT PRIMARY KEY,
  id INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE symbol_terms(
  file_id INTEGER PRIMARY KEY,
  labels TEXT NOT NULL,
  data BLOB NOT NULL
);
`;

/** The searchable text of a symbol, in `symbols_fts` column order. */
export type SymbolTexts = readonly [string, string, string, string, string];

/** The `symbols_fts` column texts of a parsed symbol (keywords as stored: a JSON list). */
function _symbolTexts(s: SymbolRecord): SymbolTexts {
  return [
    nameTokens(s.name, s.qualified_name),
    s.signature,
    s.docstring,
    s.summary,
    s.keywords.length === 0 ? "[]" : JSON.stringify(s.keywords),
  ];
}

/** One symbol of a file, for {@linkcode SymbolTermsWriter.put}. */
export interface SymbolTermsInput {
  rowid: number;
  kind: string;
  language: string;
  texts: SymbolTexts;
}

/**
 * Keeps `symbol_terms` and the term ids (`symbol_term_ids`) of one index in step with its
 * symbols, inside the writer's transaction. Term ids are never reused; a term whose symbols are
 * all gone keeps its id (a full rebuild starts over).
 *
 * A `symbol_terms` row is the file's distinct kinds and languages (`labels`, space-separated)
 * and `data`: varints, per symbol `rowid, length in tokens, kind label, language label, term
 * count`, then per distinct term `term id, weighted count`.
 */
export class SymbolTermsWriter {
  readonly #db: DatabaseSync;
  /** Words are memoised by {@linkcode _WordTable}; stems only for the rare non-ASCII text. */
  readonly #tokenizer = new Tokenizer(10_000);
  readonly #ids = new Map<string, number>();
  /** Term ids by ASCII word as written (before folding and stemming). */
  readonly #words = new _WordTable();
  /** New terms not inserted yet: term, id, term, id, … */
  #pendingTerms: (string | number)[] = [];
  /**
   * Scratch: weighted count per term id of the symbol being written (zero between symbols), in
   * an array for the first {@linkcode _DENSE_TERMS} ids (the common terms: ids are given in
   * order of first use) and a map for the rest — an array as long as the dictionary (2.9M terms
   * in the linux source) cost a writer of one file ~135 ms to grow and first touch.
   */
  readonly #weights = new Float64Array(_DENSE_TERMS);
  readonly #sparseWeights = new Map<number, number>();
  #nextId: number | undefined;
  /** True after {@linkcode clear}: no stored id needs looking up. */
  #empty = false;
  #statements = new Map<string, ReturnType<DatabaseSync["prepare"]>>();

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  #stmt(sql: string) {
    let s = this.#statements.get(sql);
    if (s === undefined) this.#statements.set(sql, s = this.#db.prepare(sql));
    return s;
  }

  /** Forget every row (a full rebuild). */
  clear(): void {
    this.#db.exec("DELETE FROM symbol_terms; DELETE FROM symbol_term_ids;");
    this.#ids.clear();
    this.#words.clear();
    this.#pendingTerms = [];
    this.#nextId = 0;
    this.#empty = true;
  }

  /** Remove a file's row. */
  deleteFile(fileId: number): void {
    this.#stmt("DELETE FROM symbol_terms WHERE file_id = ?").run(fileId);
  }

  /** Write a file's row from its parsed symbols, whose rowids are `rowidBase + index`. */
  putSymbols(fileId: number, rowidBase: number, symbols: readonly SymbolRecord[]): void {
    this.put(
      fileId,
      symbols.map((s, i) => ({
        rowid: rowidBase + i,
        kind: s.kind,
        language: s.language,
        texts: _symbolTexts(s),
      })),
    );
  }

  /**
   * Write the row of every file from the stored symbols, in one pass (a full rebuild defers the
   * rows to this: after parsing, the main thread has a core to itself).
   */
  fillAll(): void {
    const stmt = this.#db.prepare(
      `SELECT file_id, rowid, kind, language, name_tokens, signature, docstring, summary, keywords
       FROM symbols ORDER BY file_id, rowid`,
    );
    // Rows as arrays (no object per row) where node:sqlite offers it.
    const arrays = stmt as unknown as { setReturnArrays?: (on: boolean) => void };
    const asArrays = typeof arrays.setReturnArrays === "function";
    if (asArrays) arrays.setReturnArrays!(true);
    type Row = [number, number, string, string, string, string, string, string, string];
    let file = -1;
    let symbols: SymbolTermsInput[] = [];
    for (const raw of stmt.iterate()) {
      const r = (asArrays ? raw : Object.values(raw as Record<string, unknown>)) as Row;
      if (r[0] !== file) {
        if (symbols.length > 0) this.put(file, symbols);
        file = r[0];
        symbols = [];
      }
      symbols.push({
        rowid: r[1],
        kind: r[2],
        language: r[3],
        texts: [r[4], r[5], r[6], r[7], r[8]],
      });
    }
    if (symbols.length > 0) this.put(file, symbols);
  }

  /** Write (replace) a file's row; no row when it has no symbols. */
  put(fileId: number, symbols: readonly SymbolTermsInput[]): void {
    if (symbols.length === 0) {
      this.deleteFile(fileId);
      return;
    }
    const labelIds = new Map<string, number>();
    const label = (s: string) => {
      let id = labelIds.get(s);
      if (id === undefined) labelIds.set(s, id = labelIds.size);
      return id;
    };
    const out = new _Varints();
    for (const s of symbols) {
      // Weighted counts by term id in a reused scratch array; `seen` lists the ids in order.
      const seen: number[] = [];
      let length = 0;
      for (let col = 0; col < 5; col++) {
        const w = _COLUMN_WEIGHTS[col]!;
        const text = s.texts[col]!;
        if (_NON_ASCII.test(text)) {
          for (const t of this.#tokenizer.tokenize(text)) {
            length++;
            this.#count(this.#termId(t), w, seen);
          }
          continue;
        }
        // ASCII: words found and looked up by a hash of their characters, without slicing.
        let start = -1;
        let hash = 0;
        for (let i = 0; i <= text.length; i++) {
          const c = i < text.length ? text.charCodeAt(i) : 0;
          if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90)) {
            if (start < 0) {
              start = i;
              hash = 0x811c9dc5;
            }
            hash = Math.imul(hash ^ c, 0x01000193);
          } else if (start >= 0) {
            length++;
            let id = this.#words.get(text, start, i, hash);
            if (id < 0) {
              const word = text.slice(start, i);
              id = this.#termId(this.#tokenizer.stem(word.toLowerCase()));
              this.#words.set(word, hash, id);
            }
            this.#count(id, w, seen);
            start = -1;
          }
        }
      }
      out.push(s.rowid);
      out.push(length);
      out.push(label(s.kind));
      out.push(label(s.language));
      out.push(seen.length);
      for (const id of seen) {
        out.push(id);
        if (id < _DENSE_TERMS) {
          out.push(this.#weights[id]!);
          this.#weights[id] = 0;
        } else {
          out.push(this.#sparseWeights.get(id)!);
        }
      }
      this.#sparseWeights.clear();
    }
    if (this.#pendingTerms.length > 0) this.#flushTerms();
    this.#stmt(
      "INSERT OR REPLACE INTO symbol_terms(file_id, labels, data) VALUES (?, ?, ?)",
    ).run(fileId, [...labelIds.keys()].join(" "), out.bytes());
  }

  /** Add `w` to the scratch count of term `id`, listing it in `seen` the first time. */
  #count(id: number, w: number, seen: number[]): void {
    if (id < _DENSE_TERMS) {
      if (this.#weights[id] === 0) seen.push(id);
      this.#weights[id]! += w;
      return;
    }
    const had = this.#sparseWeights.get(id);
    if (had === undefined) seen.push(id);
    this.#sparseWeights.set(id, (had ?? 0) + w);
  }

  #termId(term: string): number {
    let id = this.#ids.get(term);
    if (id !== undefined) return id;
    if (!this.#empty) {
      const row = this.#stmt("SELECT id FROM symbol_term_ids WHERE term = ?").get(term) as
        | { id: number }
        | undefined;
      id = row?.id;
    }
    if (id === undefined) {
      // Ids are dense (0, 1, 2, … and never deleted but all at once), so the next is the
      // count, which SQLite answers without reading the rows (max(id) would scan them all).
      this.#nextId ??= (this.#db.prepare("SELECT count(*) AS n FROM symbol_term_ids").get() as {
        n: number;
      }).n;
      id = this.#nextId++;
      this.#pendingTerms.push(term, id);
    }
    this.#ids.set(term, id);
    return id;
  }

  /**
   * Insert the new terms, up to {@linkcode _TERM_BATCH} rows per statement (far fewer calls into
   * SQLite than one per row; one prepared statement per row count, reused).
   */
  #flushTerms(): void {
    const p = this.#pendingTerms;
    for (let i = 0; i < p.length; i += 2 * _TERM_BATCH) {
      const part = p.slice(i, i + 2 * _TERM_BATCH);
      this.#stmt(
        "INSERT INTO symbol_term_ids(term, id) VALUES " +
          Array(part.length / 2).fill("(?, ?)").join(","),
      ).run(...part);
    }
    this.#pendingTerms = [];
  }
}

/** Term ids counted in the writer's array (the rest in a map): 512 KB of scratch. */
const _DENSE_TERMS = 1 << 16;

/** New terms per insert statement. */
const _TERM_BATCH = 128;

/**
 * Term ids by word, looked up by a range of a text and its hash (open addressing), so that the
 * common case — a word seen before — allocates nothing.
 */
class _WordTable {
  #slots = new Int32Array(1 << 16).fill(-1);
  #words: string[] = [];
  #hashes: number[] = [];
  #ids: number[] = [];

  clear(): void {
    this.#slots = new Int32Array(1 << 16).fill(-1);
    this.#words = [];
    this.#hashes = [];
    this.#ids = [];
  }

  /** The id of `text[start..end)` (whose hash is `hash`), or -1. */
  get(text: string, start: number, end: number, hash: number): number {
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask;; slot = (slot + 1) & mask) {
      const k = this.#slots[slot]!;
      if (k < 0) return -1;
      if (this.#hashes[k] !== hash) continue;
      const word = this.#words[k]!;
      if (word.length !== end - start) continue;
      let same = true;
      for (let i = 0; i < word.length; i++) {
        if (word.charCodeAt(i) !== text.charCodeAt(start + i)) {
          same = false;
          break;
        }
      }
      if (same) return this.#ids[k]!;
    }
  }

  /** Remember the id of a word (not in the table yet). */
  set(word: string, hash: number, id: number): void {
    if (this.#words.length >= 4_000_000) return;
    if (2 * (this.#words.length + 1) > this.#slots.length) this.#grow();
    const k = this.#words.length;
    this.#words.push(word);
    this.#hashes.push(hash);
    this.#ids.push(id);
    this.#place(k);
  }

  #place(k: number): void {
    const mask = this.#slots.length - 1;
    let slot = this.#hashes[k]! & mask;
    while (this.#slots[slot]! >= 0) slot = (slot + 1) & mask;
    this.#slots[slot] = k;
  }

  #grow(): void {
    this.#slots = new Int32Array(this.#slots.length * 2).fill(-1);
    for (let k = 0; k < this.#words.length; k++) this.#place(k);
  }
}

/** Growable varint (LEB128) buffer. */
class _Varints {
  #buf = new Uint8Array(256);
  #n = 0;

  push(v: number): void {
    if (this.#n + 10 > this.#buf.length) {
      const next = new Uint8Array(this.#buf.length * 2);
      next.set(this.#buf);
      this.#buf = next;
    }
    while (v >= 0x80) {
      this.#buf[this.#n++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.#buf[this.#n++] = v;
  }

  bytes(): Uint8Array {
    return this.#buf.slice(0, this.#n);
  }
}

/** Reads back the varints of a `symbol_terms` row's `data`, in order. */
export class VarintReader {
  readonly #data: Uint8Array;
  #at = 0;

  constructor(data: Uint8Array) {
    this.#data = data;
  }

  /** True while values are left. */
  get more(): boolean {
    return this.#at < this.#data.length;
  }

  /** The next value. */
  next(): number {
    const data = this.#data;
    let v = 0;
    let mul = 1;
    let b: number;
    do {
      b = data[this.#at++]!;
      v += (b & 0x7f) * mul;
      mul *= 128;
    } while (b >= 0x80);
    return v;
  }
}

/**
 * Schema migration 1 → 2: create the tables and fill them from the stored symbols (inside the
 * caller's transaction).
 */
export function addSymbolTerms(db: DatabaseSync): void {
  db.exec(SYMBOL_TERMS_DDL);
  const writer = new SymbolTermsWriter(db);
  writer.clear();
  writer.fillAll();
}
