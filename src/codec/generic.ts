/**
 * The extended MUNCH encoder (opt-in, header `#MUNCH/1x`, ids `gen1x`, `ss1x`, …): `gen1`
 * (shape-sniffing, for any response) and tier-1 (the same machinery steered by an
 * `EncoderSpec`), with the savings that go beyond SPEC_MUNCH v1 — transforms (`__xf`), constant
 * columns (`__const`), absent cells (`__absent`), `json` columns, dotted keys for any nested
 * object, backslash escapes, percent-encoded names. Only codemunch's decoder reads it; the
 * default encoder is the strict one (encode_v1.ts).
 *
 * @module
 */
import { formatTextField } from "./csv.ts";
import { encodeColumn, encodeKey, escapeHandle } from "./escape.ts";
import { stringifyJson } from "./json_text.ts";
import { applyLegend, buildLegend, type InternValue, MIN_LENGTH } from "./legend.ts";
import { formatFloat, formatInt, isIntValue } from "./numbers.ts";
import { formatScalar, readsAsLiteral } from "./scalars.ts";
import { checkToolName, type SpecPlan, specPlan } from "./spec_plan.ts";
import type { EncoderSpec, TableSpec } from "./spec.ts";
import { applyTransforms, type LeadColumn } from "./transforms.ts";
import {
  type ColumnType,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  KIND_OF,
  T_BOOL,
  T_FLOAT,
  T_INT,
  T_JSON,
  T_STR,
} from "./types.ts";

/**
 * The version token this encoder writes: MUNCH v1 plus codemunch's extensions, which a v1
 * decoder must refuse (it reads `1x` as no version it knows) rather than misread.
 */
export const EXTENDED_VERSION = "1x";
/** Suffix of the encoding ids of extended payloads (`gen1x`, `ss1x`, …). */
export const EXTENDED_SUFFIX = "x";
/** Encoding id of the generic encoder. */
export const GENERIC_ID = "gen1";

const TAGS = "abcdefghijklmnopqrstuvwxyz";

interface ScalarEntry {
  /** Encoded dotted key (with the `__json.` prefix for blobs). */
  key: string;
  /** Unencoded dotted path, to match spec scalar order. */
  path: string;
  text: string;
  type: "int" | "float" | "bool" | undefined;
}

/** A list found while walking the response, to become a table. */
interface _Pending {
  /** Raw first key segment, encoded rest (".b"), raw dotted path, raw last segment. */
  head: string;
  rest: string;
  raw: string;
  last: string;
  rows: JsonObject[];
}

const _internSets = new WeakMap<TableSpec, Set<string>>();

function _internSet(t: TableSpec): Set<string> {
  let set = _internSets.get(t);
  if (set === undefined) _internSets.set(t, set = new Set(t.intern ?? []));
  return set;
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
  /** Every row holds this column with one and the same scalar value, `value`. */
  constant: boolean;
  value: JsonValue;
  /** The lead column's values (then the rows do not hold this column). */
  lead?: JsonValue[];
  /** Interned columns: per row, the record of the row's value (undefined when not a string). */
  recs?: (_Interned | undefined)[];
  /** The last text written without the legend, and its field. */
  lastText: string | undefined;
  lastField: string;
}

/** An interned value: its legend record plus its formatted field, made once. */
interface _Interned extends InternValue {
  value: string;
  field: string | undefined;
}

/**
 * Encode a response object as MUNCH. With a spec, its tables, scalar order and transforms are
 * used; without one, the payload is `gen1`.
 */
export function encodeMunch(tool: string, response: JsonObject, spec?: EncoderSpec): string {
  return encodeMunchDetailed(tool, response, spec).text;
}

/** An extended payload, and whether it holds JSON text where rows should be. */
export interface ExtendedPayload {
  text: string;
  /** A table column of type `json`, or a list of records sent as a `__json.` blob. */
  jsonInRows: boolean;
}

