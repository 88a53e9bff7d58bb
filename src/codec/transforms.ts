/**
 * The reversible reshapings of tier-1 specs (see spec.ts). `applyTransforms` returns the reshaped
 * response and the keys it reshaped; `undoTransforms` reverses exactly those keys. A transform whose
 * preconditions do not hold is skipped, so every response stays encodable and lossless.
 *
 * @module
 */
import { DEPTH_COLUMN, type SplitTransform, type Transform } from "./spec.ts";
import { isJsonObject, type JsonObject, type JsonValue, setKey } from "./types.ts";

/**
 * Fewest entries for which the `dict` transform turns a map into a table. A row costs about the
 * tokens of a JSON blob entry, so the table's own definition (a `__tables` entry, an `__xf` name)
 * pays only on large maps; smaller ones are cheaper as a blob (or dotted keys).
 */
const DICT_MIN_ENTRIES = 32;

/**
 * The first column of a table made by a `group` or `tree` transform (the group's `by` value, or
 * `__depth`), kept beside the rows instead of in them so that the rows can be the original
 * objects; `omit` names a key of those objects that is not a column (the tree's children).
 */
export interface LeadColumn {
  name: string;
  values: JsonValue[];
  omit?: string;
}

/**
 * Apply the transforms that fit; returns the new object, the keys transformed, and the lead
 * column of each table a `group` or `tree` made (by the identity of its rows list).
 */
export function applyTransforms(
  response: JsonObject,
  transforms: readonly Transform[],
): { value: JsonObject; applied: string[]; leads: Map<JsonValue[], LeadColumn> } {
  let value = response;
  const applied: string[] = [];
  const leads = new Map<JsonValue[], LeadColumn>();
  for (const t of transforms) {
    const v = Object.hasOwn(value, t.key) ? value[t.key] : undefined;
    let out: JsonValue[] | undefined;
    let target = t.key;
    if (t.kind === "split") {
      if (Object.hasOwn(value, t.into)) continue;
      const split = _splitGroups(v, t.by, t.child);
      if (split === undefined) continue;
      const next: JsonObject = {};
      for (const k of Object.keys(value)) {
        if (k !== t.key) setKey(next, k, value[k]!);
        else {
          setKey(next, k, split.groups);
          setKey(next, t.into, split.items);
        }
      }
      value = next;
      applied.push(t.key);
      continue;
    }
    if (t.kind === "group") {
      if (Object.hasOwn(value, t.into)) continue;
      const lead: LeadColumn = { name: t.by, values: [] };
      out = _flattenGroups(v, t.by, t.child, lead.values);
      if (out !== undefined) leads.set(out, lead);
      target = t.into;
    } else if (t.kind === "tree") {
      const lead: LeadColumn = { name: DEPTH_COLUMN, values: [], omit: t.children };
      out = _flattenTree(v, t.children, lead.values);
      if (out !== undefined) leads.set(out, lead);
    } else {
      out = _dictToRows(v, t.keyColumn, t.valueColumn);
    }
    if (out === undefined) continue;
    const next: JsonObject = {};
    for (const k of Object.keys(value)) {
      setKey(next, k === t.key ? target : k, k === t.key ? out : value[k]!);
    }
    value = next;
    applied.push(t.key);
  }
  return { value, applied, leads };
}

/** The key of the table a transform leaves in the (transformed) response. */
export function transformSource(t: Transform): string {
  return t.kind === "group" ? t.into : t.key;
}

/** The lead column a `group` or `tree` transform's table starts with, if any. */
export function leadName(t: Transform): string | undefined {
  return t.kind === "group" ? t.by : t.kind === "tree" ? DEPTH_COLUMN : undefined;
}

/**
 * Undo the transforms whose keys are listed in `applied`, in reverse order. `leads` holds, per
 * table key, the lead column values when the decoder kept them out of the rows.
 */
export function undoTransforms(
  value: JsonObject,
  transforms: readonly Transform[],
  applied: readonly string[],
  leads?: ReadonlyMap<string, (JsonValue | undefined)[]>,
): JsonObject {
  for (const t of [...transforms].reverse()) {
    if (!applied.includes(t.key)) continue;
    if (t.kind === "split") {
      value = _joinGroups(value, t);
      continue;
    }
    const source = transformSource(t);
    const rows = value[source];
    if (!Array.isArray(rows)) {
      throw new SyntaxError(`Cannot decode payload: transformed table "${source}" is missing`);
    }
    const lead = leads?.get(source);
    let restored: JsonValue;
    if (t.kind === "group") restored = _groupRows(rows, t.by, t.child, lead);
    else if (t.kind === "tree") restored = _buildTree(rows, t.children, lead);
    else restored = _rowsToDict(rows, t.keyColumn, t.valueColumn);
    const next: JsonObject = {};
    for (const k of Object.keys(value)) {
      setKey(next, k === source ? t.key : k, k === source ? restored : value[k]!);
    }
    value = next;
  }
  return value;
}

function _splitGroups(v: JsonValue | undefined, by: string, child: string) {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const groups: JsonObject[] = [];
  const items: JsonValue[] = [];
  for (const g of v) {
    if (!isJsonObject(g)) return undefined;
    const keys = Object.keys(g);
    if (keys.length !== 2 || keys[0] !== by || keys[1] !== child) return undefined;
    const list = g[child];
    if (!Array.isArray(list)) return undefined;
    for (const item of list) {
      if (!isJsonObject(item)) return undefined;
      items.push(item);
    }
    const row: JsonObject = {};
    setKey(row, by, g[by]!);
    setKey(row, child, list.length);
    groups.push(row);
  }
  return { groups, items };
}

