/**
 * The MUNCH encoder: `gen1` (shape-sniffing, for any response) and tier-1 (the same machinery
 * steered by an `EncoderSpec`). Every payload carries `__tables`/`__stypes`, so a schema-free
 * decoder reads it.
 *
 * @module
 */
import { formatTextField } from "./csv.ts";
import { encodeColumn, encodeKey, escapeHandle } from "./escape.ts";
import { stringifyJson } from "./json_text.ts";
import { applyLegend, buildLegend, type InternValue, MIN_LENGTH } from "./legend.ts";
import { formatFloat, formatInt, isIntValue } from "./numbers.ts";
import { formatScalar } from "./scalars.ts";
import type { EncoderSpec, TableSpec } from "./spec.ts";
import { applyTransforms, type LeadColumn } from "./transforms.ts";
import { type ColumnType, isJsonObject, type JsonObject, type JsonValue } from "./types.ts";

/** The MUNCH version this encoder writes. */
export const MUNCH_VERSION = 1;
/** Encoding id of the generic encoder. */
export const GENERIC_ID = "gen1";

const TAGS = "abcdefghijklmnopqrstuvwxyz";
const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;

interface ScalarEntry {
  /** Encoded dotted key (with the `__json.` prefix for blobs). */
  key: string;
  /** Unencoded dotted path, to match spec scalar order. */
  path: string;
  text: string;
  type?: "int" | "float" | "bool";
}

interface TablePlan {
  tag: string;
  key: string;
  rows: JsonObject[];
  spec: TableSpec | undefined;
  /** A first column kept beside the rows (tables made by a `group` or `tree` transform). */
  lead: LeadColumn | undefined;
}

interface Column {
  name: string;
  type: ColumnType;
  /** `type` as a small integer (T_* below). */
  kind: number;
  optional: boolean;
  intern: boolean;
  /** The lead column's values (then the rows do not hold this column). */
  lead?: JsonValue[];
  /** Interned columns: per row, the record of the row's value (undefined when not a string). */
  recs?: (_Interned | undefined)[];
}

/** An interned value: its legend record plus its formatted field, made once. */
interface _Interned extends InternValue {
  value: string;
  field: string | undefined;
}

const T_STR = 0, T_INT = 1, T_FLOAT = 2, T_BOOL = 3, T_JSON = 4;
const KIND_OF: Record<ColumnType, number> = {
  str: T_STR,
  int: T_INT,
  float: T_FLOAT,
  bool: T_BOOL,
  json: T_JSON,
};

/**
 * Encode a response object as MUNCH. With a spec, its tables, scalar order and transforms are
 * used; without one, the payload is `gen1`.
 */
