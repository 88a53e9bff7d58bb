/**
 * The reversible reshapings of tier-1 specs (see spec.ts). `applyTransforms` returns the reshaped
 * response and the keys it reshaped; `undoTransforms` reverses exactly those keys. A transform whose
 * preconditions do not hold is skipped, so every response stays encodable and lossless.
 *
 * @module
 */
import {
  DEPTH_COLUMN,
  type ForestTransform,
  type LinesTransform,
  type SplitTransform,
  type Transform,
} from "./spec.ts";
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
    if (t.kind === "forest") {
      if (Object.hasOwn(value, t.into)) continue;
      const forest = _flattenForest(v, t);
      if (forest === undefined) continue;
      const next: JsonObject = {};
      for (const k of Object.keys(value)) {
        setKey(next, k, k === t.key ? forest.groups : value[k]!);
        if (k === t.key) setKey(next, t.into, forest.nodes);
      }
      value = next;
      applied.push(t.key);
      continue;
    }
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
    if (t.kind === "lines") {
      if (Object.hasOwn(value, t.into)) continue;
      out = _lineRows(v, t);
      target = t.into;
    } else if (t.kind === "group") {
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
  return t.kind === "group" || t.kind === "lines" ? t.into : t.key;
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
    if (t.kind === "forest") {
      value = _joinForest(value, t);
      continue;
    }
    const source = transformSource(t);
    const rows = value[source];
    if (!Array.isArray(rows)) {
      throw new SyntaxError(`Cannot decode payload: transformed table "${source}" is missing`);
    }
    const lead = leads?.get(source);
    let restored: JsonValue;
    if (t.kind === "lines") restored = _linesToGroups(rows, t);
    else if (t.kind === "group") restored = _groupRows(rows, t.by, t.child, lead);
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

/** A context list: absent (undefined), or a list of strings; anything else (false) does not fit. */
function _context(m: JsonObject, key: string): string[] | undefined | false {
  if (!Object.hasOwn(m, key)) return undefined;
  const v = m[key];
  return Array.isArray(v) && v.every((x) => typeof x === "string") ? v as string[] : false;
}

/** Rows of the `lines` transform, or undefined when the shape does not fit it exactly. */
function _lineRows(v: JsonValue | undefined, t: LinesTransform): JsonValue[] | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const rows: JsonValue[] = [];
  let last: string | undefined;
  let withContext: boolean | undefined;
  for (const g of v) {
    if (!isJsonObject(g)) return undefined;
    const keys = Object.keys(g);
    if (keys.length !== 2 || keys[0] !== t.by || keys[1] !== t.child) return undefined;
    const file = g[t.by];
    const matches = g[t.child];
    if (typeof file !== "string" || file === last) return undefined;
    if (!Array.isArray(matches) || matches.length === 0) return undefined;
    last = file;
    for (const m of matches) {
      if (!isJsonObject(m) || Object.hasOwn(m, t.by) || Object.hasOwn(m, t.mark)) return undefined;
      if (typeof m.line !== "number" || !Number.isInteger(m.line) || typeof m.text !== "string") {
        return undefined;
      }
      const before = _context(m, t.before);
      const after = _context(m, t.after);
      if (before === false || after === false) return undefined;
      // Every match carries both lists, or none does: the mark column says which.
      const has = before !== undefined;
      if ((after !== undefined) !== has || (withContext ??= has) !== has) return undefined;
      const row = (line: number, mark: string, text: string): JsonObject => {
        const r: JsonObject = {};
        setKey(r, t.by, file);
        r.line = line;
        if (has) setKey(r, t.mark, mark);
        r.text = text;
        return r;
      };
      before?.forEach((text, i) =>
        rows.push(row((m.line as number) - before.length + i, "-", text))
      );
      const own = row(m.line, ":", m.text);
      for (const k of Object.keys(m)) {
        if (k !== "line" && k !== "text" && k !== t.before && k !== t.after) setKey(own, k, m[k]!);
      }
      rows.push(own);
      after?.forEach((text, i) => rows.push(row((m.line as number) + 1 + i, "+", text)));
    }
  }
  return rows;
}

