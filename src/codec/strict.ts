/**
 * Strict MUNCH v1: the rules that keep a payload inside SPEC_MUNCH v1, so that any decoder that
 * follows the spec — the reference's gen1 decoder (which re-nests nothing but `__json.` blobs,
 * reads an untyped scalar as a string and every empty cell as null), one that re-nests `_meta.`
 * dotted keys, a schema-free one, one that types scalars only through `__stypes` — decodes it to
 * exactly the response that was encoded.
 *
 * What the spec leaves to interpretation is avoided rather than relied on: no backslash escapes
 * (the spec defines none), no line break inside any value (decoders may split with
 * `splitlines()`), no dotted key at all (`_meta` is one `__json._meta` blob), no bare empty
 * scalar (`null` is the blob `__json.<key>=null`), no legend handle outside table cells and none
 * followed by a digit of any script, no empty string in a table cell (the spec reads every empty
 * field as null, and a legend entry for it reads back as an empty field), no cell longer than
 * Python's CSV field limit, no key outside a plain name alphabet. Whatever would need one of these
 * goes as a `__json.` blob, or, for a key that cannot be written at all, makes the response
 * unrepresentable (the dispatcher then sends JSON).
 *
 * @module
 */
import { digitLikeAt } from "./legend.ts";
import { isIntValue } from "./numbers.ts";
import { isJsonObject, type JsonObject, type JsonValue } from "./types.ts";

/**
 * A key every v1 decoder reads back as itself: top-level keys, `_meta` fields and column names.
 * No `.` (nesting), nothing the scalar line or `__tables` gives a meaning to, no whitespace.
 */
const PLAIN_NAME = /^[A-Za-z0-9_$/+-]+$/;

/** True when `key` can be written as a top-level scalar key (or a `_meta` field). */
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
  return '"' + text.replace(QUOTE_G, '""') + '"';
}

// (A global regex replaces quotes faster than `replaceAll` with a string pattern.)
const QUOTE_G = /"/g;

/** A table cell of type `str` (after the legend), quoted per RFC 4180 when it must be. */
export function formatStrictCell(text: string): string {
  return text.includes(",") || text.includes('"') ? '"' + text.replace(QUOTE_G, '""') + '"' : text;
}

/**
 * True when `value` starts with `@` and a digit (of any script: Python's `isdigit()`, which the
 * reference's decoder uses, counts `²` and `٣`): a decoder would read it as a legend handle.
 */
export function looksLikeHandle(value: string): boolean {
  return value.charCodeAt(0) === 64 /* @ */ && digitLikeAt(value, 1);
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

/** One v1 table column as the encoder found it. */
export interface StrictColumn {
  type: StrictColumnType;
  /** Some `str` cell holds `,` or `"`: cells must go through {@linkcode formatStrictCell}. */
  quotes: boolean;
}

// `,` or `"`: a cell holding one is quoted (RFC 4180).
const CELL_QUOTE = /[,"]/;

/**
 * Longest text a table cell may hold: Python's `csv` module refuses a field longer than this
 * (`field_size_limit()`, 131,072 characters), and the reference's decoders read rows with it.
 */
export const MAX_CELL_LENGTH = 131_072;

/**
 * The v1 type of column `at` of `rows` (each row's values, see {@linkcode rowValues}; nulls
 * allowed in any type), or undefined when no v1 column holds the values so that every decoder
 * reads them back: they mix kinds (a string and a number), hold objects, arrays, text that
 * {@linkcode needsJson}, the empty string (every v1 decoder may read an empty field as null, and
 * the reference's reads a legend entry for it so too) or a string longer than
 * {@linkcode MAX_CELL_LENGTH}. `int` and `float` values together make a `float` column.
 */
export function columnType(rows: readonly JsonValue[][], at: number): StrictColumn | undefined {
  let str = false, int = false, float = false, bool = false;
  // The column's strings, end to end: one regex over them all decides what would otherwise take
  // a regex call per cell. Both classes match single characters, so no match spans two cells.
  let text = "";
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i]![at]!;
    if (v === null) continue;
    switch (typeof v) {
      case "string":
        if (v.length === 0 || v.length > MAX_CELL_LENGTH) return undefined;
        text += v;
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
  if (str && SUSPECT.test(text)) {
    for (let i = 0; i < rows.length; i++) {
      const v = rows[i]![at];
      if (typeof v === "string" && needsJson(v)) return undefined;
    }
  }
  const type = str ? "str" : float ? "float" : int ? "int" : bool ? "bool" : "str";
  return { type, quotes: str && CELL_QUOTE.test(text) };
}

/** The keys of a list of records and each record's values, in the order of those keys. */
export interface RowValues {
  keys: string[];
  /** Per row, its values: `values[i][k]` is row `i`'s value of `keys[k]`. */
  values: JsonValue[][];
}

/** The keys and values of `rows` when every row is a plain object with one and the same key set. */
export function rowValues(rows: readonly JsonValue[]): RowValues | undefined {
  if (rows.length === 0) return undefined;
  const first = rows[0];
  if (!isJsonObject(first)) return undefined;
  const keys = Object.keys(first);
  const n = keys.length;
  if (n === 0) return undefined;
  const values: JsonValue[][] = new Array(rows.length);
  values[0] = _valuesIn(first, keys);
  for (let i = 1; i < rows.length; i++) {
    const r = rows[i];
    if (!isJsonObject(r)) return undefined;
    // Rows that list the first row's keys in its order (the usual case) are read with
    // `Object.values`; any other row by key.
    let j = 0, inOrder = true;
    for (const k in r) {
      if (inOrder && k === keys[j]) {
        j++;
        continue;
      }
      inOrder = false;
      if (!Object.hasOwn(first, k)) return undefined;
      j++;
    }
    if (j !== n) return undefined;
    values[i] = inOrder ? _valuesIn(r, keys) : keys.map((k) => r[k]!);
  }
  return { keys, values };
}

/** `keys.map((k) => r[k])` for a row whose enumerable keys are `keys`, in that order. */
function _valuesIn(r: JsonObject, keys: readonly string[]): JsonValue[] {
  const v = Object.values(r);
  // An inherited enumerable key counts in `for…in` but has no own value: read such rows by key.
  return v.length === keys.length ? v : keys.map((k) => r[k]!);
}

/** True for a list that holds at least one object (a list of records). */
export function holdsRecords(v: JsonValue): boolean {
  return Array.isArray(v) && v.some((x) => isJsonObject(x) || Array.isArray(x));
}
