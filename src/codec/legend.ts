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
export const MIN_LENGTH = 8;
// A legend literal runs to the end of its line, so it may not hold a line break.
// deno-lint-ignore no-control-regex -- the control characters are the point
const LINE_BREAK = /[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** One distinct string value offered to the legend, with what {@linkcode buildLegend} chose. */
export interface InternValue {
  /** Occurrences of the value. */
  count: number;
  /** Handle of the prefix the value uses (0: none). Set by `buildLegend`. */
  handle: number;
  /** Length of that prefix. Set by `buildLegend`. */
  prefixLength: number;
}

/**
 * Choose prefixes that save bytes and tokens over the given values (value → occurrences) and
 * record in each value the handle it uses. Returns the entries in handle order.
 */
export function buildLegend(values: ReadonlyMap<string, InternValue>): string[] {
  // One record per candidate prefix, so each is hashed once; the candidates of a path (a value
  // without `::`, or the part of a symbol id before it) are computed once per path.
  const prefixes = new Map<string, _Prefix>();
  const paths = new Map<string, _Prefix[]>();
  const uses: _Use[] = [];
  for (const [v, rec] of values) {
    rec.handle = 0;
    const c = rec.count;
    if (v.length < MIN_LENGTH) continue;
    const sep = v.indexOf("::", 3);
    // A value seen once with no separator has no prefix another value could share.
    if (c === 1 && sep === -1 && !v.includes("/")) continue;
    let cands: _Prefix[];
    if (sep === -1) cands = _pathCandidates(v, prefixes, paths);
    else {
      cands = [_prefix(v, prefixes), ..._pathCandidates(v.slice(0, sep), prefixes, paths)];
    }
    for (const p of cands) p.count += c;
    uses.push({ value: v, rec, cands, pick: undefined });
  }
  // A prefix must pay off on its own counts (state 1); then it is re-counted with each value
  // using its longest such prefix, and kept (state 2) if it still pays. A literal runs to the
  // end of its line, so a prefix holding a line break is never kept.
  let any = false;
  for (const p of prefixes.values()) {
    if (_saving(p.text.length, p.count, 2) > 0) {
      p.state = 1;
      any = true;
    }
  }
  if (!any) return [];
  for (const u of uses) {
    u.pick = _longest(u.value, u.cands, 1);
    if (u.pick) u.pick.used += u.rec.count;
  }
  const kept: _Prefix[] = [];
  for (const p of prefixes.values()) {
    if (p.used > 0 && _saving(p.text.length, p.used, 2) > 0 && !LINE_BREAK.test(p.text)) {
      kept.push(p);
    }
  }
  kept.sort((a, b) => b.used - a.used || (a.text < b.text ? -1 : 1));
  if (kept.length > MAX_ENTRIES) kept.length = MAX_ENTRIES;
  for (let i = 0; i < kept.length; i++) {
    kept[i]!.state = 2;
    kept[i]!.handle = i + 1;
  }
  for (const u of uses) {
    const pick = u.pick?.state === 2 ? u.pick : _longest(u.value, u.cands, 2);
    if (pick) {
      u.rec.handle = pick.handle;
      u.rec.prefixLength = pick.text.length;
    }
  }
  return kept.map((p) => p.text);
}

/** Write a value with its legend handle, or escape it if it looks like one. */
export function applyLegend(value: string, rec: InternValue): string {
  if (rec.handle !== 0) return "@" + rec.handle + value.slice(rec.prefixLength);
  return _startsWithHandle(value) ? "@0" + value : value;
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
  /** Handle once kept. */
  handle: number;
}

interface _Use {
  value: string;
  rec: InternValue;
  /** Candidate prefixes, longest first. */
  cands: _Prefix[];
  pick: _Prefix | undefined;
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

function _prefix(text: string, prefixes: Map<string, _Prefix>): _Prefix {
  let p = prefixes.get(text);
  if (p === undefined) prefixes.set(text, p = { text, count: 0, used: 0, state: 0, handle: 0 });
  return p;
}

/**
 * A path and its two deepest directory prefixes (deeper ones share more, shallower ones rarely
 * pay), longest first; cached per path.
 */
function _pathCandidates(
  v: string,
  prefixes: Map<string, _Prefix>,
  paths: Map<string, _Prefix[]>,
): _Prefix[] {
  let out = paths.get(v);
  if (out !== undefined) return out;
  out = [_prefix(v, prefixes)];
  const last = v.lastIndexOf("/", v.length - 2);
  if (last >= 2) {
    out.push(_prefix(v.slice(0, last + 1), prefixes));
    const prev = v.lastIndexOf("/", last - 1);
    if (prev >= 2) out.push(_prefix(v.slice(0, prev + 1), prefixes));
  }
  paths.set(v, out);
  return out;
}