/** {@linkcode encodeMunch}, also saying whether the payload carries JSON in its rows. */
export function encodeMunchDetailed(
  tool: string,
  response: JsonObject,
  spec?: EncoderSpec,
): ExtendedPayload {
  checkToolName(tool);
  if (!isJsonObject(response)) {
    throw new TypeError("Cannot encode response: expected a plain object");
  }
  let value = response;
  let applied: string[] = [];
  let leads: Map<JsonValue[], LeadColumn> | undefined;
  if (spec?.transforms) ({ value, applied, leads } = applyTransforms(response, spec.transforms));
  const plan = spec ? specPlan(spec) : undefined;
  const collected = _collect(value, leads);
  const { scalars } = collected;
  const tables = _tablePlans(collected, plan, leads);
  let jsonInRows = collected.jsonInRows;

  // Columns, types and the interned values of every table; a column holding one value in every
  // row becomes the scalar `<tag>.<column>` when that is cheaper (listed in `__const`). The tag
  // is a free top-level key, so a decoder that knows nothing of `__const` still reads the value.
  const internValues = new Map<string, InternValue>();
  const consts: ScalarEntry[] = [];
  const constDefs: string[] = [];
  const columnsOf = tables.map((t) => {
    let cols = _columns(t.rows, t.spec, t.lead);
    if (t.rows.length >= MIN_CONST_ROWS && !Object.hasOwn(value, t.tag)) {
      cols = _hoistConstants(t, cols, consts, constDefs);
    }
    for (const c of cols) if (c.intern) c.recs = _internColumn(t.rows, c, internValues);
    return cols;
  });
  const legend = buildLegend(internValues);
  const ranked = _rankScalars(scalars, plan).concat(consts);
  const sections: string[] = [
    `#MUNCH/${EXTENDED_VERSION} tool=${tool} enc=${spec?.id ?? GENERIC_ID}${EXTENDED_SUFFIX}`,
  ];
  if (legend.length) sections.push(legend.map((e, i) => `@${i + 1}=${e}`).join("\n"));
  sections.push(_scalarsLine(ranked, tables, columnsOf, constDefs, applied));
  tables.forEach((t, i) => sections.push(_rows(t, columnsOf[i]!)));
  if (columnsOf.some((cols) => cols.some((c) => c.kind === T_JSON))) jsonInRows = true;
  return { text: sections.join("\n\n") + "\n", jsonInRows };
}

/** What the walk of a response found: its scalars, the lists that may be tables, JSON in rows. */
interface _Collected {
  scalars: ScalarEntry[];
  pending: _Pending[];
  jsonInRows: boolean;
}

/**
 * Walk the response: scalars and nested objects flattened to dotted keys (or one `__json.` blob
 * when shorter), lists of records (and the transforms' lead tables) set aside as tables.
 */
function _collect(value: JsonObject, leads: Map<JsonValue[], LeadColumn> | undefined): _Collected {
  const scalars: ScalarEntry[] = [];
  const pending: _Pending[] = [];
  let jsonInRows = false;

  // A key path is carried as its raw first segment `head` (encoded differently for scalars and
  // tables), the encoded rest `rest` (".b.c"), and the raw dotted path.
  const visit = (
    head: string,
    rest: string,
    raw: string,
    last: string,
    v: JsonValue,
    into: ScalarEntry[],
  ): void => {
    if (Array.isArray(v)) {
      if (leads?.has(v) || _isTableable(v)) {
        pending.push({ head, rest, raw, last, rows: v as JsonObject[] });
      } else {
        if (v.some((x) => isJsonObject(x) || Array.isArray(x))) jsonInRows = true;
        _blob(into, _scalarKey(head, rest), raw, v);
      }
    } else if (isJsonObject(v)) {
      const keys = Object.keys(v);
      if (keys.length === 0) return _blob(into, _scalarKey(head, rest), raw, v);
      // A nested object is flattened to dotted keys, or sent as one JSON blob when that is
      // shorter (typed leaves cost their key twice: once more in `__stypes`).
      const flat: ScalarEntry[] = [];
      const tablesBefore = pending.length;
      for (const k of keys) visit(head, rest + "." + encodeKey(k), raw + "." + k, k, v[k]!, flat);
      // `_meta` itself is always flat scalars (readable on its own line); deeper objects may go
      // as one blob.
      if (pending.length === tablesBefore && !(rest === "" && head === "_meta")) {
        const key = _scalarKey(head, rest);
        const text = formatScalar(stringifyJson(v));
        if (_cost(flat) > 8 + key.length + text.length) {
          into.push({ key: "__json." + key, path: raw, text, type: undefined });
          return;
        }
      }
      for (const e of flat) into.push(e);
    } else _scalar(into, _scalarKey(head, rest), raw, v, rest !== "" && head === "_meta");
  };
  for (const k of Object.keys(value)) visit(k, "", k, k, value[k]!, scalars);
  return { scalars, pending, jsonInRows };
}

/**
 * The tables of the payload with their tags: spec tables claim their tags first; the rest take
 * the first letter of their key if free. A list left without a tag goes as a `__json.` blob among
 * the scalars (`collected` is updated: its scalars and `jsonInRows`).
 */
