/**
 * The legend: string prefixes interned as `@N` handles (1-based, dense).
 *
 * Candidate prefixes of a value are the value itself and its prefixes ending at a `/` or `::`
 * (directory paths and the `path::` head of symbol ids). A prefix is kept when it saves bytes
 * across every cell that would use it; each cell then uses its longest kept prefix, unless the
 * remainder starts with a digit (the handle's digits would run on into it).
 *
 * @module
 */
import { _startsWithHandle } from "./escape.ts";

/** Most entries a legend holds. */
const MAX_ENTRIES = 4096;
// A legend literal runs to the end of its line, so it may not hold a line break.
// deno-lint-ignore no-control-regex -- the control characters are the point
const LINE_BREAK = /[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** A chosen legend: entries in handle order (entry i has handle i + 1). */
export class Legend {
  readonly entries: string[];
  readonly #handles: Map<string, number>;

  constructor(entries: string[]) {
    this.entries = entries;
    this.#handles = new Map(entries.map((e, i) => [e, i + 1]));
  }

  /** Choose prefixes that save bytes over the given values. */
  static build(values: readonly string[]): Legend {
    const counts = new Map<string, number>();
    for (const v of values) {
      if (v.length < 3) continue;
      for (const p of _candidates(v)) counts.set(p, (counts.get(p) ?? 0) + 1);
    }
    // First pass: a prefix pays off on its own counts; then re-count with longest-match use.
    let chosen = [...counts].filter(([p, c]) => _saving(p.length, c, 2) > 0).map(([p]) => p);
    if (chosen.length === 0) return new Legend([]);
    for (let round = 0; round < 2; round++) {
      const set = new Set(chosen);
      const used = new Map<string, number>();
      for (const [v, c] of _valueCounts(values)) {
        const p = _longest(v, set);
        if (p !== undefined) used.set(p, (used.get(p) ?? 0) + c);
      }
      chosen = [...used].filter(([p, c]) => _saving(p.length, c, 2) > 0)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, MAX_ENTRIES)
        .map(([p]) => p);
    }
    return new Legend(chosen);
  }

  /** Write a value with its longest usable handle, or escape it if it looks like one. */
  apply(value: string): string {
    if (this.entries.length > 0 && value.length >= 3) {
      for (const p of _candidatesLongestFirst(value)) {
        const h = this.#handles.get(p);
        if (h === undefined) continue;
        const rest = value.slice(p.length);
        const d = rest.charCodeAt(0);
        if (d >= 48 && d <= 57) continue;
        return "@" + h + rest;
      }
    }
    return _startsWithHandle(value) ? "@0" + value : value;
  }
}

/** Resolve a value read from the payload: `@N<rest>` → entry + rest, `@0<v>` → v. */
export function resolveHandle(value: string, entries: readonly string[]): string {
  if (!_startsWithHandle(value)) return value;
  let j = 1;
  while (j < value.length && value.charCodeAt(j) >= 48 && value.charCodeAt(j) <= 57) j++;
  const n = Number(value.slice(1, j));
  if (n === 0 && j === 2) return value.slice(2);
  const entry = entries[n - 1];
  return entry === undefined ? value : entry + value.slice(j);
}

function _saving(len: number, count: number, handleLen: number): number {
  return count * (len - handleLen - 1) - (len + handleLen + 3);
}

function _valueCounts(values: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}

function _longest(v: string, set: Set<string>): string | undefined {
  for (const p of _candidatesLongestFirst(v)) {
    if (!set.has(p)) continue;
    const d = v.charCodeAt(p.length);
    if (d >= 48 && d <= 57) continue;
    return p;
  }
  return undefined;
}

function _candidates(v: string): string[] {
  const out: string[] = [];
  if (LINE_BREAK.test(v)) return out;
  for (let i = v.indexOf("/"); i !== -1 && i < v.length - 1; i = v.indexOf("/", i + 1)) {
    if (i >= 2) out.push(v.slice(0, i + 1));
  }
  for (let i = v.indexOf("::"); i !== -1; i = v.indexOf("::", i + 2)) {
    if (i + 2 < v.length) out.push(v.slice(0, i + 2));
  }
  out.push(v);
  return out;
}

function _candidatesLongestFirst(v: string): string[] {
  return _candidates(v).sort((a, b) => b.length - a.length);
}
