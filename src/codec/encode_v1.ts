/**
 * The strict MUNCH v1 encoder (the default). A tier-1 spec only steers the layout — scalar order,
 * table tags, column order, interned columns — so every payload is `gen1` to a decoder: it reads
 * with nothing but the header, the legend, the scalars, `__tables`, `__stypes` and `__json.`
 * blobs (`_meta` is one of them, as the reference's gen1 encoder writes it). See strict.ts for the
 * rules, and mod.ts for the format.
 *
 * @module
 */
import { stringifyJson } from "./json_text.ts";
import { buildLegend, type InternValue, MIN_LENGTH } from "./legend.ts";
import { formatFloat, formatInt, isIntValue } from "./numbers.ts";
import { checkToolName, specPlan } from "./spec_plan.ts";
import type { EncoderSpec, TableSpec } from "./spec.ts";
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
  rowValues,
  type StrictColumnType,
} from "./strict.ts";
import {
  isJsonObject,
  type JsonObject,
  type JsonValue,
  KIND_OF,
  T_FLOAT,
  T_INT,
  T_STR,
} from "./types.ts";

/** Encoding id of every strict payload: decoders read it with the generic routine. */
export const STRICT_ID = "gen1";

const TAGS = "abcdefghijklmnopqrstuvwxyz";

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
  /** Each row's values, in the order of its keys (not of `columns`; see `at`). */
  values: JsonValue[][];
  columns: string[];
  /** `columns` as `__tables` lists them (`a|b|c`). */
  columnsText: string;
  /** Per column: the index of its value in a row's `values`. */
  at: number[];
  types: StrictColumnType[];
  /** Per column: `types` as a small integer (`KIND_OF`), for the row loop's switch. */
  kinds: number[];
  /** Per column: some cell holds `,` or `"` (the others are written without a look). */
  quotes: boolean[];
  interned: boolean[];
}

/** A string cell's legend record. */
interface _Interned extends InternValue {
  value: string;
  /** The cell text once the legend is known (made once per distinct value). */
  cell: string | undefined;
}

const _NO_TABLES = new Map<string, TableSpec>();

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
  checkToolName(tool);
  if (!isJsonObject(response)) {
    throw new TypeError("Cannot encode response: expected a plain object");
  }
  const plan = spec ? specPlan(spec) : undefined;
  const specTables = plan?.tables ?? _NO_TABLES;
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
    } else if (isJsonObject(v) || v === null) {
      // An object (`_meta` too) is one blob: a gen1 decoder re-nests no dotted key. A null is one
      // too: a bare empty value reads as "" where the key has no `__stypes` entry.
      blob(key, key, v);
    } else if (typeof v === "string" && (needsJson(v) || looksLikeHandle(v))) blob(key, key, v);
    else scalars.push(_scalar(key, key, v));
  }

  // The legend: interned string cells, plus one whole-value entry for each string that starts
  // like a handle (`@5x`), which no other spelling reads back in a cell.
  const values = new Map<string, _Interned>();
  const forced = new Map<string, number>();
  const recsOf = tables.map((t) => _internTable(t, values, forced, specTables.get(t.key)));
  const legend = buildLegend(values);
  for (const v of forced.keys()) forced.set(v, legend.push(v));

  // Scalars: the spec's order first, then the response's; the reserved keys last.
  const rank = plan?.scalarRank;
  let ranked = scalars;
  if (rank !== undefined && rank.size) {
    const size = rank.size;
    const keyed = scalars.map((s, i) => ({ s, r: rank.get(s.top) ?? size + i }));
    // (A response usually lists its keys in the spec's order already: the stable sort would
    // keep them as they are.)
    if (!keyed.every((x, i) => i === 0 || keyed[i - 1]!.r <= x.r)) {
      ranked = keyed.sort((a, b) => a.r - b.r).map((x) => x.s);
    }
  }
  let text = `#MUNCH/1 tool=${tool} enc=${STRICT_ID}\n\n`;
  if (legend.length) text += _legendLines(legend) + "\n\n";
  text += _scalarLine(ranked, tables);
  for (let i = 0; i < tables.length; i++) text += "\n\n" + _rows(tables[i]!, recsOf[i]!, forced);
  return { text: text + "\n", recordBlobs };
}

/** The legend section: `@<handle>=<entry>` lines. */
function _legendLines(legend: readonly string[]): string {
  let out = "@1=" + legend[0];
  for (let i = 1; i < legend.length; i++) out += "\n@" + (i + 1) + "=" + legend[i];
  return out;
}

/** The scalars line: `key=value` pairs, then `__tables` and `__stypes` (typed scalars). */
function _scalarLine(ranked: readonly _Scalar[], tables: readonly _Table[]): string {
  let line = "";
  let stypes = "";
  for (const s of ranked) {
    line += s.key + "=" + s.text + " ";
    if (s.type) stypes += (stypes === "" ? "" : "|") + s.key + ":" + s.type;
  }
  const defs = tables.map((t) => `${t.tag}:${t.key}:${t.columnsText}:${t.types.join("|")}`);
  line += "__tables=" + (defs.length ? formatStrictScalar(defs.join(",")) : "");
  return line + " __stypes=" + stypes;
}

