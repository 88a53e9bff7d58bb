/**
 * The text-search index's tokens: each file is indexed as the set of distinct byte trigrams of
 * its content (ASCII letters folded to lower case, whitespace-free trigrams only), each trigram
 * written as one base-36 token.
 * Feeding FTS5 the *distinct* trigrams (about a sixth of the byte count on source code) instead of
 * the raw text costs a fraction of FTS5's built-in `trigram` tokenizer at index time, and with
 * `detail=none` the index is a small fraction of the source size. A query's trigrams select the
 * candidate files (a superset); the caller verifies matches in the text.
 *
 * Working on bytes keeps invalid UTF-8 exact: nothing is decoded to build the index.
 */

const _LOWER = new Uint8Array(256).map((_, i) => (i >= 65 && i <= 90 ? i + 32 : i));
const _encoder = new TextEncoder();
/** Whitespace bytes. Trigrams containing one are left out of the index (and of queries): they
 * are about a third of a source file's distinct trigrams and narrow a search very little —
 * except one space between two other bytes (`p s` of "http server"), which is what narrows a
 * search for a phrase to the files that have its words next to each other. */
const _SPACE = new Uint8Array(256).map((
  _,
  i,
) => (i === 0x20 || i === 0x09 || i === 0x0a || i === 0x0d ? 1 : 0));

/** A reusable bit set over the 2^24 possible trigrams (2 MB), cleared after each use. */
export class TrigramSet {
  #bits = new Uint8Array(1 << 21);
  #keys: number[] = [];

  /** The distinct case-folded trigrams of `bytes`, in first-seen order. */
  collect(bytes: Uint8Array): number[] {
    const bits = this.#bits;
    const keys = this.#keys;
    keys.length = 0;
    const n = bytes.length;
    if (n < 3) return [];
    let k = (_LOWER[bytes[0]!]! << 8) | _LOWER[bytes[1]!]!;
    // Positions of the last two whitespace bytes: a trigram that contains one is not indexed,
    // unless it is a lone space in the middle.
    let space = -3;
    let before = -3;
    for (let i = 0; i < 2; i++) {
      if (_SPACE[bytes[i]!]) [before, space] = [space, i];
    }
    for (let i = 2; i < n; i++) {
      const b = bytes[i]!;
      k = ((k << 8) | _LOWER[b]!) & 0xffffff;
      if (_SPACE[b]) [before, space] = [space, i];
      if (i - space < 3 && !(space === i - 1 && before < i - 2 && bytes[space] === 0x20)) continue;
      const byte = k >>> 3;
      const mask = 1 << (k & 7);
      if ((bits[byte]! & mask) === 0) {
        bits[byte] = bits[byte]! | mask;
        keys.push(k);
      }
    }
    for (const key of keys) bits[key >>> 3] = 0;
    return keys.slice();
  }

  /** The FTS5 document for `bytes`: its distinct trigrams as space-separated base-36 tokens. */
  document(bytes: Uint8Array): string {
    const keys = this.collect(bytes);
    let out = "";
    for (const key of keys) out += key.toString(36) + " ";
    return out;
  }
}

/**
 * The FTS5 query that selects the files containing `literal` case-insensitively (a superset), or
 * null when the literal has no usable trigram (shorter than 3 bytes, or only trigrams with
 * whitespace or non-ASCII bytes, whose case folding the index does not model) and every file is
 * a candidate.
 */
export function trigramQuery(literal: string): string | null {
  return trigramQueryAll([literal]);
}

/** Like {@linkcode trigramQuery}, for several literals that must all occur. */
export function trigramQueryAll(literals: readonly string[]): string | null {
  const keys = queryTrigrams(literals);
  return keys === null ? null : keys.map((k) => k.toString(36)).join(" ");
}

/**
 * The distinct indexed trigrams (as {@linkcode TrigramSet.collect} numbers them) that every
 * file containing all of `literals` case-insensitively has, or null when there is none to
 * narrow by (see {@linkcode trigramQuery}).
 */
export function queryTrigrams(literals: readonly string[]): number[] | null {
  const keys = new Set<number>();
  for (const literal of literals) {
    const bytes = _encoder.encode(literal);
    for (let i = 0; i + 2 < bytes.length; i++) {
      const a = bytes[i]!, b = bytes[i + 1]!, c = bytes[i + 2]!;
      if (a >= 0x80 || b >= 0x80 || c >= 0x80) continue;
      if (_SPACE[a] || _SPACE[c] || (_SPACE[b] && b !== 0x20)) continue;
      keys.add((_LOWER[a]! << 16) | (_LOWER[b]! << 8) | _LOWER[c]!);
    }
  }
  return keys.size === 0 ? null : [...keys];
}

/**
 * Literal fragments that every match of `pattern` (a JavaScript regular expression source)
 * must contain, for narrowing a regex search with the trigram index. Conservative: returns `[]`
 * (meaning "no narrowing") for anything it does not understand, such as top-level alternation.
 */
export function regexLiterals(pattern: string): string[] {
  const out: string[] = [];
  let current = "";
  let depth = 0;
  const flush = () => {
    if (current.length >= 3) out.push(current);
    current = "";
  };
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "\\") {
      const next = pattern[i + 1];
      i++;
      if (next !== undefined && /[.*+?^${}()|[\]\\/\-]/.test(next)) {
        if (depth === 0) current += next;
        else flush();
        continue;
      }
      flush(); // a class like \w or \d, or an escape we do not model
      continue;
    }
    if (ch === "|") {
      if (depth === 0) return [];
      continue;
    }
    if (ch === "(") {
      flush();
      depth++;
      continue;
    }
    if (ch === ")") {
      depth = Math.max(0, depth - 1);
      // A quantified group may be absent: nothing after it is joined to what came before.
      flush();
      continue;
    }
    if (ch === "[") {
      flush();
      const close = pattern.indexOf("]", i + 2);
      if (close === -1) return [];
      i = close;
      continue;
    }
    if (ch === "*" || ch === "?" || ch === "{") {
      // The previous character is optional (or repeated zero times): drop it from the run.
      current = current.slice(0, -1);
      flush();
      if (ch === "{") {
        const close = pattern.indexOf("}", i);
        if (close !== -1) i = close;
      }
      continue;
    }
    if (ch === "+") {
      flush();
      continue;
    }
    if (ch === "." || ch === "^" || ch === "$") {
      flush();
      continue;
    }
    if (depth === 0) current += ch;
  }
  flush();
  return out;
}
