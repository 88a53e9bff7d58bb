/**
 * Body matches: symbols whose source (not only their name, signature and docstring) holds several
 * words of a task. What a task asks about is often written only inside the code that does it — a
 * setting's name in a string (`'case sensitive routing'`), a header, a flag, a comment — and the
 * symbol ranking (`symbol_rank.ts`) never reads bodies.
 *
 * 1. Words: each word of the query (question words left out) cut to the part it shares with its
 *    stem (`routing` → `rout`, `memory` → `memor`), at least {@linkcode MIN_LITERAL} characters.
 * 2. Files: the trigram index gives, for each word, the files that may hold it; a word held by
 *    more than half the files is dropped (it says nothing), the others weigh their inverse
 *    document frequency. The {@linkcode MAX_FILES} files holding the most weight (at least two
 *    words when the query has two) are read.
 * 3. Symbols: each line of a read file belongs to the innermost symbol around it (`enclosing.ts`,
 *    as `search_text` names it); a symbol's body
 *    score is the weight of the distinct words its own lines hold (case-insensitive substring
 *    of the stem), kept when it holds at least two words (or the only one).
 *
 * Cost: one trigram lookup per word and the text of at most {@linkcode MAX_FILES} files (a few
 * milliseconds on the Go standard library); `get_ranked_context` uses it, `search_symbols` (a
 * lookup, answered in a few milliseconds) does not.
 */
import { queryTerm } from "../store/symbol_terms.ts";
import { splitIdentifier } from "../store/fts_text.ts";
import { lineAt, lineStarts } from "../parser/source_text.ts";
import { meaningfulQuery } from "./query_words.ts";
import { enclosingTable } from "./enclosing.ts";
import type { RepoView } from "./view.ts";

/** Shortest word looked for (shorter ones are in most files). */
export const MIN_LITERAL = 4;

/** Most files read. */
export const MAX_FILES = 8;

/** One symbol whose body holds words of the query. */
export interface BodyMatch {
  id: string;
  file: string;
  /** Sum of the inverse document frequencies of the distinct words its lines hold. */
  score: number;
  /** The words (stems) found. */
  words: string[];
}

/** The stems of a query's meaningful words, distinct, in query order. */
export function bodyWords(query: string): string[] {
  const out: string[] = [];
  for (const word of meaningfulQuery(query).split(/\s+/)) {
    const whole = word.replace(/[^\p{L}\p{N}]+/gu, "").toLowerCase();
    for (const w of new Set([whole, ...splitIdentifier(word)])) {
      // The part the word and its stem share (`memory` → `memori` → `memor`): every form of the
      // word holds it.
      const stem = queryTerm(w);
      let n = 0;
      while (n < stem.length && stem[n] === w[n]) n++;
      const literal = n >= MIN_LITERAL ? w.slice(0, n) : "";
      if (literal !== "" && !out.includes(literal)) out.push(literal);
    }
  }
  return out;
}

/**
 * The symbols whose own lines hold the most (weighted) words of `query`, best first; only files
 * `keepFile` accepts are read (a `scope`).
 */
export function bodyMatches(
  view: RepoView,
  query: string,
  options: { limit?: number; keepFile?: (path: string) => boolean } = {},
): BodyMatch[] {
  const limit = options.limit ?? 30;
  const keepFile = options.keepFile ?? (() => true);
  const index = view.index;
  const words = bodyWords(query);
  if (words.length === 0) return [];
  const nFiles = index.fileCount();
  const weights: number[] = [];
  const fileWeight = new Map<string, { weight: number; words: number }>();
  for (const word of words) {
    const files = index.textCandidates([word]);
    const n = files === null ? nFiles : files.length;
    const idf = Math.log((nFiles - n + 0.5) / (n + 0.5));
    weights.push(idf > 0 ? idf : 0);
    if (idf <= 0 || files === null) continue;
    for (const f of files) {
      const w = fileWeight.get(f) ?? { weight: 0, words: 0 };
      w.weight += idf;
      w.words++;
      fileWeight.set(f, w);
    }
  }
  const usable = weights.filter((w) => w > 0).length;
  const least = Math.min(2, usable);
  if (usable === 0) return [];
  const files = [...fileWeight].filter(([f, w]) => w.words >= least && keepFile(f))
    .sort((a, b) => b[1].weight - a[1].weight || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_FILES);
  const out: BodyMatch[] = [];
  for (const [path] of files) {
    const text = index.fileText(path);
    if (text === undefined) continue;
    // Lines of the lower-cased text itself (lower-casing can change a string's length).
    const lower = text.toLowerCase();
    const starts = lineStarts(lower);
    const spans = index.symbolSpans(path);
    const owner = enclosingTable(spans, starts.length);
    const found = new Map<number, Set<number>>();
    for (let w = 0; w < words.length; w++) {
      if (weights[w]! <= 0) continue;
      const word = words[w]!;
      for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + word.length)) {
        const o = owner[lineAt(starts, at)]!;
        if (o === -1) continue;
        let set = found.get(o);
        if (set === undefined) found.set(o, set = new Set());
        set.add(w);
      }
    }
    for (const [i, set] of found) {
      if (set.size < least) continue;
      let score = 0;
      for (const w of set) score += weights[w]!;
      out.push({ id: spans[i]!.id, file: path, score, words: [...set].map((w) => words[w]!) });
    }
  }
  return out.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, limit);
}
