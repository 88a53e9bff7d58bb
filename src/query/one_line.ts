/**
 * One-line text for the short fields of row-shaped answers (signatures, summaries, search lines).
 * A line break inside such a field would keep the whole list out of a MUNCH v1 table (readers
 * split payloads into lines, so a v1 cell cannot hold one), and a signature reads as well on one
 * line: the full text stays one `get_symbol_source` away.
 *
 * @module
 */

/**
 * Characters some reader takes as a line end: LF, CR, and the others Python's `str.splitlines()`
 * breaks on (VT, FF, FS, GS, RS, NEL, LS, PS).
 */
// deno-lint-ignore no-control-regex -- the control characters are the point
const _BREAK_RUN = /[ \t]*[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029][\s\x1c-\x1e\x85]*/g;
// deno-lint-ignore no-control-regex -- the control characters are the point
const _ANY_BREAK = /[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/**
 * `text` with every line break, and the blanks around it, replaced by one space, and the two
 * characters no v1 cell carries either replaced by U+FFFD: NUL (which CSV readers refuse) and a
 * lone surrogate (which UTF-8 cannot encode); other text is unchanged (the same string when it
 * holds none of these).
 *
 * @example
 * ```ts
 * import { oneLine } from "./one_line.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(oneLine("def f(a,\n        b)"), "def f(a, b)");
 * equal(oneLine("a\r\n\r\nb"), "a b");
 * equal(oneLine("no break"), "no break");
 * equal(oneLine("a\0b"), "a\ufffdb");
 * ```
 */
export function oneLine(text: string): string {
  let out = _ANY_BREAK.test(text) ? text.replace(_BREAK_RUN, " ") : text;
  if (out.includes("\0")) out = out.replaceAll("\0", "\ufffd");
  return out.isWellFormed() ? out : out.toWellFormed();
}
