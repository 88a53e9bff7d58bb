/**
 * The strict MUNCH v1 encoder (the default). A tier-1 spec only steers the layout — scalar order,
 * table tags, column order, interned columns — so every payload is `gen1` to a decoder: it reads
 * with nothing but the header, the legend, the scalars, `__tables`, `__stypes`, `__json.` blobs
 * and the re-nesting of `_meta.` keys. See strict.ts for the rules, and mod.ts for the format.
 *
 * @module
 */
import { stringifyJson } from "./json_text.ts";
import { buildLegend, type InternValue, MIN_LENGTH } from "./legend.ts";
import { formatFloat, formatInt, isIntValue, isNumberText } from "../../../src/codec/numbers.ts";
import type { EncoderSpec, TableSpec } from "../../../src/codec/spec.ts";
import {
  blobText,
  columnType,
  formatStrictCell,
  formatStrictScalar,
  holdsRecords,
  isPlainColumn,
  isPlainKey,
  looksLikeHandle,
  needsJson,
  type StrictColumnType,
  uniformKeys,
} from "./strict.ts";
import { isJsonObject, type JsonObject, type JsonValue } from "../../../src/codec/types.ts";

/** Encoding id of every strict payload: decoders read it with the generic routine. */
export const STRICT_ID = "gen1";

const TAGS = "abcdefghijklmnopqrstuvwxyz";
const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;

/** A strict payload and what it had to write as JSON. */
export interface StrictPayload {
  text: string;
  /** Lists of records written as `__json.` blobs (they could not be tables). */
  recordBlobs: string[];
}

interface _Scalar {
  /** Key as written (with `__json.` for blobs). */
  key: string;
  /** Top-level key, to order scalars by the spec. */
  top: string;
  text: string;
  type: "int" | "float" | "bool" | undefined;
}

interface _Table {
  tag: string;
  key: string;
  rows: JsonObject[];
  columns: string[];
  types: StrictColumnType[];
  interned: boolean[];
}

/** A string cell's legend record. */
interface _Interned extends InternValue {
  value: string;
}

/**
 * Encode `response` as strict MUNCH v1, or return undefined when some top-level key cannot be
 * written so that every v1 decoder reads it back (a key with `.`, whitespace, `=`, or a
 * reserved `__` prefix). Throws `TypeError` for an invalid tool name or a non-object response.
 */
export function encodeStrict(
  tool: string,
  response: JsonObject,
  spec?: EncoderSpec,
): StrictPayload | undefined {
  if (!TOOL_NAME.test(tool)) {
    throw new TypeError(`Cannot encode response: invalid tool name "${tool}"`);
  }
  if (!isJsonObject(response)) {
    throw new TypeError("Cannot encode response: expected a plain object");
  }
  const specTables = new Map<string, TableSpec>((spec?.tables ?? []).map((t) => [t.key, t]));
  const scalars: _Scalar[] = [];
  const tables: _Table[] = [];
  const recordBlobs: string[] = [];
  const usedTags = new Set<string>();
  // Spec tables keep their tags even when an earlier list takes a free one.
  for (const k of Object.keys(response)) {
    const t = specTables.get(k);
    if (t && Array.isArray(response[k])) usedTags.add(t.tag);
  }
  const blob = (key: string, top: string, v: JsonValue) => {
    scalars.push({ key: "__json." + key, top, text: _blob(v), type: undefined });
  };

  for (const key of Object.keys(response)) {
    const v = response[key]!;
    if (key === "_meta" && isJsonObject(v)) {
      _meta(v, scalars);
      continue;
    }
    if (!isPlainKey(key)) return undefined;
    if (Array.isArray(v)) {
      const s = specTables.get(key);
      const table = _table(key, v, s);
      const tag = table &&
        (s && !tables.some((t) => t.tag === s.tag) ? s.tag : _freeTag(key, usedTags));
      if (table && tag !== undefined) {
        usedTags.add(tag);
        table.tag = tag;
        tables.push(table);
      } else {
        if (holdsRecords(v)) recordBlobs.push(key);
        blob(key, key, v);
      }
    } else if (isJsonObject(v)) blob(key, key, v);
    else if (typeof v === "string" && (needsJson(v) || looksLikeHandle(v))) blob(key, key, v);
    else scalars.push(_scalar(key, key, v));
  }

  // The legend: interned string cells, plus one whole-value entry for each empty string and each
  // string that starts like a handle (`@5x`), which no other spelling reads back in a cell.
  const values = new Map<string, _Interned>();
  const forced = new Map<string, number>();
  const recsOf = tables.map((t) => _internTable(t, values, forced, specTables.get(t.key)));
  const legend = buildLegend(values);
  for (const v of forced.keys()) forced.set(v, legend.push(v));

  // Scalars: the spec's order first, then the response's; the reserved keys last.
  const order = spec?.scalars;
  let ranked = scalars;
  if (order && order.length) {
    const rank = new Map(order.map((k, i) => [k, i]));
    ranked = scalars.map((s, i) => ({ s, r: rank.get(s.top) ?? order.length + i }))
      .sort((a, b) => a.r - b.r).map((x) => x.s);
  }
  const parts = ranked.map((s) => s.key + "=" + s.text);
  const defs = tables.map((t) => `${t.tag}:${t.key}:${t.columns.join("|")}:${t.types.join("|")}`);
  const stypes = ranked.filter((s) => s.type).map((s) => `${s.key}:${s.type}`);
  parts.push("__tables=" + (defs.length ? formatStrictScalar(defs.join(",")) : ""));
  parts.push("__stypes=" + stypes.join("|"));

  const sections = [`#MUNCH/1 tool=${tool} enc=${STRICT_ID}`];
  if (legend.length) sections.push(legend.map((e, i) => `@${i + 1}=${e}`).join("\n"));
  sections.push(parts.join(" "));
  tables.forEach((t, i) => sections.push(_rows(t, recsOf[i]!, forced)));
  return { text: sections.join("\n\n") + "\n", recordBlobs };
}

