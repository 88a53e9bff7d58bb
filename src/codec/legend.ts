/**
 * The legend: string prefixes interned as `@N` handles (1-based, dense).
 *
 * Candidate prefixes of a value are the value itself, its prefixes ending at a `/` (directory
 * paths), and its prefix before a `::` (the file path at the head of a symbol id, so one entry
 * serves both a `file` column and the ids in it). A prefix is kept when it saves bytes
 * across every cell that would use it; each cell then uses its longest kept prefix, unless the
 * remainder starts with a digit (the handle's digits would run on into it).
 *
 * @module
 */
import { _startsWithHandle } from "./escape.ts";

/** Most entries a legend holds. */
const MAX_ENTRIES = 4096;
/** Values shorter than this never pay for a legend entry (about two tokens). */
const MIN_LENGTH = 8;
// A legend literal runs to the end of its line, so it may not hold a line break.
// deno-lint-ignore no-control-regex -- the control characters are the point
const LINE_BREAK = /[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** A chosen legend: entries in handle order (entry i has handle i + 1). */
export class Legend {
  readonly entries: string[];
  readonly #handles: Map<string, number>;
  /** The prefix each interned value uses. */
  readonly #assigned: Map<string, string>;

  constructor(entries: string[], assigned = new Map<string, string>()) {
    this.entries = entries;
    this.#handles = new Map(entries.map((e, i) => [e, i + 1]));
    this.#assigned = assigned;
  }

  /** Choose prefixes that save bytes and tokens over the given values (value → occurrences). */
  static build(values: ReadonlyMap<string, number>): Legend {
    const counts = new Map<string, number>();
    const candidates = new Map<string, string[]>();
    for (const [v, c] of values) {
      // Shorter values never pay (see _saving); a value seen once with no separator has no
      // prefix another value could share.
      if (v.length < MIN_LENGTH || (c === 1 && !v.includes("/") && !v.includes("::"))) continue;
      const cands = _candidatesLongestFirst(v);
      candidates.set(v, cands);
      for (const p of cands) counts.set(p, (counts.get(p) ?? 0) + c);
    }
    // A prefix must pay off on its own counts; then it is re-counted with each value using its
    // longest such prefix, so prefixes shadowed by longer ones drop out.
    const first = new Set<string>();
    for (const [p, c] of counts) if (_saving(p.length, c, 2) > 0) first.add(p);
    if (first.size === 0) return new Legend([]);
    const assigned = new Map<string, string>();
    const used = new Map<string, number>();
    for (const [v, cands] of candidates) {
      const p = _longest(v, cands, first);
      if (p === undefined) continue;
      assigned.set(v, p);
      used.set(p, (used.get(p) ?? 0) + values.get(v)!);
    }
    const entries = [...used].filter(([p, c]) => _saving(p.length, c, 2) > 0)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_ENTRIES)
      .map(([p]) => p);
    const kept = new Set(entries);
    for (const [v, p] of assigned) {
      if (kept.has(p)) continue;
      const q = _longest(v, candidates.get(v)!, kept);
      if (q === undefined) assigned.delete(v);
      else assigned.set(v, q);
    }
    return new Legend(entries, assigned);
  }

  /** Write a value with its handle, or escape it if it looks like one. */
  apply(value: string): string {
    const p = this.#assigned.get(value);
    if (p !== undefined) return "@" + this.#handles.get(p)! + value.slice(p.length);
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

/**
 * What a prefix of `len` characters used `count` times saves: the lesser of the byte saving and
 * the (estimated, ~3.5 characters a token) token saving, so that short values like `call`, which
 * are one token either way, are not interned.
 */
function _saving(len: number, count: number, handleLen: number): number {
  const bytes = count * (len - handleLen - 1) - (len + handleLen + 3);
  const tokens = len / 3.5;
  return Math.min(bytes, (count * (tokens - 2) - (tokens + 2)) * 3.5);
}

function _longest(
  v: string,
  cands: readonly string[],
  chosen: { has(p: string): boolean },
): string | undefined {
  for (const p of cands) {
    if (!chosen.has(p)) continue;
    // The handle's digits would run on into a remainder that starts with a digit.
    const d = v.charCodeAt(p.length);
    if (d >= 48 && d <= 57) continue;
    return p;
  }
  return undefined;
}

function _candidates(v: string): string[] {
  if (LINE_BREAK.test(v)) return [];
  const out = [v];
  for (let i = v.lastIndexOf("::"); i >= 3; i = v.lastIndexOf("::", i - 1)) out.push(v.slice(0, i));
  // The two deepest directory prefixes: deeper ones share more, shallower ones rarely pay.
  const last = v.lastIndexOf("/", v.length - 2);
  if (last >= 2) {
    out.push(v.slice(0, last + 1));
    const prev = v.lastIndexOf("/", last - 1);
    if (prev >= 2) out.push(v.slice(0, prev + 1));
  }
  return out;
}

function _candidatesLongestFirst(v: string): string[] {
  const c = _candidates(v);
  for (let i = 1; i < c.length; i++) {
    if (c[i]!.length > c[i - 1]!.length) return c.sort((a, b) => b.length - a.length);
  }
  return c;
}
