/**
 * Strict MUNCH v1: the rules that keep a payload inside SPEC_MUNCH v1, so that any decoder that
 * follows the spec — one that re-nests only `_meta.` dotted keys, a schema-free one, one that
 * types scalars only through `__stypes` or one that also reads `_meta.` values by their form —
 * decodes it to exactly the response that was encoded.
 *
 * What the spec leaves to interpretation is avoided rather than relied on: no backslash escapes
 * (the spec defines none), no line break inside any value (decoders may split with
 * `splitlines()`), no dotted key other than `_meta.<field>`, no legend handle outside table
 * cells, no quoted empty cell (the spec reads every empty field as null), no key outside a plain
 * name alphabet. Whatever would need one of these goes as a `__json.` blob, or, for a key that
 * cannot be written at all, makes the response unrepresentable (the dispatcher then sends JSON).
 *
 * @module
 */
import { isIntValue } from "../../../src/codec/numbers.ts";
import { isJsonObject, type JsonValue } from "../../../src/codec/types.ts";

/**
 * A key every v1 decoder reads back as itself: top-level keys, `_meta` fields and column names.
 * No `.` (nesting), nothing the scalar line or `__tables` gives a meaning to, no whitespace.
 */
const PLAIN_NAME = /^[A-Za-z0-9_$/+-]+$/;

/** True when `key` can be written as a top-level scalar key or `_meta.<key>`. */
export function isPlainKey(key: string): boolean {
  // `__…` keys are the spec's reserved namespace (`__tables`, `__json.`, future ones).
  return PLAIN_NAME.test(key) && !key.startsWith("__");
}

/** True when `name` can be written as a column name in `__tables`. */
export function isPlainColumn(name: string): boolean {
  return PLAIN_NAME.test(name) && name !== "__proto__";
}

/**
 * Characters that break a line for some reader: LF and CR, and the others Python's
 * `str.splitlines()` breaks on (VT, FF, FS, GS, RS, NEL, LS, PS).
 */
// deno-lint-ignore no-control-regex -- the control characters are the point
const LINE_BREAK = /[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** A UTF-16 surrogate without its pair: no UTF-8 text can carry it (JSON escapes it). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * True when `text` cannot be written raw: it holds a character that some v1 reader takes as a
 * line end, a NUL, or a lone surrogate (lost in UTF-8). Such text travels inside a `__json.` blob.
 */
export function needsJson(text: string): boolean {
  // One cheap scan for the rare characters; the exact checks only when one occurs.
  return SUSPECT.test(text) &&
    (LINE_BREAK.test(text) || LONE_SURROGATE.test(text) || text.includes("\0"));
}

/**
 * Line breaks, NUL (which CSV readers before Python 3.11 refuse) and any surrogate (paired ones
 * are fine, but rare enough to check twice).
 */
// deno-lint-ignore no-control-regex -- the control characters are the point
const SUSPECT = /[\0\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029\ud800-\udfff]/;

/**
 * Characters that make a scalar value quoted: `,`, `=`, `"` and whitespace — Unicode whitespace
 * as JavaScript and Python's `str.split()` see it (which includes FS..US and NEL).
 */
// deno-lint-ignore no-control-regex -- the control characters are the point
const SCALAR_QUOTE = /[,="\s\x1c-\x1f\x85]/;

/**
 * A scalar value as the spec writes it: bare, or double-quoted with `""` for a quote; the empty
 * string is `""`. The caller guarantees that `text` does not {@linkcode needsJson}.
 */
export function formatStrictScalar(text: string): string {
  if (text === "") return '""';
  if (!SCALAR_QUOTE.test(text)) return text;
  return '"' + text.replaceAll('"', '""') + '"';
}

/** A table cell of type `str` (after the legend), quoted per RFC 4180 when it must be. */
export function formatStrictCell(text: string): string {
  return text.includes(",") || text.includes('"') ? '"' + text.replaceAll('"', '""') + '"' : text;
}

/** True when `value` starts with `@` and a digit: a decoder would read it as a legend handle. */
export function looksLikeHandle(value: string): boolean {
  if (value.charCodeAt(0) !== 64 /* @ */) return false;
  const d = value.charCodeAt(1);
  return d >= 48 && d <= 57;
}

// JSON.stringify leaves these raw inside strings; some readers break lines on them.
const JSON_RAW_BREAKS = /[\x85\u2028\u2029]/g;

/** JSON text for a `__json.` blob: one line for every reader (NEL, LS and PS escaped). */
export function blobText(json: string): string {
  return json.replace(
    JSON_RAW_BREAKS,
    (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"),
  );
}

/** The MUNCH column type of a list of values, or undefined when no v1 column holds them all. */
export type StrictColumnType = "str" | "int" | "float" | "bool";

/**
 * The v1 type of one column's values (nulls allowed in any type), or undefined when the values
 * mix kinds a v1 column cannot hold (a string and a number) or hold objects, arrays or text that
 * {@linkcode needsJson}. `int` and `float` values together make a `float` column.
 */
export function columnType(values: Iterable<JsonValue>): StrictColumnType | undefined {
  let str = false, int = false, float = false, bool = false;
  for (const v of values) {
    if (v === null) continue;
    switch (typeof v) {
      case "string":
        if (needsJson(v)) return undefined;
        str = true;
        break;
      case "number":
        if (isIntValue(v)) int = true;
        else float = true;
        break;
      case "boolean":
        bool = true;
        break;
      default:
        return undefined;
    }
  }
  const kinds = +str + +(int || float) + +bool;
  if (kinds > 1) return undefined;
  return str ? "str" : float ? "float" : int ? "int" : bool ? "bool" : "str";
}

/** The keys of `rows` when every row is a plain object with one and the same key set. */
export function uniformKeys(rows: readonly JsonValue[]): string[] | undefined {
  if (rows.length === 0) return undefined;
  const first = rows[0];
  if (!isJsonObject(first)) return undefined;
  const keys = Object.keys(first);
  if (keys.length === 0) return undefined;
  for (let i = 1; i < rows.length; i++) {
    const r = rows[i];
    if (!isJsonObject(r)) return undefined;
    let n = 0;
    for (const k in r) {
      if (!Object.hasOwn(first, k)) return undefined;
      n++;
    }
    if (n !== keys.length) return undefined;
  }
  return keys;
}

/** True for a list that holds at least one object (a list of records). */
export function holdsRecords(v: JsonValue): boolean {
  return Array.isArray(v) && v.some((x) => isJsonObject(x) || Array.isArray(x));
}