/** A string, number or boolean scalar (the caller makes anything else a blob). */
function _scalar(key: string, top: string, v: JsonValue): _Scalar {
  if (typeof v === "number") {
    const int = isIntValue(v);
    return { key, top, text: int ? formatInt(v) : formatFloat(v), type: int ? "int" : "float" };
  }
  if (typeof v === "boolean") return { key, top, text: v ? "T" : "F", type: "bool" };
  return { key, top, text: formatStrictScalar(v as string), type: undefined };
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
  const rv = rowValues(rows);
  if (rv === undefined) return undefined;
  const layout = _layout(rv.keys, spec);
  if (layout === undefined) return undefined;
  const { columns, columnsText, at } = layout;
  const types: StrictColumnType[] = [];
  const quotes: boolean[] = [];
  for (let j = 0; j < columns.length; j++) {
    const column = columnType(rv.values, at[j]!);
    if (column === undefined) return undefined;
    types.push(column.type);
    quotes.push(column.quotes);
  }
  const intern = spec?.intern;
  return {
    tag: "",
    key,
    values: rv.values,
    columns,
    columnsText,
    at,
    types,
    kinds: types.map((t) => KIND_OF[t]),
    quotes,
    interned: columns.map((c, j) => types[j] === "str" && (intern ? intern.includes(c) : true)),
  };
}

/** A table's columns in the order they are written, and where each sits in a row's values. */
interface _Layout {
  /** The rows' keys this layout was made for. */
  keys: string[];
  columns: string[];
  columnsText: string;
  at: number[];
}

// The last layout made for each spec table (and for tables without a spec): a tool's answers
// repeat their row keys, so the order is worked out once.
const _layouts = new WeakMap<TableSpec, _Layout>();
let _genericLayout: _Layout | undefined;

/**
 * The layout of rows with `keys`: the spec's column order first, then the first row's; undefined
 * when a key cannot be a v1 column name.
 */
function _layout(keys: string[], spec: TableSpec | undefined): _Layout | undefined {
  const last = spec ? _layouts.get(spec) : _genericLayout;
  if (last !== undefined && _sameKeys(last.keys, keys)) return last;
  if (!keys.every(isPlainColumn)) return undefined;
  const columns = spec
    ? [
      ...spec.columns.filter((c) => keys.includes(c)),
      ...keys.filter((c) => !spec.columns.includes(c)),
    ]
    : keys;
  const layout = {
    keys,
    columns,
    columnsText: columns.join("|"),
    at: spec ? columns.map((c) => keys.indexOf(c)) : keys.map((_, j) => j),
  };
  if (spec) _layouts.set(spec, layout);
  else _genericLayout = layout;
  return layout;
}

function _sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Count the interned cells of a table; note the values only a whole-value entry can carry. */
function _internTable(
  t: _Table,
  values: Map<string, _Interned>,
  forced: Map<string, number>,
  _spec: TableSpec | undefined,
): (_Interned | undefined)[][] {
  const rows = t.values;
  return t.columns.map((_c, j) => {
    if (t.types[j] !== "str") return [];
    const at = t.at[j]!;
    const interned = t.interned[j];
    const recs: (_Interned | undefined)[] = new Array(rows.length);
    let last: _Interned | undefined;
    for (let i = 0; i < rows.length; i++) {
      const v = rows[i]![at];
      if (typeof v !== "string") continue;
      if (looksLikeHandle(v)) {
        forced.set(v, 0);
        continue;
      }
      if (!interned || v.length < MIN_LENGTH) continue;
      // Runs of one value (a file's rows) skip the lookup.
      let rec = last !== undefined && last.value === v ? last : values.get(v);
      if (rec === undefined) {
        rec = { value: v, count: 0, handle: 0, prefixLength: 0, cell: undefined };
        values.set(v, rec);
      }
      rec.count++;
      recs[i] = last = rec;
    }
    return recs;
  });
}

function _rows(t: _Table, recs: (_Interned | undefined)[][], forced: Map<string, number>): string {
  const rows = t.values;
  let out = "";
  const n = t.columns.length;
  const { at, kinds, quotes } = t;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    let line = i === 0 ? t.tag : "\n" + t.tag;
    for (let j = 0; j < n; j++) {
      const v = r[at[j]!]!;
      line += ",";
      if (v === null) continue;
      switch (kinds[j]) {
        case T_STR:
          line += _strCell(v as string, recs[j]![i], quotes[j]!, forced);
          break;
        case T_INT:
          line += formatInt(v as number);
          break;
        case T_FLOAT:
          line += formatFloat(v as number);
          break;
        default:
          line += v ? "T" : "F";
      }
    }
    out += line;
  }
  return out;
}

/** A `str` cell: its whole-value entry, its legend prefix, quoted when it must be. */
function _strCell(
  s: string,
  rec: _Interned | undefined,
  quotes: boolean,
  forced: Map<string, number>,
): string {
  if (looksLikeHandle(s)) {
    const handle = forced.get(s);
    if (handle !== undefined) return "@" + handle;
  }
  if (rec !== undefined) {
    // A value's cell is the same in every row: made once (and interned values repeat). In a
    // column without `,` and `"` no value needs a look.
    if (rec.cell === undefined) {
      const text = rec.handle !== 0 ? "@" + rec.handle + s.slice(rec.prefixLength) : s;
      rec.cell = quotes ? formatStrictCell(text) : text;
    }
    return rec.cell;
  }
  return quotes ? formatStrictCell(s) : s;
}