function _tablePlans(
  collected: _Collected,
  plan: SpecPlan | undefined,
  leads: Map<JsonValue[], LeadColumn> | undefined,
): TablePlan[] {
  const { pending } = collected;
  const tables: TablePlan[] = [];
  const usedTags = new Set<string>();
  if (plan) {
    for (const p of pending) {
      const s = plan.tables.get(p.raw);
      if (s) usedTags.add(s.tag);
    }
  }
  for (const p of pending) {
    const s = plan?.tables.get(p.raw);
    let tag = s?.tag;
    if (tag === undefined || tables.some((t) => t.tag === tag)) tag = _freeTag(p.last, usedTags);
    if (tag === undefined) {
      collected.jsonInRows = true;
      _blob(collected.scalars, _scalarKey(p.head, p.rest), p.raw, p.rows);
      continue;
    }
    usedTags.add(tag);
    tables.push({
      tag,
      key: encodeKey(p.head) + p.rest,
      rows: p.rows,
      spec: s,
      lead: leads?.get(p.rows),
    });
  }
  return tables;
}

/** The scalars in spec order first, then response order. */
function _rankScalars(scalars: ScalarEntry[], plan: SpecPlan | undefined): ScalarEntry[] {
  const order = plan?.scalarRank;
  if (order === undefined || order.size === 0) return scalars;
  const rank = (s: ScalarEntry, i: number) => order.get(s.path) ?? order.size + i;
  return scalars.map((s, i) => ({ s, r: rank(s, i) })).sort((a, b) => a.r - b.r).map((x) => x.s);
}

/** The scalars line: the ranked scalars, then the reserved keys that describe the tables. */
function _scalarsLine(
  ranked: readonly ScalarEntry[],
  tables: readonly TablePlan[],
  columnsOf: readonly Column[][],
  constDefs: readonly string[],
  applied: readonly string[],
): string {
  const parts = ranked.map((s) => s.key + "=" + s.text);
  const tableDefs = tables.map((t, i) => {
    const cols = columnsOf[i]!;
    return `${t.tag}:${t.key}:${cols.map((c) => encodeColumn(c.name)).join("|")}:${
      cols.map((c) => c.type).join("|")
    }`;
  });
  const stypes = ranked.filter((s) => s.type).map((s) => `${s.key}:${s.type}`);
  const absent = tables.flatMap((t, i) => {
    const opt = columnsOf[i]!.filter((c) => c.optional);
    return opt.length ? [`${t.tag}:${opt.map((c) => encodeColumn(c.name)).join("|")}`] : [];
  });
  parts.push("__tables=" + (tableDefs.length ? formatScalar(tableDefs.join(",")) : ""));
  parts.push("__stypes=" + (stypes.length ? formatScalar(stypes.join("|")) : ""));
  if (constDefs.length) parts.push("__const=" + formatScalar(constDefs.join(",")));
  if (absent.length) parts.push("__absent=" + formatScalar(absent.join(",")));
  if (applied.length) parts.push("__xf=" + formatScalar(applied.map(encodeKey).join(",")));
  return parts.join(" ");
}

/** Fewest rows for which a constant column can pay for its scalar and `__const` entry. */
const MIN_CONST_ROWS = 4;

/**
 * Move the constant columns of a table that pay for it out of its rows: each becomes the scalar
 * `<tag>.<column>` (typed by `__stypes` like any scalar) and is listed in `__const` as
 * `tag:col|col`, followed by `:pos|pos` (the columns' indexes among all the table's columns) unless
 * they were the last columns in that order. A table keeps at least one column.
 */
function _hoistConstants(
  t: TablePlan,
  cols: Column[],
  consts: ScalarEntry[],
  defs: string[],
): Column[] {
  const hoist: number[] = [];
  for (let i = 0; i < cols.length; i++) {
    if (cols[i]!.constant && _constantPays(t.rows.length, cols[i]!)) hoist.push(i);
  }
  if (hoist.length === cols.length) hoist.shift();
  if (hoist.length === 0) return cols;
  const names: string[] = [];
  for (const i of hoist) {
    const c = cols[i]!;
    names.push(encodeColumn(c.name));
    _scalar(consts, t.tag + "." + encodeKey(c.name), t.tag + "." + c.name, c.value, false);
  }
  const tail = hoist[0] === cols.length - hoist.length;
  defs.push(`${t.tag}:${names.join("|")}${tail ? "" : ":" + hoist.join("|")}`);
  return cols.filter((_, i) => !hoist.includes(i));
}

/**
 * Whether writing a constant column once as a scalar saves bytes and (estimated, ~4 characters a
 * token, a separator about one) tokens over writing it in each of `rows` rows. A `null` column
 * never does: its empty fields merge into the separators' tokens (`,,`).
 */
