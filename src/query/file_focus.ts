/**
 * File focus: the code a task needs sits mostly in one file (in the retrieval bench's task
 * questions, 71–89% of the labelled symbols are in the file that holds most of them), so the
 * files where the best matches of a question concentrate are likely where its answer is.
 *
 * Each of the {@linkcode FOCUS_POOL} best matches adds its score to its file's mass; every match
 * in a file then gains {@linkcode FOCUS_WEIGHT} × (the file's share of the mass) × the best score.
 * A file holding one of twenty matches gains little; one holding most of them lifts all of its
 * matches, including those that share fewer words with the question (`BaseForm.full_clean` for
 * "how does a form validate and clean its fields").
 */

/** How many of the best matches make the files' mass. */
export const FOCUS_POOL = 20;

/** The share of the best score that a file holding all of the pool's mass adds to its matches. */
export const FOCUS_WEIGHT = 0.5;

/**
 * Each file's share of the score of the {@linkcode FOCUS_POOL} best matches of `ranked` (best
 * first): a function from a file to its share, 0..1 (0 for a file outside the pool).
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { fileShares } from "./file_focus.ts";
 * const share = fileShares([{ file: "a.py", score: 10 }, { file: "a.py", score: 6 }, { file: "b.py", score: 4 }]);
 * equal(share("a.py"), 0.8);
 * equal(share("c.py"), 0);
 * ```
 */
export function fileShares(
  ranked: readonly { file: string; score: number }[],
): (file: string) => number {
  const mass = new Map<string, number>();
  let total = 0;
  for (const x of ranked.slice(0, FOCUS_POOL)) {
    if (x.score <= 0) continue;
    mass.set(x.file, (mass.get(x.file) ?? 0) + x.score);
    total += x.score;
  }
  return (file) => total <= 0 ? 0 : (mass.get(file) ?? 0) / total;
}

/**
 * The focus bonus of each file, from the matches `ranked` best first (their `score` before any
 * bonus): a function from a file to the score its matches gain (0 for a file outside the pool).
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { fileFocus } from "./file_focus.ts";
 * const bonus = fileFocus([{ file: "a.py", score: 10 }, { file: "a.py", score: 6 }, { file: "b.py", score: 4 }]);
 * equal(bonus("a.py"), 0.5 * (16 / 20) * 10);
 * equal(bonus("c.py"), 0);
 * ```
 */
export function fileFocus(
  ranked: readonly { file: string; score: number }[],
): (file: string) => number {
  const share = fileShares(ranked);
  const best = ranked[0]?.score ?? 0;
  return (file) => FOCUS_WEIGHT * share(file) * best;
}
