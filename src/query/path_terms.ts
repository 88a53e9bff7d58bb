/**
 * The words of a file's path as query terms: a module's directory and file names say what its
 * code is about (`template/library.py`, `db/transaction.py`, `net/http/client.go`), often in the
 * words a question uses ("add a template filter", "run code in a database transaction") while the
 * symbol's own name has only some of them (`Library.filter`, `atomic`).
 *
 * {@linkcode rankSymbolHits} counts a query term as covered by a symbol when its file's path has
 * it, as it counts the terms of the symbol's name, signature and docstring: a symbol matching one
 * word of a question in a module named after another beats one matching the same word elsewhere.
 * Path words only widen coverage; BM25 stays the symbol's own (a path word is shared by every
 * symbol of its module, so it says nothing about which of them is meant).
 */
import { splitIdentifier } from "../store/fts_text.ts";
import { queryTerm } from "../store/symbol_terms.ts";
import { PATHS_BY_ID } from "./files.ts";
import { facet } from "./view.ts";

/** Path segments that name no topic (layout conventions). */
const _LAYOUT_WORDS = new Set([
  "src",
  "lib",
  "pkg",
  "internal",
  "index",
  "init",
  "main",
  "mod",
  "base",
  "util",
  "utils",
  "common",
  "core",
]);

/**
 * The stemmed words of a path's directories and file name (extension left out, layout words such
 * as `src`, `lib`, `__init__`, `utils` too).
 *
 * @example Usage
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { pathWords } from "./path_terms.ts";
 * deepEqual(pathWords("net/http/client.go"), ["net", "http", "client"]);
 * deepEqual(pathWords("src/template/loader_tags.py"), ["templat", "loadertag", "loader", "tag"]);
 * ```
 */
export function pathWords(path: string): string[] {
  return _pathWords(path, _segmentWords);
}

/** The stemmed words of one path segment (a directory, or a file name without its extension). */
function _segmentWords(segment: string): string[] {
  const out: string[] = [];
  const whole = segment.replace(/[^\p{L}\p{N}]+/gu, "").toLowerCase();
  for (const word of [whole, ...splitIdentifier(segment)]) {
    if (word.length < 3 || _LAYOUT_WORDS.has(word)) continue;
    const term = queryTerm(word);
    if (term !== "" && !out.includes(term)) out.push(term);
  }
  return out;
}

function _pathWords(path: string, wordsOf: (segment: string) => string[]): string[] {
  const segments = path.split("/");
  const last = segments.length - 1;
  segments[last] = segments[last]!.replace(/\.[^.]*$/, "");
  const out = new Set<string>();
  for (const segment of segments) for (const w of wordsOf(segment)) out.add(w);
  return [...out];
}

/**
 * The stemmed path words of each file id, all computed at once (the search prewarm builds it in
 * the background): a segment's words are worked out once however many paths share it.
 */
export const PATH_WORDS = facet("path-words", (view) => {
  const bySegment = new Map<string, string[]>();
  const wordsOf = (segment: string) => {
    let words = bySegment.get(segment);
    if (words === undefined) bySegment.set(segment, words = _segmentWords(segment));
    return words;
  };
  const byFile = new Map<number, string[]>();
  for (const [id, path] of view.get(PATHS_BY_ID)) byFile.set(id, _pathWords(path, wordsOf));
  return (fileId: number): string[] => byFile.get(fileId) ?? [];
  // Words of the paths by file id: the same while no file is added or removed.
}, { carry: "same_paths" });

/**
 * A function giving, for a file id, the bit mask of the query `terms` (as from
 * `countedQueryTerms`, bit i for term i) that its path has; a path word has a term when it starts
 * with it (the prefix match of the ranking), or equals it for a term of one character.
 */
export function pathTermMasks(
  wordsOf: (fileId: number) => string[],
  terms: readonly string[],
): (fileId: number) => number {
  const memo = new Map<number, number>();
  return (fileId) => {
    let mask = memo.get(fileId);
    if (mask !== undefined) return mask;
    mask = 0;
    const words = wordsOf(fileId);
    for (let i = 0; i < terms.length && i < 31; i++) {
      const t = terms[i]!;
      if (words.some((w) => t.length === 1 ? w === t : w.startsWith(t))) mask |= 1 << i;
    }
    memo.set(fileId, mask);
    return mask;
  };
}