function _constantPays(rows: number, c: Column): boolean {
  const v = c.value;
  if (v === null) return false;
  const field = c.kind === T_STR
    ? formatTextField(escapeHandle(v as string)).length
    : c.kind === T_INT
    ? formatInt(v as number).length
    : c.kind === T_FLOAT
    ? formatFloat(v as number).length
    : 1;
  const name = encodeColumn(c.name).length;
  const key = 2 + encodeKey(c.name).length;
  const typed = c.kind !== T_STR;
  // Saved: the field and its comma in every row, the column's name and type in `__tables`.
  // Spent: ` t.key=value`, the `__const` entry, and an `__stypes` entry when typed.
  const bytes = rows * (1 + field) + name + c.type.length + 2 -
    (2 + key + field) - (11 + name) - (typed ? key + c.type.length + 2 : 0);
  const tokens = rows * (1 + field / 4) + 2 - (3 + (key + field) / 4) - 4 - (typed ? 4 : 0);
  return bytes > 0 && tokens > 0;
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

/** A scalar's encoded dotted key; a first segment starting with "__" would read as reserved. */
function _scalarKey(head: string, rest: string): string {
  return (head.charCodeAt(0) === 95 && head.charCodeAt(1) === 95
    ? "%5F" + encodeKey(head.slice(1))
    : encodeKey(head)) + rest;
}

function _cost(entries: readonly ScalarEntry[]): number {
  let n = 0;
  for (const e of entries) n += e.key.length + e.text.length + 2 + (e.type ? e.key.length + 6 : 0);
  return n;
}

function _blob(out: ScalarEntry[], key: string, path: string, v: JsonValue): void {
  out.push({ key: "__json." + key, path, text: formatScalar(stringifyJson(v)), type: undefined });
}

/**
 * A scalar entry. Under `_meta.` (`literal`) a value is typed by its literal form (no `__stypes`
 * entry), and a string that would read as a number or boolean is quoted.
 */
function _scalar(
  out: ScalarEntry[],
  key: string,
  path: string,
  v: JsonValue,
  literal: boolean,
): void {
  let text: string;
  let type: ScalarEntry["type"];
  if (typeof v === "string") {
    text = formatScalar(escapeHandle(v));
    if (literal && readsAsLiteral(text)) text = '"' + text + '"';
  } else if (typeof v === "number") {
    const int = isIntValue(v);
    text = int ? formatInt(v) : formatFloat(v);
    type = int ? "int" : "float";
  } else if (typeof v === "boolean") {
    text = v ? "T" : "F";
    type = "bool";
  } else text = "";
  if (literal) type = undefined;
  out.push({ key, path, text, type });
}

const KIND_STR = 1, KIND_INT = 2, KIND_FLOAT = 4, KIND_BOOL = 8, KIND_COMPLEX = 16;

interface _Seen {
  name: string;
  kinds: number;
  nulls: boolean;
  count: number;
  /** The first value, and whether every value so far is that one. */
  first: JsonValue;
  same: boolean;
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
    const s: _Seen = { name, kinds: 0, nulls: false, count: 0, first: null, same: true };
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
  const intern = spec ? _internSet(spec) : undefined;
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
      constant: !optional && s.same && type !== "json" && s.name !== lead?.name,
      value: s.first,
      lastText: undefined,
      lastField: "",
    };
    if (lead && s.name === lead.name) c.lead = lead.values;
    cols.push(c);
  }
  return cols;
}

function _kind(s: _Seen, v: JsonValue): void {
  if (s.count++ === 0) s.first = v;
  else if (s.same && (v !== s.first || (v === 0 && !Object.is(v, s.first)))) s.same = false;
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
      line += _cell(c, c.lead ? c.lead[i]! : r[c.name]!, i);
    }
    out += line;
  }
  return out;
}

/** The field of one cell of row `i` (empty for a null scalar). */
function _cell(c: Column, v: JsonValue, i: number): string {
  switch (c.kind) {
    case T_STR:
      return v === null ? "" : _textCell(c, v as string, i);
    case T_INT:
      return v === null ? "" : formatInt(v as number);
    case T_FLOAT:
      return v === null ? "" : formatFloat(v as number);
    case T_BOOL:
      return v === null ? "" : v ? "T" : "F";
    default:
      return v !== null || c.optional ? formatTextField(stringifyJson(v)) : "";
  }
}

/** A text cell: through the legend when the column has one, else as a handle. */
function _textCell(c: Column, v: string, i: number): string {
  const rec = c.recs?.[i];
  if (rec !== undefined) return rec.field ??= formatTextField(applyLegend(v, rec));
  // Runs of one value (`file`, `python`) reuse the last field.
  if (v !== c.lastText) c.lastField = formatTextField(escapeHandle(c.lastText = v));
  return c.lastField;
}