/**
 * `_meta` as flat `_meta.<field>` scalars, each typed in `__stypes`. A field that is not a
 * scalar, or a string that a decoder typing `_meta` values by their form would read as a number
 * or boolean (`"10"`, `"T"`), is a `__json._meta.<field>` blob; a `_meta` with a field name that
 * cannot be written, or with no fields, is one `__json._meta` blob.
 */
function _meta(meta: JsonObject, out: _Scalar[]): void {
  const keys = Object.keys(meta);
  if (keys.length === 0 || !keys.every(isPlainKey)) {
    out.push({ key: "__json._meta", top: "_meta", text: _blob(meta), type: undefined });
    return;
  }
  for (const k of keys) {
    const v = meta[k]!;
    const key = "_meta." + k;
    const literal = typeof v === "string" &&
      (v === "T" || v === "F" || isNumberText(v) || needsJson(v) || looksLikeHandle(v));
    if (literal || (v !== null && typeof v === "object")) {
      out.push({ key: "__json." + key, top: "_meta", text: _blob(v), type: undefined });
    } else out.push(_scalar(key, "_meta", v));
  }
}

function _scalar(key: string, top: string, v: JsonValue): _Scalar {
  if (typeof v === "string") return { key, top, text: formatStrictScalar(v), type: undefined };
  if (typeof v === "number") {
    const int = isIntValue(v);
    return { key, top, text: int ? formatInt(v) : formatFloat(v), type: int ? "int" : "float" };
  }
  if (typeof v === "boolean") return { key, top, text: v ? "T" : "F", type: "bool" };
  return { key, top, text: "", type: undefined };
}

function _blob(v: JsonValue): string {
  return formatStrictScalar(blobText(stringifyJson(v)));
}

function _freeTag(key: string, used: Set<string>): string | undefined {
  const first = key.charAt(0).toLowerCase();
  if (first.length === 1 && TAGS.includes(first) && !used.has(first)) return first;
  for (const t of TAGS) if (!used.has(t)) return t;
  return undefined;
}

/** A list as a v1 table, or undefined when it cannot be one (then it is a JSON blob). */
function _table(key: string, rows: JsonValue[], spec: TableSpec | undefined): _Table | undefined {
  const keys = uniformKeys(rows);
  if (keys === undefined || !keys.every(isPlainColumn)) return undefined;
  // The spec's column order first, then the first row's.
  const columns = spec
    ? [
      ...spec.columns.filter((c) => keys.includes(c)),
      ...keys.filter((c) => !spec.columns.includes(c)),
    ]
    : keys;
  const records = rows as JsonObject[];
  const types: StrictColumnType[] = [];
  for (const c of columns) {
    const type = columnType(records.map((r) => r[c]!));
    if (type === undefined) return undefined;
    types.push(type);
  }
  const intern = spec?.intern;
  return {
    tag: "",
    key,
    rows: records,
    columns,
    types,
    interned: columns.map((c, j) => types[j] === "str" && (intern ? intern.includes(c) : true)),
  };
}

/** Count the interned cells of a table; note the values only a whole-value entry can carry. */
function _internTable(
  t: _Table,
  values: Map<string, _Interned>,
  forced: Map<string, number>,
  _spec: TableSpec | undefined,
): (_Interned | undefined)[][] {
  return t.columns.map((c, j) => {
    if (t.types[j] !== "str") return [];
    const recs: (_Interned | undefined)[] = new Array(t.rows.length);
    let last: _Interned | undefined;
    for (let i = 0; i < t.rows.length; i++) {
      const v = t.rows[i]![c];
      if (typeof v !== "string") continue;
      if (v === "" || looksLikeHandle(v)) {
        forced.set(v, 0);
        continue;
      }
      if (!t.interned[j] || v.length < MIN_LENGTH) continue;
      let rec = last !== undefined && last.value === v ? last : values.get(v);
      if (rec === undefined) {
        rec = { value: v, count: 0, handle: 0, prefixLength: 0 };
        values.set(v, rec);
      }
      rec.count++;
      recs[i] = last = rec;
    }
    return recs;
  });
}

function _rows(t: _Table, recs: (_Interned | undefined)[][], forced: Map<string, number>): string {
  const lines: string[] = new Array(t.rows.length);
  const n = t.columns.length;
  for (let i = 0; i < t.rows.length; i++) {
    const r = t.rows[i]!;
    let line = t.tag;
    for (let j = 0; j < n; j++) {
      const v = r[t.columns[j]!]!;
      line += ",";
      if (v === null) continue;
      switch (t.types[j]) {
        case "str": {
          const s = v as string;
          const handle = s === "" || looksLikeHandle(s) ? forced.get(s) : undefined;
          if (handle !== undefined) line += "@" + handle;
          else {
            const rec = recs[j]![i];
            line += formatStrictCell(
              rec !== undefined && rec.handle !== 0
                ? "@" + rec.handle + s.slice(rec.prefixLength)
                : s,
            );
          }
          break;
        }
        case "int":
          line += formatInt(v as number);
          break;
        case "float":
          line += formatFloat(v as number);
          break;
        default:
          line += v ? "T" : "F";
      }
    }
    lines[i] = line;
  }
  return lines.join("\n");
}
