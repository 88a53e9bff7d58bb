/**
 * The words of a question that say what it is about, and how much each weighs.
 *
 * - **Question words** (`where`, `how`, `the`, `which`, `function`, …) say what kind of question it
 *   is, not what it is about: they are left out of a query of several words. (Leaving out the
 *   verbs of the question templates too — "How does X *implement* Y", "how is Y *handled*" — moved
 *   no held-out figure; BM25's idf gives them what weight they have.)
 * - **The project's own name** ("How does FastAPI resolve …" asked of fastapi) names the repo, not
 *   a part of it; but every symbol of a class named after the project (`FastAPI.get`) matches it
 *   in its name. It is left out too ({@linkcode PROJECT_WORDS}).
 * - **Rarity** is BM25's: each word's inverse document frequency among the repo's symbols
 *   (`bm25.ts`), so that the rare words that name a concept outweigh generic ones. (Weighing the
 *   coverage of `symbol_rank.ts` by rarity too lowered the held-out figures, lookups most: it was
 *   left out.)
 *
 * Every word stays when nothing else would be left.
 */
import { facet, type RepoView } from "./view.ts";
import { FILES } from "./files.ts";

/** Words that say what kind of question it is, not what it is about. */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(
  ("a an and are as at be by can could do does did for from has have how i if in is it its me " +
    "my of on or our should that the their there these this those to was we what when where " +
    "which who why will with would you your function functions")
    .split(" "),
);

/**
 * The words of a query that carry its meaning: question words (and `project` words) dropped from
 * a query of several words, the query unchanged otherwise.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { meaningfulQuery } from "./query_words.ts";
 * equal(meaningfulQuery("where are request dependencies resolved"), "request dependencies resolved");
 * equal(meaningfulQuery("How does FastAPI do routing?", new Set(["fastapi"])), "routing?");
 * equal(meaningfulQuery("the"), "the");
 * ```
 */
export function meaningfulQuery(query: string, project: ReadonlySet<string> = new Set()): string {
  const words = query.trim().split(/\s+/);
  if (words.length < 2) return query.trim();
  const kept = words.filter((w) => {
    const bare = w.toLowerCase().replace(/[?.,!:;]+$/, "").replace(/['’]s$/, "");
    return !QUESTION_WORDS.has(bare) && !project.has(bare);
  });
  return kept.length === 0 ? query.trim() : kept.join(" ");
}

/**
 * A query of at least this many words of prose (question words left out) is a description: it
 * asks about connected code (the graph-neighbour and file-focus stages apply), where a name, a
 * word or two, or a signature asks for one symbol.
 */
export const PROSE_MIN_WORDS = 3;

/**
 * Whether a query is a description (see {@linkcode PROSE_MIN_WORDS}).
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { isProseQuery } from "./query_words.ts";
 * equal(isProseQuery("how does a form validate its fields"), true);
 * equal(isProseQuery("func (c *Conn) Read"), false);
 * ```
 */
export function isProseQuery(query: string): boolean {
  return _proseWords(meaningfulQuery(query.trim())) >= PROSE_MIN_WORDS;
}

/** Words of prose in a query (a signature's `(c` or `*Conn)` is code, not a word). */
function _proseWords(query: string): number {
  return query.split(/\s+/).filter((w) => /^[\p{L}\p{N}_.'’-]+[?!.,;:]*$/u.test(w)).length;
}

/** The share of the files with symbols that makes a top-level folder the project's package. */
export const PACKAGE_FOLDER_SHARE = 0.8;

/**
 * The names a repo goes by, lower-case: the last part of its repo id (`local/fastapi-1a2b3c4d` →
 * `fastapi`, `owner/name` → `name`) and the top-level folder that holds the package (`fastapi/` in
 * the fastapi repository): one holding at least {@linkcode PACKAGE_FOLDER_SHARE} of the files with
 * symbols, of at least 10.
 */
export const PROJECT_WORDS = facet("project-words", (view): ReadonlySet<string> => {
  const withSymbols = new Set<string>();
  for (const [path, f] of view.get(FILES)) {
    if (f.symbol_count > 0 && path.includes("/")) withSymbols.add(path);
  }
  return _projectWords(view, withSymbols);
}, {
  // Files re-indexed, none added or removed: only whether those hold symbols may have changed.
  update: (view, previous, change): ReadonlySet<string> => {
    const old = _WITH_SYMBOLS.get(previous);
    if (old === undefined) return PROJECT_WORDS.build(view);
    const files = view.get(FILES);
    const withSymbols = new Set(old);
    for (const path of change.paths) {
      const f = files.get(path);
      if (f !== undefined && f.symbol_count > 0 && path.includes("/")) withSymbols.add(path);
      else withSymbols.delete(path);
    }
    return _projectWords(view, withSymbols);
  },
});

/** The paths (in a folder) with symbols each {@linkcode PROJECT_WORDS} value was made from. */
const _WITH_SYMBOLS = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();

function _projectWords(view: RepoView, withSymbols: ReadonlySet<string>): ReadonlySet<string> {
  const out = new Set<string>();
  const last = view.repo.slice(view.repo.lastIndexOf("/") + 1).toLowerCase();
  const name = view.repo.startsWith("local/") ? last.replace(/-[0-9a-f]{6,}$/, "") : last;
  if (name.length >= 3) out.add(name);
  const top = new Map<string, number>();
  for (const path of withSymbols) {
    const dir = path.slice(0, path.indexOf("/")).toLowerCase();
    top.set(dir, (top.get(dir) ?? 0) + 1);
  }
  const files = withSymbols.size;
  for (const [dir, n] of top) {
    const named = dir.length >= 3 && /^[\p{L}][\p{L}\p{N}_-]*$/u.test(dir);
    if (named && files >= 10 && n >= PACKAGE_FOLDER_SHARE * files) out.add(dir);
  }
  _WITH_SYMBOLS.set(out, withSymbols);
  return out;
}
