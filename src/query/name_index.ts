/**
 * The symbol names of a repo, for lookups that the BM25 index cannot do: fuzzy names (a trigram
 * inverted index plus edit distance, for typos) and names spelled as words (`solve dependencies`
 * → `solve_dependencies`, `add api route` → `addApiRoute`).
 */
import { facet } from "./view.ts";
import { SYMBOL_BRIEFS, type SymbolBrief } from "./files.ts";
import { levenshtein } from "./names.ts";

/**
 * The distinct lower-cased symbol names of a repo with a trigram inverted index over them, so a
 * fuzzy lookup touches only names that share a trigram with the query (plus the short names,
 * which can be within the edit distance while sharing none).
 */
export interface NameIndex {
  /** Distinct lower-cased names. */
  names: string[];
  /** The symbols of each name (same index as `names`). */
  entries: SymbolBrief[][];
  gramCounts: number[];
  postings: Map<string, number[]>;
  /** Indexes of names of at most 6 characters. */
  short: number[];
  /** Name indexes by {@linkcode squashName} (`solve_dependencies` → `solvedependencies`). */
  squashed: Map<string, number[]>;
}

/**
 * A name or a phrase without case, separators and spaces: a query whose words spell a name in
 * order (`add api route`, `Add-API-Route`) squashes like the name (`add_api_route`, `addAPIRoute`).
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { squashName } from "./name_index.ts";
 * equal(squashName("solve dependencies"), squashName("solve_dependencies"));
 * equal(squashName("add api route"), squashName("addAPIRoute"));
 * ```
 */
export function squashName(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/** The trigrams of a name, padded so that its start and end count. */
export function trigrams(s: string): Set<string> {
  const t = new Set<string>();
  const padded = `  ${s} `;
  for (let i = 0; i + 3 <= padded.length; i++) t.add(padded.slice(i, i + 3));
  return t;
}

/** The name index of a repo's current index state. */
export const NAMES = facet("symbol-names", (view): NameIndex => {
  const byName = new Map<string, SymbolBrief[]>();
  for (const s of view.get(SYMBOL_BRIEFS)) {
    const n = s.name.toLowerCase();
    let list = byName.get(n);
    if (list === undefined) byName.set(n, list = []);
    list.push(s);
  }
  const names = [...byName.keys()];
  const postings = new Map<string, number[]>();
  const squashed = new Map<string, number[]>();
  const gramCounts: number[] = [];
  const short: number[] = [];
  names.forEach((n, i) => {
    const grams = trigrams(n);
    gramCounts.push(grams.size);
    if (n.length <= 6) short.push(i);
    for (const g of grams) {
      let list = postings.get(g);
      if (list === undefined) postings.set(g, list = []);
      list.push(i);
    }
    const sq = squashName(n);
    let same = squashed.get(sq);
    if (same === undefined) squashed.set(sq, same = []);
    same.push(i);
  });
  return {
    names,
    entries: names.map((n) => byName.get(n)!),
    gramCounts,
    postings,
    short,
    squashed,
  };
});

/** A fuzzy name match: name index, edit distance (capped at max + 1), trigram similarity. */
export interface FuzzyName {
  i: number;
  d: number;
  j: number;
}

/** Names within `maxEdits` edits of `q` (lower case) or with trigram similarity ≥ `threshold`. */
export function fuzzyNames(
  names: NameIndex,
  q: string,
  maxEdits: number,
  threshold: number,
): FuzzyName[] {
  const qGrams = trigrams(q);
  const shared = new Map<number, number>();
  for (const g of qGrams) {
    for (const i of names.postings.get(g) ?? []) shared.set(i, (shared.get(i) ?? 0) + 1);
  }
  // A name longer than 3 × maxEdits keeps a trigram of the query through maxEdits edits.
  if (maxEdits <= 2) {
    for (const i of names.short) if (!shared.has(i)) shared.set(i, 0);
  } else {
    names.names.forEach((n, i) => {
      if (n.length <= 3 * maxEdits && !shared.has(i)) shared.set(i, 0);
    });
  }
  const out: FuzzyName[] = [];
  for (const [i, common] of shared) {
    const j = common / (qGrams.size + names.gramCounts[i]! - common || 1);
    const d = levenshtein(names.names[i]!, q, maxEdits);
    if (d <= maxEdits || j >= threshold) out.push({ i, d, j });
  }
  return out;
}

/** The symbols whose name the words of `query` spell (see {@linkcode squashName}). */
export function spelledNames(names: NameIndex, query: string): SymbolBrief[] {
  const hits = names.squashed.get(squashName(query)) ?? [];
  return hits.flatMap((i) => names.entries[i]!);
}
