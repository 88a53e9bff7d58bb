/**
 * Comments and strings blanked out of a source text, every offset and line kept, for the line
 * scanner (`line_scan.ts`): what is left is code, so a rule never matches inside a comment or a
 * string. Each language says how its comments and strings are written (`CommentSyntax`).
 */

/** How a language writes comments and strings. */
export interface CommentSyntax {
  /**
   * Line-comment markers (`--`, `!`, `#`, `;`, `//`); one with `after` counts only where the text
   * before it on its line matches (assembly's `#` only at a line's start), one with `unless` not
   * where the text after it matches (a preprocessor line `#define X 1` of a `.S` file). @default []
   */
  line?: readonly (string | { marker: string; after: RegExp; unless?: RegExp })[];
  /**
   * A line marker counts only when the text before it on its line matches (Tcl's `#` starts a
   * comment only where a command starts: /(^|[;{])\s*$/; AutoHotkey's `;` needs a space before).
   * @default anywhere
   */
  lineAfter?: RegExp;
  /** Block-comment delimiters (`["/*", "*\/"]`, `["#[", "]#"]`). @default [] */
  block?: readonly (readonly [string, string])[];
  /** String delimiters, longest first (`"""`, `"`, `'`). @default [] */
  strings?: readonly string[];
  /** `double`: a doubled delimiter is a quote inside the string (Fortran, Ada, SQL). @default backslash */
  escape?: "backslash" | "double";
  /** Strings may span lines (Tcl, Nim's `"""`). @default false */
  multiline?: boolean;
  /** `'x'` (one character) is a literal; any other `'` is code (Ada and VHDL attribute ticks). */
  charLiterals?: boolean;
  /** A `'` right after a name, `)`, `]`, `}`, `.` or `'` is an operator (MATLAB's transpose). */
  transpose?: boolean;
  /** Fixed-form source (punched-card columns), for files whose path matches `files`. */
  fixed?: FixedForm;
}

/** Fixed-form columns: a sequence area, a comment indicator, text past the last column ignored. */
export interface FixedForm {
  /** Paths this applies to (`.f`, `.for`). */
  files: RegExp;
  /** Applies only when this holds for the text. @default always, for matching files */
  detect?: (text: string) => boolean;
  /** Columns blanked at the start of every line (COBOL's sequence area, Fortran's labels). */
  sequence: number;
  /** A raw line matching this is a comment line (`^[cC*]`, COBOL's `*` in column 7). */
  comment: RegExp;
  /** Columns after this one are ignored (72). */
  lastColumn: number;
}

/** The text with comments and strings (their contents) replaced by spaces, newlines kept. */
export function blankSource(text: string, syntax: CommentSyntax, file: string): string {
  const out = text.split("");
  const blank = (from: number, to: number) => {
    for (let i = from; i < to && i < out.length; i++) {
      if (out[i] !== "\n" && out[i] !== "\r") out[i] = " ";
    }
  };
  const fixed = syntax.fixed;
  if (fixed !== undefined && fixed.files.test(file) && (fixed.detect?.(text) ?? true)) {
    _blankFixed(text, fixed, blank);
  }
  const lines = (syntax.line ?? []).map((l) =>
    typeof l === "string"
      ? { marker: l, after: syntax.lineAfter, unless: undefined }
      : { ...l, unless: l.unless && new RegExp(l.unless.source, l.unless.flags + "y") }
  );
  const blocks = syntax.block ?? [];
  const strings = syntax.strings ?? [];
  for (let i = 0; i < text.length; i++) {
    if (out[i] === " " && text[i] !== " ") continue; // already blank (fixed-form comment)
    const line = lines.find((m) => text.startsWith(m.marker, i));
    if (
      line !== undefined && _lineMarkerCounts(line.after, out, i) &&
      !_followedBy(line.unless, text, i + line.marker.length)
    ) {
      const j = _indexOr(text, "\n", i);
      blank(i, j);
      i = j;
      continue;
    }
    const block = blocks.find(([open]) => text.startsWith(open, i));
    if (block !== undefined) {
      const close = text.indexOf(block[1], i + block[0].length);
      const j = close === -1 ? text.length : close + block[1].length;
      blank(i, j);
      i = j - 1;
      continue;
    }
    if (syntax.charLiterals === true && text[i] === "'") {
      if (text[i + 2] === "'") {
        blank(i + 1, i + 2);
        i += 2;
      }
      continue;
    }
    if (syntax.transpose === true && text[i] === "'" && i > 0 && /[\w)\]}.']/.test(text[i - 1]!)) {
      continue;
    }
    const quote = strings.find((q) => text.startsWith(q, i));
    if (quote !== undefined) {
      const j = _stringEnd(text, i + quote.length, quote, syntax);
      blank(i + quote.length, j);
      i = j + quote.length - 1;
    }
  }
  return out.join("");
}

function _blankFixed(text: string, fixed: FixedForm, blank: (from: number, to: number) => void) {
  let start = 0;
  while (start < text.length) {
    const end = _indexOr(text, "\n", start);
    const raw = text.slice(start, end);
    if (fixed.comment.test(raw)) {
      blank(start, end);
    } else {
      blank(start, Math.min(end, start + fixed.sequence));
      if (raw.replace(/\r$/, "").length > fixed.lastColumn) blank(start + fixed.lastColumn, end);
    }
    start = end + 1;
  }
}

function _followedBy(pattern: RegExp | undefined, text: string, at: number): boolean {
  if (pattern === undefined) return false;
  pattern.lastIndex = at;
  return pattern.test(text);
}

function _lineMarkerCounts(after: RegExp | undefined, out: readonly string[], at: number): boolean {
  if (after === undefined) return true;
  let from = at;
  while (from > 0 && out[from - 1] !== "\n") from--;
  return after.test(out.slice(from, at).join(""));
}

/** Index of the closing delimiter of a string whose content starts at `from`. */
function _stringEnd(text: string, from: number, quote: string, syntax: CommentSyntax): number {
  const doubled = syntax.escape === "double";
  for (let j = from; j < text.length; j++) {
    const c = text[j]!;
    if (!syntax.multiline && c === "\n") return j;
    if (!doubled && c === "\\") {
      j++;
      continue;
    }
    if (text.startsWith(quote, j)) {
      if (doubled && text.startsWith(quote, j + quote.length)) {
        j += quote.length * 2 - 1;
        continue;
      }
      return j;
    }
  }
  return text.length;
}

function _indexOr(text: string, needle: string, from: number): number {
  const i = text.indexOf(needle, from);
  return i === -1 ? text.length : i;
}
