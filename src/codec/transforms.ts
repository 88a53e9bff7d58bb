/**
 * The reversible reshapings of tier-1 specs (see spec.ts). `applyTransforms` returns the reshaped
 * response and the keys it reshaped; `undoTransforms` reverses exactly those keys. A transform whose
 * preconditions do not hold is skipped, so every response stays encodable and lossless.
 *
 * @module
 */
import { DEPTH_COLUMN, type Transform } from "./spec.ts";
import { isJsonObject, type JsonObject, type JsonValue, setKey } from "./types.ts";

/** Fewest entries for which the `dict` transform turns a map into a table. */
const DICT_MIN_ENTRIES = 4;

/** Apply the transforms that fit; returns the new object and the keys transformed. */
export function applyTransforms(
  response: JsonObject,
  transforms: readonly Transform[],
): { value: JsonObject; applied: string[] } {
  let value = response;
  const applied: string[] = [];
  for (const t of transforms) {
    const v = Object.hasOwn(value, t.key) ? value[t.key] : undefined;
    let out: JsonValue[] | undefined;
    let target = t.key;
    if (t.kind === "group") {
      if (Object.hasOwn(value, t.into)) continue;
      out = _flattenGroups(v, t.by, t.child);
      target = t.into;
    } else if (t.kind === "tree") {
      out = _flattenTree(v, t.children);
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
  return { value, applied };
}

/** Undo the transforms whose keys are listed in `applied`, in reverse order. */
export function undoTransforms(
  value: JsonObject,
  transforms: readonly Transform[],
  applied: readonly string[],
): JsonObject {
  for (const t of [...transforms].reverse()) {
    if (!applied.includes(t.key)) continue;
    const source = t.kind === "group" ? t.into : t.key;
    const rows = value[source];
    if (!Array.isArray(rows)) {
      throw new SyntaxError(`Cannot decode payload: transformed table "${source}" is missing`);
    }
    let restored: JsonValue;
    if (t.kind === "group") restored = _groupRows(rows, t.by, t.child);
    else if (t.kind === "tree") restored = _buildTree(rows, t.children);
    else restored = _rowsToDict(rows, t.keyColumn, t.valueColumn);
    const next: JsonObject = {};
    for (const k of Object.keys(value)) {
      setKey(next, k === source ? t.key : k, k === source ? restored : value[k]!);
    }
    value = next;
  }
  return value;
}

function _flattenGroups(v: JsonValue | undefined, by: string, child: string) {
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
      rows.push({ [by]: name, ...item });
    }
  }
  return rows;
}

function _groupRows(rows: JsonValue[], by: string, child: string): JsonValue[] {
  const groups: JsonObject[] = [];
  let current: JsonValue[] | undefined;
  let last: JsonValue | undefined;
  for (const r of rows) {
    if (!isJsonObject(r)) {
      throw new SyntaxError("Cannot decode payload: group row is not an object");
    }
    const { [by]: name, ...rest } = r;
    if (current === undefined || name !== last) {
      current = [];
      groups.push({ [by]: name ?? null, [child]: current });
      last = name;
    }
    current.push(rest);
  }
  return groups;
}

function _flattenTree(v: JsonValue | undefined, children: string) {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const rows: JsonValue[] = [];
  const visit = (nodes: JsonValue[], depth: number): boolean => {
    for (const n of nodes) {
      if (!isJsonObject(n) || Object.hasOwn(n, DEPTH_COLUMN)) return false;
      const row: JsonObject = { [DEPTH_COLUMN]: depth };
      let kids: JsonValue | undefined;
      for (const k of Object.keys(n)) {
        if (k === children) kids = n[k];
        else setKey(row, k, n[k]!);
      }
      rows.push(row);
      if (kids === undefined) continue;
      if (!Array.isArray(kids) || kids.length === 0) return false;
      if (!visit(kids, depth + 1)) return false;
    }
    return true;
  };
  return visit(v, 0) ? rows : undefined;
}

function _buildTree(rows: JsonValue[], children: string): JsonValue[] {
  const roots: JsonValue[] = [];
  const stack: JsonObject[] = [];
  for (const r of rows) {
    if (!isJsonObject(r)) throw new SyntaxError("Cannot decode payload: tree row is not an object");
    const depth = r[DEPTH_COLUMN];
    const node: JsonObject = {};
    for (const k of Object.keys(r)) if (k !== DEPTH_COLUMN) setKey(node, k, r[k]!);
    if (typeof depth !== "number" || depth < 0 || depth > stack.length) {
      throw new SyntaxError(`Cannot decode payload: invalid tree depth "${String(depth)}"`);
    }
    stack.length = depth;
    if (depth === 0) roots.push(node);
    else {
      const parent = stack[depth - 1]!;
      const list = (parent[children] ??= []) as JsonValue[];
      list.push(node);
    }
    stack.push(node);
  }
  return roots;
}

function _dictToRows(v: JsonValue | undefined, keyColumn: string, valueColumn: string) {
  if (!isJsonObject(v)) return undefined;
  const keys = Object.keys(v);
  // A table costs a `__tables` entry; a small map is cheaper as dotted keys or a JSON blob.
  if (keys.length < DICT_MIN_ENTRIES) return undefined;
  return keys.map((k) => ({ [keyColumn]: k, [valueColumn]: v[k]! }));
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
