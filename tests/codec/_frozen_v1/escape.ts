/**
 * Escaping rules shared by scalars and table cells.
 *
 * - Text escapes apply only inside quoted values: `\\` is a backslash, `\n` LF, `\r` CR, and
 *   `\uXXXX` one UTF-16 unit (used for the other characters that Python's `splitlines()` treats
 *   as line breaks). The encoder quotes every value that contains a backslash or a line break,
 *   so an unquoted value is always literal and a payload line never breaks inside a value.
 * - Names (keys, column names) escape their special characters as `%XX` (UTF-8 percent
 *   encoding); `%` itself is always escaped, so decoding is unambiguous.
 * - A string value that starts with `@` and a digit is written as `@0` + value (handle 0 never
 *   exists), so it cannot be mistaken for a legend handle.
 *
 * @module
 */

// Characters that must never appear raw in a payload line.
// deno-lint-ignore no-control-regex -- the control characters are the point
const LINE_BREAKS = /[\\\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;
// deno-lint-ignore no-control-regex -- the control characters are the point
const LINE_BREAKS_G = /[\\\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;

/** True when `text` must be escaped (and therefore quoted). */
export function needsEscape(text: string): boolean {
  return LINE_BREAKS.test(text);
}

/** Escape backslashes and line breaks (see the module doc). */
export function escapeText(text: string): string {
  return text.replace(LINE_BREAKS_G, _escapeChar);
}

function _escapeChar(c: string): string {
  switch (c) {
    case "\\":
      return "\\\\";
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    default:
      return "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0");
  }
}

/** Reverse `escapeText`. Throws `SyntaxError` (without position) on a bad escape. */
export function unescapeText(text: string): string {
  if (!text.includes("\\")) return text;
  let out = "";
  let i = 0;
  while (true) {
    const b = text.indexOf("\\", i);
    if (b === -1) return out + text.slice(i);
    out += text.slice(i, b);
    const c = text[b + 1];
    if (c === "\\") out += "\\";
    else if (c === "n") out += "\n";
    else if (c === "r") out += "\r";
    else if (c === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(b + 2, b + 6))) {
      out += String.fromCharCode(parseInt(text.slice(b + 2, b + 6), 16));
      i = b + 6;
      continue;
    } else {
      throw new SyntaxError(`invalid escape "\\${c ?? ""}"`);
    }
    i = b + 2;
  }
}

/** Escape a leading `@<digit>` so the value cannot read as a legend handle. */
export function escapeHandle(value: string): string {
  return _startsWithHandle(value) ? "@0" + value : value;
}

/** True when `value` starts with `@` followed by a digit. */
export function _startsWithHandle(value: string): boolean {
  if (value.charCodeAt(0) !== 64 /* @ */) return false;
  const d = value.charCodeAt(1);
  return d >= 48 && d <= 57;
}

// Key path segments: the nesting dot, scalar-line syntax, list separators of `__tables`,
// whitespace and line breaks, the escape character itself, and `@`.
// deno-lint-ignore no-control-regex -- the control characters are the point
const KEY_SPECIAL = /[%.=,:|"@\\\s\x00-\x1f\x7f\x85\u2028\u2029]/;
// deno-lint-ignore no-control-regex -- the control characters are the point
const KEY_SPECIAL_G = /[%.=,:|"@\\\s\x00-\x1f\x7f\x85\u2028\u2029]/g;
// Column names: only what would break the `__tables` entry or the scalar line.
// deno-lint-ignore no-control-regex -- the control characters are the point
const COLUMN_SPECIAL = /[%,:|=" \\\s\x00-\x1f\x7f\x85\u2028\u2029]/;
// deno-lint-ignore no-control-regex -- the control characters are the point
const COLUMN_SPECIAL_G = /[%,:|=" \\\s\x00-\x1f\x7f\x85\u2028\u2029]/g;

/** Percent-encode the special characters of one key path segment. */
export function encodeKey(key: string): string {
  return KEY_SPECIAL.test(key) ? key.replace(KEY_SPECIAL_G, _percent) : key;
}

/** Percent-encode the special characters of a column name. */
export function encodeColumn(name: string): string {
  return COLUMN_SPECIAL.test(name) ? name.replace(COLUMN_SPECIAL_G, _percent) : name;
}

function _percent(c: string): string {
  const e = encodeURIComponent(c);
  return e === c ? "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0") : e;
}

/** Decode a percent-encoded key segment or column name. */
export function decodeName(name: string): string {
  if (!name.includes("%")) return name;
  try {
    return decodeURIComponent(name);
  } catch {
    throw new SyntaxError(`invalid percent-encoding in name "${name}"`);
  }
}