function _joinGroups(value: JsonObject, t: SplitTransform): JsonObject {
  const groups = value[t.key];
  const items = Object.hasOwn(value, t.into) ? value[t.into] : undefined;
  if (!Array.isArray(groups) || !Array.isArray(items)) {
    throw new SyntaxError(`Cannot decode payload: split tables "${t.key}" are missing`);
  }
  let at = 0;
  const restored: JsonValue[] = groups.map((g) => {
    const n = isJsonObject(g) && Object.hasOwn(g, t.child) ? g[t.child] : undefined;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || at + n > items.length) {
      throw new SyntaxError(`Cannot decode payload: invalid count in split table "${t.key}"`);
    }
    const out: JsonObject = {};
    setKey(out, t.by, Object.hasOwn(g as JsonObject, t.by) ? (g as JsonObject)[t.by]! : null);
    setKey(out, t.child, items.slice(at, at += n));
    return out;
  });
  if (at !== items.length) {
    throw new SyntaxError(`Cannot decode payload: split table "${t.into}" has extra rows`);
  }
  const next: JsonObject = {};
  for (const k of Object.keys(value)) {
    if (k === t.key) setKey(next, k, restored);
    else if (k !== t.into) setKey(next, k, value[k]!);
  }
  return next;
}

function _flattenGroups(v: JsonValue | undefined, by: string, child: string, lead: JsonValue[]) {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const rows: JsonValue[] = [];
  let last: string | undefined;
  for (const g of v) {
    if (!isJsonObject(g)) return undefined;
    const keys = Object.keys(g);
    if (keys.length !== 2 || keys[0] !== by || keys[1] !== child) return undefined;
    const name = g[by];
    const items = g[child];
    if (typeof name !== "string" || name === last) return undefined;
    if (!Array.isArray(items) || items.length === 0) return undefined;
    last = name;
    for (const item of items) {
      if (!isJsonObject(item) || Object.hasOwn(item, by)) return undefined;
      rows.push(item);
      lead.push(name);
    }
  }
  return rows;
}

/**
 * Row `i`'s value of the lead column `key` and the row without it: from `lead` when the reader
 * kept that column apart from the rows, else taken out of the row itself.
 */
function _takeLead(
  row: JsonObject,
  i: number,
  key: string,
  lead: (JsonValue | undefined)[] | undefined,
): [JsonValue | undefined, JsonObject] {
  if (lead !== undefined) return [lead[i], row];
  const rest: JsonObject = {};
  for (const k of Object.keys(row)) if (k !== key) setKey(rest, k, row[k]!);
  return [Object.hasOwn(row, key) ? row[key] : undefined, rest];
}

function _groupRows(
  rows: JsonValue[],
  by: string,
  child: string,
  lead: (JsonValue | undefined)[] | undefined,
): JsonValue[] {
  const groups: JsonObject[] = [];
  let current: JsonValue[] | undefined;
  let last: JsonValue | undefined;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (!isJsonObject(r)) {
      throw new SyntaxError("Cannot decode payload: group row is not an object");
    }
    const [name, rest] = _takeLead(r, i, by, lead);
    if (current === undefined || name !== last) {
      current = [];
      const g: JsonObject = {};
      setKey(g, by, name ?? null);
      setKey(g, child, current);
      groups.push(g);
      last = name;
    }
    current.push(rest);
  }
  return groups;
}

function _flattenTree(v: JsonValue | undefined, children: string, lead: JsonValue[]) {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const rows: JsonValue[] = [];
  const visit = (nodes: JsonValue[], depth: number): boolean => {
    for (const n of nodes) {
      if (!isJsonObject(n) || Object.hasOwn(n, DEPTH_COLUMN)) return false;
      rows.push(n);
      lead.push(depth);
      if (!Object.hasOwn(n, children)) continue;
      const kids = n[children];
      if (!Array.isArray(kids) || kids.length === 0) return false;
      if (!visit(kids, depth + 1)) return false;
    }
    return true;
  };
  return visit(v, 0) ? rows : undefined;
}

function _buildTree(
  rows: JsonValue[],
  children: string,
  lead: (JsonValue | undefined)[] | undefined,
): JsonValue[] {
  const roots: JsonValue[] = [];
  const stack: JsonObject[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (!isJsonObject(r)) throw new SyntaxError("Cannot decode payload: tree row is not an object");
    const [depth, node] = _takeLead(r, i, DEPTH_COLUMN, lead);
    if (
      typeof depth !== "number" || !Number.isInteger(depth) || depth < 0 || depth > stack.length
    ) {
      throw new SyntaxError(`Cannot decode payload: invalid tree depth "${String(depth)}"`);
    }
    stack.length = depth;
    if (depth === 0) roots.push(node);
    else {
      const parent = stack[depth - 1]!;
      let list = Object.hasOwn(parent, children) ? parent[children] : undefined;
      if (!Array.isArray(list)) setKey(parent, children, list = []);
      list.push(node);
    }
    stack.push(node);
  }
  return roots;
}

function _dictToRows(v: JsonValue | undefined, keyColumn: string, valueColumn: string) {
  if (!isJsonObject(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length < DICT_MIN_ENTRIES) return undefined;
  return keys.map((k) => {
    const row: JsonObject = {};
    setKey(row, keyColumn, k);
    setKey(row, valueColumn, v[k]!);
    return row;
  });
}

function _rowsToDict(rows: JsonValue[], keyColumn: string, valueColumn: string): JsonObject {
  const out: JsonObject = {};
  for (const r of rows) {
    if (!isJsonObject(r) || typeof r[keyColumn] !== "string") {
      throw new SyntaxError("Cannot decode payload: dict row has no string key");
    }
    setKey(out, r[keyColumn] as string, r[valueColumn] ?? null);
  }
  return out;
}