export function encodeMunch(tool: string, response: JsonObject, spec?: EncoderSpec): string {
  if (!TOOL_NAME.test(tool)) {
    throw new TypeError(`Cannot encode response: invalid tool name "${tool}"`);
  }
  if (!isJsonObject(response)) {
    throw new TypeError("Cannot encode response: expected a plain object");
  }
  let value = response;
  let applied: string[] = [];
  let leads: Map<JsonValue[], LeadColumn> | undefined;
  if (spec?.transforms) ({ value, applied, leads } = applyTransforms(response, spec.transforms));

  const scalars: ScalarEntry[] = [];
  const tables: TablePlan[] = [];
  const specTables = new Map((spec?.tables ?? []).map((t) => [t.key, t]));
  const usedTags = new Set<string>();
  const pending: { path: string[]; rows: JsonObject[] }[] = [];

  const visit = (path: string[], v: JsonValue, into: ScalarEntry[]) => {
    if (Array.isArray(v)) {
      if (leads?.has(v) || _isTableable(v)) pending.push({ path, rows: v as JsonObject[] });
      else _blob(into, path, v);
    } else if (isJsonObject(v)) {
      const keys = Object.keys(v);
      if (keys.length === 0) return _blob(into, path, v);
      // A nested object is flattened to dotted keys, or sent as one JSON blob when that is
      // shorter (typed leaves cost their key twice: once more in `__stypes`).
      const flat: ScalarEntry[] = [];
      const tablesBefore = pending.length;
      for (const k of keys) visit([...path, k], v[k]!, flat);
      if (pending.length === tablesBefore && _cost(flat) > _blobCost(path, v)) _blob(into, path, v);
      else into.push(...flat);
    } else _scalar(into, path, v);
  };
  for (const k of Object.keys(value)) visit([k], value[k]!, scalars);

  // Spec tables claim their tags first; the rest take the first letter of their key if free.
  for (const p of pending) {
    const s = specTables.get(p.path.join("."));
    if (s && !usedTags.has(s.tag)) usedTags.add(s.tag);
  }
  for (const p of pending) {
    const dotted = p.path.join(".");
    const s = specTables.get(dotted);
    let tag = s?.tag;
    if (tag === undefined || tables.some((t) => t.tag === tag)) {
      tag = _freeTag(p.path[p.path.length - 1]!, usedTags);
    }
    if (tag === undefined) {
      _blob(scalars, p.path, p.rows);
      continue;
    }
    usedTags.add(tag);
    tables.push({
      tag,
      key: _encodePath(p.path, false),
      rows: p.rows,
      spec: s,
      lead: leads?.get(p.rows),
    });
  }

  // Columns, types and the interned values of every table.
  const internValues = new Map<string, InternValue>();
  const columnsOf = tables.map((t) => {
    const cols = _columns(t.rows, t.spec, t.lead);
    for (const c of cols) if (c.intern) c.recs = _internColumn(t.rows, c, internValues);
    return cols;
  });
  const legend = buildLegend(internValues);

  // Scalars line: spec order first, then response order; reserved keys last.
  const order = new Map((spec?.scalars ?? []).map((k, i) => [k, i]));
  const ranked = scalars.map((s, i) => ({ s, rank: order.get(s.path) ?? order.size + i }));
  ranked.sort((a, b) => a.rank - b.rank);
  const parts = ranked.map(({ s }) => s.key + "=" + s.text);
  const tableDefs = tables.map((t, i) => {
    const cols = columnsOf[i]!;
    return `${t.tag}:${t.key}:${cols.map((c) => encodeColumn(c.name)).join("|")}:${
      cols.map((c) => c.type).join("|")
    }`;
  });
  const stypes = scalars.filter((s) => s.type).map((s) => `${s.key}:${s.type}`);
  const absent = tables.flatMap((t, i) => {
    const opt = columnsOf[i]!.filter((c) => c.optional);
    return opt.length ? [`${t.tag}:${opt.map((c) => encodeColumn(c.name)).join("|")}`] : [];
  });
  parts.push("__tables=" + (tableDefs.length ? formatScalar(tableDefs.join(",")) : ""));
  parts.push("__stypes=" + (stypes.length ? formatScalar(stypes.join("|")) : ""));
  if (absent.length) parts.push("__absent=" + formatScalar(absent.join(",")));
  if (applied.length) parts.push("__xf=" + formatScalar(applied.map(encodeKey).join(",")));

  const sections: string[] = [
    `#MUNCH/${MUNCH_VERSION} tool=${tool} enc=${spec?.id ?? GENERIC_ID}`,
  ];
  if (legend.length) sections.push(legend.map((e, i) => `@${i + 1}=${e}`).join("\n"));
  sections.push(parts.join(" "));
  tables.forEach((t, i) => sections.push(_rows(t, columnsOf[i]!)));
  return sections.join("\n\n") + "\n";
}

function _isTableable(list: JsonValue[]): boolean {
  if (list.length === 0) return false;
  let anyKey = false;
  for (const r of list) {
    if (!isJsonObject(r)) return false;
    if (!anyKey) { for (const _ in r) anyKey = true; }
  }
  return anyKey;
}

function _freeTag(name: string, used: Set<string>): string | undefined {
  const first = name.charAt(0).toLowerCase();
  if (TAGS.includes(first) && first !== "" && !used.has(first)) return first;
  for (const t of TAGS) if (!used.has(t)) return t;
  return undefined;
}

function _encodePath(path: readonly string[], scalar = true): string {
  const head = path[0]!;
  // A scalar key starting with "__" would read as a reserved key (`__json.`, `__tables`).
  const first = scalar && head.startsWith("__")
    ? "%5F" + encodeKey(head.slice(1))
    : encodeKey(head);
  return [first, ...path.slice(1).map(encodeKey)].join(".");
}

function _cost(entries: readonly ScalarEntry[]): number {
  let n = 0;
  for (const e of entries) n += e.key.length + e.text.length + 2 + (e.type ? e.key.length + 6 : 0);
  return n;
}

function _blobCost(path: string[], v: JsonValue): number {
  return 8 + _encodePath(path).length + formatScalar(stringifyJson(v)).length;
}

function _blob(out: ScalarEntry[], path: string[], v: JsonValue): void {
  out.push({
    key: "__json." + _encodePath(path),
    path: path.join("."),
    text: formatScalar(stringifyJson(v)),
  });
}

function _scalar(out: ScalarEntry[], path: string[], v: JsonValue): void {
  const key = _encodePath(path);
  const p = path.join(".");
  if (typeof v === "string") out.push({ key, path: p, text: formatScalar(escapeHandle(v)) });
  else if (typeof v === "number") {
    const int = isIntValue(v);
    out.push({
      key,
      path: p,
      text: int ? formatInt(v) : formatFloat(v),
      type: int ? "int" : "float",
    });
  } else if (typeof v === "boolean") out.push({ key, path: p, text: v ? "T" : "F", type: "bool" });
  else out.push({ key, path: p, text: "" });
}

const KIND_STR = 1, KIND_INT = 2, KIND_FLOAT = 4, KIND_BOOL = 8, KIND_COMPLEX = 16;