function _linesToGroups(rows: JsonValue[], t: LinesTransform): JsonValue[] {
  const groups: JsonObject[] = [];
  let matches: JsonObject[] = [];
  let file: JsonValue | undefined;
  let pending: string[] = [];
  let current: JsonObject | undefined;
  const bad = (what: string) => new SyntaxError(`Cannot decode payload: ${what} in "${t.into}"`);
  for (const r of rows) {
    if (!isJsonObject(r)) throw bad("a row is not an object");
    const f = Object.hasOwn(r, t.by) ? r[t.by]! : null;
    if (groups.length === 0 || f !== file) {
      if (pending.length) throw bad("context lines before no match");
      matches = [];
      const g: JsonObject = {};
      setKey(g, t.by, f);
      setKey(g, t.child, matches);
      groups.push(g);
      file = f;
      current = undefined;
    }
    const mark = Object.hasOwn(r, t.mark) ? r[t.mark] : undefined;
    if (mark === "-" || mark === "+") {
      if (typeof r.text !== "string") throw bad("a context line has no text");
      if (mark === "-") pending.push(r.text);
      else if (current === undefined) throw bad("context lines after no match");
      else (current[t.after] as JsonValue[]).push(r.text);
      continue;
    }
    if (mark !== undefined && mark !== ":") throw bad(`unknown mark "${String(mark)}"`);
    const m: JsonObject = {};
    for (const k of Object.keys(r)) if (k !== t.by && k !== t.mark) setKey(m, k, r[k]!);
    if (mark === ":") {
      setKey(m, t.before, pending);
      setKey(m, t.after, []);
      pending = [];
    }
    matches.push(m);
    current = m;
  }
  if (pending.length) throw bad("context lines before no match");
  return groups;
}

/** The `forest` transform's two lists, or undefined when the shape does not fit it exactly. */
function _flattenForest(v: JsonValue | undefined, t: ForestTransform) {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const groups: JsonObject[] = [];
  const nodes: JsonObject[] = [];
  const visit = (file: string, list: JsonValue[], depth: number): boolean => {
    for (const n of list) {
      if (!isJsonObject(n) || Object.hasOwn(n, t.by) || Object.hasOwn(n, DEPTH_COLUMN)) {
        return false;
      }
      const row: JsonObject = {};
      setKey(row, t.by, file);
      row[DEPTH_COLUMN] = depth;
      for (const k of Object.keys(n)) if (k !== t.children) setKey(row, k, n[k]!);
      nodes.push(row);
      if (!Object.hasOwn(n, t.children)) continue;
      const kids = n[t.children];
      // An empty children list would come back absent.
      if (!Array.isArray(kids) || kids.length === 0 || !visit(file, kids, depth + 1)) return false;
    }
    return true;
  };
  for (const g of v) {
    if (!isJsonObject(g)) return undefined;
    const file = Object.hasOwn(g, t.by) ? g[t.by] : undefined;
    const list = Object.hasOwn(g, t.child) ? g[t.child] : undefined;
    if (typeof file !== "string" || !Array.isArray(list)) return undefined;
    const before = nodes.length;
    if (!visit(file, list, 0)) return undefined;
    const row: JsonObject = {};
    for (const k of Object.keys(g)) setKey(row, k, k === t.child ? nodes.length - before : g[k]!);
    groups.push(row);
  }
  return { groups, nodes };
}

function _joinForest(value: JsonObject, t: ForestTransform): JsonObject {
  const groups = value[t.key];
  const nodes = Object.hasOwn(value, t.into) ? value[t.into] : undefined;
  const bad = (what: string) => new SyntaxError(`Cannot decode payload: ${what} in "${t.into}"`);
  if (!Array.isArray(groups) || !Array.isArray(nodes)) throw bad("missing tables");
  let at = 0;
  const restored = groups.map((g) => {
    if (!isJsonObject(g)) throw bad("a row is not an object");
    const n = Object.hasOwn(g, t.child) ? g[t.child] : undefined;
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || at + n > nodes.length) {
      throw bad("an invalid node count");
    }
    const roots: JsonObject[] = [];
    const stack: JsonObject[] = [];
    for (const r of nodes.slice(at, at += n)) {
      if (!isJsonObject(r)) throw bad("a node is not an object");
      const depth = r[DEPTH_COLUMN];
      if (
        typeof depth !== "number" || !Number.isInteger(depth) || depth < 0 || depth > stack.length
      ) {
        throw bad(`an invalid depth "${String(depth)}"`);
      }
      const node: JsonObject = {};
      for (const k of Object.keys(r)) if (k !== t.by && k !== DEPTH_COLUMN) setKey(node, k, r[k]!);
      stack.length = depth;
      if (depth === 0) roots.push(node);
      else {
        const parent = stack[depth - 1]!;
        let kids = Object.hasOwn(parent, t.children) ? parent[t.children] : undefined;
        if (!Array.isArray(kids)) setKey(parent, t.children, kids = []);
        kids.push(node);
      }
      stack.push(node);
    }
    const out: JsonObject = {};
    for (const k of Object.keys(g)) setKey(out, k, k === t.child ? roots : g[k]!);
    return out;
  });
  if (at !== nodes.length) throw bad("extra rows");
  const next: JsonObject = {};
  for (const k of Object.keys(value)) {
    if (k === t.key) setKey(next, k, restored);
    else if (k !== t.into) setKey(next, k, value[k]!);
  }
  return next;
}
