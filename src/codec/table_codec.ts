/**
 * The columnar table format `{cols, dict, rows}` (spec/response-format.md): a list of uniform
 * records stored column-wise, with selected columns interned in `dict`.
 *
 * @module
 */
import { stringifyJson } from "./json_text.ts";
import { isJsonObject, type JsonObject, type JsonValue, setKey } from "./types.ts";

/** A list of records in columnar form. */
export interface EncodedTable {
  /** Column order; each row holds one cell per column. */
  cols: string[];
  /** Interned columns: the distinct values; the column's cells are indexes into this list. */
  dict: Record<string, JsonValue[]>;
  /** One array of cells per record, in `cols` order. */
  rows: JsonValue[][];
}

/** Options for {@linkcode encodeTable}. */
export interface EncodeTableOptions {
  /**
   * Columns to intern. When omitted, every column whose interning saves bytes is interned.
   * @default {undefined}
   */
  intern?: readonly string[];
}

/**
 * Encode a list of records that all have the same keys as a columnar table.
 * Throws `TypeError` when the rows are not objects with one key set.
 *
 * @example Intern a repeated column
 * ```ts
 * import { encodeTable } from "@codemunch/codemunch";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const t = encodeTable([{ f: "a.ts", n: 1 }, { f: "a.ts", n: 2 }], { intern: ["f"] });
 * assertEquals(t, { cols: ["f", "n"], dict: { f: ["a.ts"] }, rows: [[0, 1], [0, 2]] });
 * ```
 */
export function encodeTable(
  rows: readonly JsonObject[],
  options: EncodeTableOptions = {},
): EncodedTable {
  if (!Array.isArray(rows) || rows.length === 0) {
    throw new TypeError("Cannot encode table: expected a non-empty array of objects");
  }
  const cols = _uniformKeys(rows);
  if (cols === undefined) {
    throw new TypeError("Cannot encode table: rows must be objects with the same keys");
  }
  const interned = new Set(options.intern ?? cols.filter((c) => _internSaves(rows, c)));
  const dict: Record<string, JsonValue[]> = {};
  const indexes = new Map<string, Map<string, number>>();
  for (const c of cols) {
    if (!interned.has(c)) continue;
    setKey(dict as JsonObject, c, []);
    indexes.set(c, new Map());
  }
  const out = rows.map((r) =>
    cols.map((c) => {
      const v = r[c]!;
      const index = indexes.get(c);
      if (index === undefined) return v;
      const key = stringifyJson(v);
      let i = index.get(key);
      if (i === undefined) {
        i = dict[c]!.length;
        dict[c]!.push(v);
        index.set(key, i);
      }
      return i;
    })
  );
  return { cols, dict, rows: out };
}

/**
 * Decode a table with the single rule of the format: a cell in a column named in `dict` is an
 * index into `dict[col]`; any other cell is its literal value. A plain array is returned as it
 * is, `null`/`undefined` as `[]`, and an out-of-range or non-integer index passes through as a
 * literal.
 *
 * @example Decode a table
 * ```ts
 * import { decodeTable } from "@codemunch/codemunch";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const rows = decodeTable({ cols: ["f", "n"], dict: { f: ["a.ts"] }, rows: [[0, 1]] });
 * assertEquals(rows, [{ f: "a.ts", n: 1 }]);
 * ```
 */
export function decodeTable(table: EncodedTable | JsonValue[] | null | undefined): JsonObject[] {
  if (table === null || table === undefined) return [];
  if (Array.isArray(table)) return table as JsonObject[];
  const dict = table.dict ?? {};
  return table.rows.map((row) => {
    const o: JsonObject = {};
    table.cols.forEach((c, i) => {
      const v = row[i] ?? null;
      const d = Object.hasOwn(dict, c) ? dict[c] : undefined;
      setKey(
        o,
        c,
        d && typeof v === "number" && Number.isInteger(v) && v >= 0 && v < d.length ? d[v]! : v,
      );
    });
    return o;
  });
}

const LITERAL = "__literal";

/**
 * Encode every list of uniform records inside a response as a table (recursively), keeping the
 * result valid JSON. An object that would read as a table (`{cols, dict, rows}`) or as an escape
 * (`{__literal}`) is wrapped as `{"__literal": ...}` so decoding stays lossless.
 *
 * @example Encode a response
 * ```ts
 * import { decodeTables, encodeTables } from "@codemunch/codemunch";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * const response = { hits: [{ file: "a.ts", line: 1 }, { file: "a.ts", line: 9 }], total: 2 };
 * const packed = encodeTables(response);
 * assertEquals(decodeTables(packed), response);
 * ```
 */
export function encodeTables(value: JsonValue): JsonValue {
  if (Array.isArray(value)) {
    const items = value.map(encodeTables);
    if (items.length >= 2 && _uniformKeys(items) !== undefined) {
      const t = encodeTable(items as JsonObject[]);
      return t as unknown as JsonValue;
    }
    return items;
  }
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const k of Object.keys(value)) setKey(out, k, encodeTables(value[k]!));
  return _looksEncoded(value) ? { [LITERAL]: out } : out;
}

/**
 * Reverse {@linkcode encodeTables}: decode every table inside a response (recursively) and unwrap
 * `{"__literal": ...}` escapes.
 *
 * @example Plain values pass through
 * ```ts
 * import { decodeTables } from "@codemunch/codemunch";
 * import { deepStrictEqual as assertEquals } from "node:assert/strict";
 *
 * assertEquals(decodeTables({ a: [1, 2], b: "x" }), { a: [1, 2], b: "x" });
 * ```
 */
export function decodeTables(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(decodeTables);
  if (!isJsonObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === LITERAL && isJsonObject(value[LITERAL])) {
    const inner = value[LITERAL] as JsonObject;
    const out: JsonObject = {};
    for (const k of Object.keys(inner)) setKey(out, k, decodeTables(inner[k]!));
    return out;
  }
  if (_isTableShape(value)) {
    return decodeTable(value as unknown as EncodedTable).map((r) => decodeTables(r));
  }
  const out: JsonObject = {};
  for (const k of keys) setKey(out, k, decodeTables(value[k]!));
  return out;
}

function _uniformKeys(rows: readonly JsonValue[]): string[] | undefined {
  const first = rows[0];
  if (!isJsonObject(first)) return undefined;
  const cols = Object.keys(first);
  if (cols.length === 0) return undefined;
  for (const r of rows) {
    if (!isJsonObject(r)) return undefined;
    const keys = Object.keys(r);
    if (keys.length !== cols.length) return undefined;
    for (const k of keys) if (!Object.hasOwn(first, k)) return undefined;
  }
  return cols;
}

function _internSaves(rows: readonly JsonObject[], col: string): boolean {
  const seen = new Map<string, number>();
  let literal = 0;
  for (const r of rows) {
    const key = stringifyJson(r[col]!);
    literal += key.length;
    if (!seen.has(key)) seen.set(key, seen.size);
  }
  let interned = col.length + 6;
  for (const key of seen.keys()) interned += key.length + 1;
  for (const r of rows) interned += String(seen.get(stringifyJson(r[col]!))).length;
  return interned < literal;
}

function _isTableShape(v: JsonObject): boolean {
  const keys = Object.keys(v);
  return keys.length === 3 && Array.isArray(v.cols) && isJsonObject(v.dict) &&
    Array.isArray(v.rows) && v.cols.every((c) => typeof c === "string") &&
    v.rows.every(Array.isArray);
}

function _looksEncoded(v: JsonObject): boolean {
  const keys = Object.keys(v);
  return _isTableShape(v) || (keys.length === 1 && keys[0] === LITERAL);
}