interface _Seen {
  name: string;
  kinds: number;
  nulls: boolean;
  count: number;
}

function _columns(
  rows: JsonObject[],
  spec: TableSpec | undefined,
  lead: LeadColumn | undefined,
): Column[] {
  const seen = new Map<string, _Seen>();
  // Columns in first-seen order (spec columns first).
  const order: _Seen[] = [];
  const add = (name: string): _Seen => {
    const s = { name, kinds: 0, nulls: false, count: 0 };
    seen.set(name, s);
    order.push(s);
    return s;
  };
  if (lead) {
    const s = add(lead.name);
    for (const v of lead.values) _kind(s, v);
  }
  for (const name of spec?.columns ?? []) if (!seen.has(name)) add(name);
  const omit = lead?.omit;
  // The previous row's columns by key position: rows that list their keys in the same order
  // (the usual case) find each column without a lookup.
  const prev: _Seen[] = [];
  for (const r of rows) {
    let j = 0;
    for (const k in r) {
      let s = prev[j];
      if (s === undefined || s.name !== k) {
        if (k === omit) continue;
        prev[j] = s = seen.get(k) ?? add(k);
      }
      j++;
      _kind(s, r[k]!);
    }
  }
  const intern = spec ? new Set(spec.intern ?? []) : undefined;
  const cols: Column[] = [];
  for (const s of order) {
    if (s.count === 0) continue;
    const optional = s.count < rows.length;
    const k = s.kinds & KIND_INT && s.kinds & KIND_FLOAT ? (s.kinds & ~KIND_INT) : s.kinds;
    let type: ColumnType;
    if (k === 0 || k === KIND_STR) type = "str";
    else if (k === KIND_INT) type = "int";
    else if (k === KIND_FLOAT) type = "float";
    else if (k === KIND_BOOL) type = "bool";
    else type = "json";
    if (optional && s.nulls) type = "json";
    const c: Column = {
      name: s.name,
      type,
      kind: KIND_OF[type],
      optional,
      intern: type === "str" && (intern ? intern.has(s.name) : true),
    };
    if (lead && s.name === lead.name) c.lead = lead.values;
    cols.push(c);
  }
  return cols;
}

function _kind(s: _Seen, v: JsonValue): void {
  s.count++;
  if (v === null) s.nulls = true;
  else if (typeof v === "string") s.kinds |= KIND_STR;
  else if (typeof v === "number") s.kinds |= isIntValue(v) ? KIND_INT : KIND_FLOAT;
  else if (typeof v === "boolean") s.kinds |= KIND_BOOL;
  else s.kinds |= KIND_COMPLEX;
}

/** Count an interned column's values into `values`; returns each row's record. */
function _internColumn(
  rows: JsonObject[],
  c: Column,
  values: Map<string, InternValue>,
): (_Interned | undefined)[] {
  const recs: (_Interned | undefined)[] = new Array(rows.length);
  const name = c.name;
  let last: _Interned | undefined;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const v = c.lead ? c.lead[i] : c.optional && !Object.hasOwn(r, name) ? undefined : r[name];
    // Values this short never take a handle (see legend.ts), so they are not counted.
    if (typeof v !== "string" || v.length < MIN_LENGTH) continue;
    // Runs of one value (a file's rows) skip the lookup.
    let rec = last !== undefined && last.value === v ? last : values.get(v) as _Interned;
    if (rec === undefined) {
      rec = { value: v, count: 0, handle: 0, prefixLength: 0, field: undefined };
      values.set(v, rec);
    }
    rec.count++;
    recs[i] = last = rec;
  }
  return recs;
}

function _rows(t: TablePlan, cols: Column[]): string {
  const rows = t.rows;
  let out = "";
  const prefix = t.tag + ",";
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    let line = i === 0 ? prefix : "\n" + prefix;
    for (let j = 0; j < cols.length; j++) {
      const c = cols[j]!;
      if (j > 0) line += ",";
      // Optional columns are absent from some rows (and a row's prototype is no value).
      if (c.optional && !Object.hasOwn(r, c.name)) continue;
      const v = c.lead ? c.lead[i]! : r[c.name]!;
      switch (c.kind) {
        case T_STR:
          if (v === null) break;
          {
            const rec = c.recs?.[i];
            line += rec === undefined
              ? formatTextField(escapeHandle(v as string))
              : rec.field ??= formatTextField(applyLegend(v as string, rec));
          }
          break;
        case T_INT:
          if (v !== null) line += formatInt(v as number);
          break;
        case T_FLOAT:
          if (v !== null) line += formatFloat(v as number);
          break;
        case T_BOOL:
          if (v !== null) line += v ? "T" : "F";
          break;
        default:
          if (v !== null || c.optional) line += formatTextField(stringifyJson(v));
      }
    }
    out += line;
  }
  return out;
}
