/**
 * The scalars section: one line of space-separated `key=value` pairs.
 *
 * A value is written bare unless it is empty or contains `,`, `=`, whitespace, `"`, a backslash
 * or a line break; then it is double-quoted with `""` for a quote, and escaped (see escape.ts).
 * `null` is the empty bare value; the empty string is `""`.
 *
 * @module
 */
import { readQuoted } from "./csv.ts";
import { escapeText, needsEscape, unescapeText } from "../../../src/codec/escape.ts";
import { isNumberText } from "../../../src/codec/numbers.ts";

const NEEDS_QUOTES = /[,="\s]/;

/** Format one scalar value (`null` → empty). */
export function formatScalar(value: string | null): string {
  if (value === null) return "";
  if (value === "") return '""';
  const escaped = needsEscape(value) ? escapeText(value) : value;
  if (escaped === value && !NEEDS_QUOTES.test(value)) return value;
  return '"' + escaped.replaceAll('"', '""') + '"';
}

/**
 * Key prefix of the scalars typed by their literal form: a bare `T`/`F` is a boolean and bare
 * number text a number, unless `__stypes` says otherwise; a string that would read so is quoted.
 * (The spec's own example, `_meta.timing_ms=3.1 _meta.truncated=F`, carries no `__stypes`.)
 */
export const LITERAL_PREFIX = "_meta.";

/** True when bare `text` reads as a boolean or a number under literal typing. */
export function readsAsLiteral(text: string): boolean {
  return text === "T" || text === "F" || isNumberText(text);
}

/** One parsed `key=value` pair; `value` is null for an empty bare value. */
export interface ScalarPair {
  key: string;
  value: string | null;
  /** The value was double-quoted. */
  quoted: boolean;
}

/**
 * Parse the scalars line. Quoted values are unescaped (backslash escapes, see escape.ts) unless
 * `unescape` is false, as MUNCH v1 itself reads them. Throws `SyntaxError` with line and column.
 */
export function parseScalars(line: string, lineNo: number, unescape = true): ScalarPair[] {
  const pairs: ScalarPair[] = [];
  const n = line.length;
  let i = 0;
  const fail = (what: string, at: number): never => {
    throw new SyntaxError(
      `Cannot decode payload: ${what} at line ${lineNo}, column ${at + 1}`,
    );
  };
  while (i < n) {
    const c = line.charCodeAt(i);
    if (c === 32 || c === 9) {
      i++;
      continue;
    }
    const eq = line.indexOf("=", i);
    if (eq === -1) fail(`expected "=" after key "${line.slice(i, i + 40)}"`, i);
    const key = line.slice(i, eq);
    if (/[\s"]/.test(key)) fail(`invalid key "${key}"`, i);
    i = eq + 1;
    if (line.charCodeAt(i) === 34 /* " */) {
      const run = readQuoted(line, i, n);
      if (run === undefined) return fail("unterminated quoted value", i);
      const [raw, j] = run;
      if (j < n && line.charCodeAt(j) !== 32 && line.charCodeAt(j) !== 9) {
        fail("expected whitespace after quoted value", j);
      }
      let value: string;
      try {
        value = unescape ? unescapeText(raw) : raw;
      } catch (e) {
        return fail((e as Error).message, i);
      }
      pairs.push({ key, value, quoted: true });
      i = j;
    } else {
      let j = i;
      while (j < n && line.charCodeAt(j) !== 32 && line.charCodeAt(j) !== 9) j++;
      const raw = line.slice(i, j);
      pairs.push({ key, value: raw === "" ? null : raw, quoted: false });
      i = j;
    }
  }
  return pairs;
}
