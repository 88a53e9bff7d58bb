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
    // One record per candidate prefix, so each is hashed once.
    const prefixes = new Map<string, _Prefix>();
    const uses: { value: string; count: number; cands: _Prefix[]; pick?: _Prefix | undefined }[] =
      [];
    for (const [v, c] of values) {
      // Shorter values never pay (see _saving); a value seen once with no separator has no
      // prefix another value could share.
      if (v.length < MIN_LENGTH || (c === 1 && !v.includes("/") && !v.includes("::"))) continue;
      const cands = _candidatesLongestFirst(v).map((p) => {
        let rec = prefixes.get(p);
        if (rec === undefined) prefixes.set(p, rec = { text: p, count: 0, used: 0, state: 0 });
        rec.count += c;
        return rec;
      });
      uses.push({ value: v, count: c, cands });
    }
    // A prefix must pay off on its own counts (state 1); then it is re-counted with each value
    // using its longest such prefix, and kept (state 2) if it still pays.
    let any = false;
    for (const rec of prefixes.values()) {
      if (_saving(rec.text.length, rec.count, 2) > 0) {
        rec.state = 1;
        any = true;
      }
    }
    if (!any) return new Legend([]);
    for (const u of uses) {
      u.pick = _longest(u.value, u.cands, 1);
      if (u.pick) u.pick.used += u.count;
    }
    const kept = [...prefixes.values()].filter((r) =>
      r.used > 0 && _saving(r.text.length, r.used, 2) > 0
    )
      .sort((a, b) => b.used - a.used || (a.text < b.text ? -1 : 1))
      .slice(0, MAX_ENTRIES);
    for (const r of kept) r.state = 2;
    const assigned = new Map<string, string>();
    for (const u of uses) {
      const pick = u.pick?.state === 2 ? u.pick : _longest(u.value, u.cands, 2);
      if (pick) assigned.set(u.value, pick.text);
    }
    return new Legend(kept.map((r) => r.text), assigned);
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

interface _Prefix {
  text: string;
  /** Occurrences of values having this prefix. */
  count: number;
  /** Occurrences of values whose longest paying prefix this is. */
  used: number;
  /** 0 candidate, 1 pays on its own counts, 2 kept. */
  state: number;
}

function _longest(v: string, cands: readonly _Prefix[], state: number): _Prefix | undefined {
  for (const p of cands) {
    if (p.state < state) continue;
    // The handle's digits would run on into a remainder that starts with a digit.
    const d = v.charCodeAt(p.text.length);
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
