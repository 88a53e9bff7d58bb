/**
 * RFC 4180 rows for MUNCH table sections, with the two distinctions MUNCH needs:
 * an unquoted empty field is `null`, a quoted empty field `""` is the empty string,
 * and quoting is reported per field so the decoder knows which fields to unescape.
 *
 * Written here rather than through `csv-stringify`/`csv-parse` (which the tests still use
 * as an interoperability oracle): `csv-stringify` quotes `null` like `""` under
 * `quoted_empty`, and both were about 10x too slow for the codec's speed target.
 *
 * @module
 */
import { escapeText, needsEscape } from "../../../src/codec/escape.ts";

// RFC 4180 keeps spaces as part of a field, so only quotes, commas and line breaks need quoting.
const NEEDS_QUOTES = /[",\n\r]/;

// Any character that makes a text field more than its bare self: RFC 4180 specials and what the
// codec escapes (backslash and line breaks).
// deno-lint-ignore no-control-regex -- the control characters are the point
const SPECIAL = /[",\\\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/**
 * Format a text field the codec's way: `""` for the empty string, bare when nothing is special,
 * else quoted, with backslashes and line breaks escaped (escape.ts).
 */
export function formatTextField(text: string): string {
  if (text === "") return '""';
  // Short texts (most cells) are scanned inline, which beats a regex call on them.
  if (text.length < 24 ? !_hasSpecial(text) : !SPECIAL.test(text)) return text;
  return formatField(needsEscape(text) ? escapeText(text) : text, true);
}

/** `SPECIAL.test(text)`, as a loop. */
function _hasSpecial(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (
      c <= 44
        ? c === 44 || c === 34 || (c >= 10 && c <= 13) || (c >= 0x1c && c <= 0x1e)
        : c === 92 || c === 0x85 || c === 0x2028 || c === 0x2029
    ) return true;
  }
  return false;
}

/**
 * Format one field. `null` is the unquoted empty field; `force` quotes the field even when
 * RFC 4180 would not need it (the codec forces quotes on escaped text).
 */
export function formatField(text: string | null, force = false): string {
  if (text === null) return "";
  if (text === "") return '""';
  if (force || NEEDS_QUOTES.test(text)) {
    return '"' + (text.includes('"') ? text.replaceAll('"', '""') : text) + '"';
  }
  return text;
}

/**
 * Scan the rows of one section (lines joined by `\n`, no trailing newline), calling `onRow` with
 * each row's field texts, their quoted flags and the field count. The arrays are reused between
 * calls. Quoted fields may not span lines (the codec escapes line breaks), so each line is a row.
 * Throws `SyntaxError` with the 1-based line (counting from `firstLine`) and column.
 */
export function scanRows(
  section: string,
  firstLine: number,
  onRow: (texts: string[], quoted: boolean[], count: number, line: number) => void,
): void {
  const texts: string[] = [];
  const quoted: boolean[] = [];
  const n = section.length;
  let line = firstLine;
  let i = 0;
  while (true) {
    let nl = section.indexOf("\n", i);
    if (nl === -1) nl = n;
    onRow(texts, quoted, scanLine(section, i, nl, line, texts, quoted), line);
    if (nl === n) return;
    i = nl + 1;
    line++;
  }
}

/**
 * Scan one row: the line `s[start, end)` (no line break inside). Fills `texts` and `quoted` and
 * returns the field count. Throws `SyntaxError` with `line` and the column.
 */
export function scanLine(
  s: string,
  start: number,
  end: number,
  line: number,
  texts: string[],
  quoted: boolean[],
): number {
  let count = 0;
  let i = start;
  while (true) {
    if (i < end && s.charCodeAt(i) === 34 /* " */) {
      const run = readQuoted(s, i, end);
      if (run === undefined) throw _error("unterminated quoted field", line, i - start);
      const j = run[1];
      if (j < end && s.charCodeAt(j) !== 44) {
        throw _error('expected "," after quoted field', line, j - start);
      }
      texts[count] = run[0];
      quoted[count++] = true;
      i = j;
    } else {
      let j = i;
      for (; j < end; j++) {
        const c = s.charCodeAt(j);
        if (c === 44) break;
        if (c === 34) throw _error("unexpected quote in unquoted field", line, j - start);
      }
      texts[count] = s.slice(i, j);
      quoted[count++] = false;
      i = j;
    }
    if (i >= end) return count;
    i++;
  }
}

/**
 * Read the quoted run that opens at `start` (a `"`), with `""` for a quote; returns its text and
 * the index after the closing quote, or undefined when it does not close before `limit`.
 */
export function readQuoted(s: string, start: number, limit: number): [string, number] | undefined {
  let text = "";
  let j = start + 1;
  while (true) {
    const q = s.indexOf('"', j);
    if (q === -1 || q >= limit) return undefined;
    text += s.slice(j, q);
    if (s.charCodeAt(q + 1) !== 34) return [text, q + 1];
    text += '"';
    j = q + 2;
  }
}

function _error(what: string, line: number, column: number): SyntaxError {
  return new SyntaxError(`Cannot decode payload: ${what} at line ${line}, column ${column + 1}`);
}
