/**
 * The innermost symbol whose lines hold a given line: what `search_text` names for each match row,
 * what `search_ast` names as a match's enclosing symbol and what `body_matches.ts` credits a word
 * to. One rule for all: the span of fewest lines wins; of two as long, the one starting later; of
 * two identical, the first in source order.
 */

/** A symbol's id and line range (as `RepoIndex.symbolSpans` gives them). */
export interface SymbolSpan {
  id: string;
  line: number;
  end_line: number;
}

/** Whether `s` is a closer fit than `best` for a line both hold (see the module rule). */
function _narrower(s: SymbolSpan, best: SymbolSpan | null): boolean {
  if (best === null) return true;
  const a = s.end_line - s.line;
  const b = best.end_line - best.line;
  return a < b || (a === b && s.line > best.line);
}

/**
 * Id of the innermost symbol of `spans` whose lines hold `line`, or null: one pass over the spans,
 * for a few lines of a file.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { enclosingSymbol } from "./enclosing.ts";
 * const spans = [{ id: "C", line: 1, end_line: 9 }, { id: "C.m", line: 3, end_line: 5 }];
 * equal(enclosingSymbol(spans, 4), "C.m");
 * equal(enclosingSymbol(spans, 7), "C");
 * equal(enclosingSymbol(spans, 12), null);
 * ```
 */
export function enclosingSymbol(spans: readonly SymbolSpan[], line: number): string | null {
  return innermostSpan(spans, line)?.id ?? null;
}

/** The innermost of `spans` whose lines hold `line` (the rule above), or null. */
export function innermostSpan<S extends SymbolSpan>(spans: readonly S[], line: number): S | null {
  let best: S | null = null;
  for (const s of spans) {
    if (s.line <= line && line <= s.end_line && _narrower(s, best)) best = s;
  }
  return best;
}

/**
 * For every line `1..lines`, the index in `spans` of its innermost symbol (-1 for none): the same
 * answer as {@linkcode enclosingSymbol}, worked out once for a whole file (each span visits its own
 * lines), for many lookups.
 *
 * @example Usage
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { enclosingTable } from "./enclosing.ts";
 * const spans = [{ id: "C", line: 1, end_line: 4 }, { id: "C.m", line: 2, end_line: 3 }];
 * deepEqual([...enclosingTable(spans, 5)], [-1, 0, 1, 1, 0, -1]);
 * ```
 */
export function enclosingTable(spans: readonly SymbolSpan[], lines: number): Int32Array {
  const owner = new Int32Array(lines + 1).fill(-1);
  spans.forEach((s, i) => {
    for (let l = Math.max(1, s.line); l <= s.end_line && l <= lines; l++) {
      const o = owner[l]!;
      if (o === -1 || _narrower(s, spans[o]!)) owner[l] = i;
    }
  });
  return owner;
}
