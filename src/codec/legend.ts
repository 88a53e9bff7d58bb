/**
 * The legend: string prefixes interned as `@N` handles (1-based, dense).
 *
 * Candidate prefixes of a value are the value itself and its two deepest directory prefixes
 * (ending at a `/`); for a symbol id, the path before its first `::` (the file path at the head
 * of the id, so one entry serves both a `file` column and the ids in it) and that path's two
 * deepest directories. A prefix is kept when it saves bytes and tokens across every cell that
 * would use it; each cell then uses its longest kept prefix, unless the remainder starts with a
 * digit of any script (the handle's digits would run on into it: see {@linkcode digitLikeAt}).
 * Handles go to the most used prefixes first; ties keep first-seen order, so the same response
 * always gets the same legend.
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
  const ctx: _Ctx = {
    prefixes: new Map(),
    paths: new Map(),
    dir: "",
    dirCands: [],
    parent: "",
    parentPrefix: undefined,
  };
  const { uses, simple, plain } = _sortValues(values, ctx);
  for (const u of plain) uses.push(_pathUse(u, ctx));
  const alone = _aloneValues(simple, ctx.prefixes, uses);
  const kept = _keptPrefixes(ctx.prefixes, uses, alone);
  if (kept === null) return [];
  _assign(uses);
  _assign(alone);
  return kept.map((p) => p.text);
}

/**
 * The values of the legend's first pass, each reset to no handle: symbol ids (their own prefix
 * and their path's candidates counted) in `uses`; paths with a directory in `plain` and values
 * whose only candidate is themselves in `simple`, both looked at afterwards.
 */
function _sortValues(
  values: ReadonlyMap<string, InternValue>,
  ctx: _Ctx,
): { uses: _Use[]; simple: _Use[]; plain: _Use[] } {
  const prefixes = ctx.prefixes;
  const uses: _Use[] = [];
  // Values whose only candidate is themselves (no `::`, no directory): looked at after the
  // others, since only then is it known whether another value shares them.
  const simple: _Use[] = [];
  // Paths (values with a directory): looked at after the ids, since a path seen once can only
  // share itself with an id's path part.
  const plain: _Use[] = [];
  // Symbol ids of one file follow each other: their path part is looked up once.
  let lastPath = "";
  let lastCands: _Prefix[] = [];
  for (const [v, rec] of values) {
    rec.handle = 0;
    const c = rec.count;
    if (v.length < MIN_LENGTH) continue;
    const sep = v.indexOf("::", 3);
    if (sep === -1) {
      // (Most such values hold no `/` at all: one forward search tells.)
      const slash = v.indexOf("/");
      const last = slash === -1 ? -1 : v.lastIndexOf("/", v.length - 2);
      // A value seen once with no separator has no prefix another value could share.
      const into = last >= 2 ? plain : c > 1 || slash !== -1 ? simple : undefined;
      into?.push({ value: v, rec, head: undefined, cands: _NONE, pick: undefined, last });
      continue;
    }
    let head: _Prefix | undefined;
    // An id seen once cannot share itself: no other value has it as a prefix candidate.
    if (c > 1) {
      head = _prefix(v, prefixes);
      head.count += c;
    }
    // (`substring` + `===` is several times faster than `startsWith` here.)
    if (sep !== lastPath.length || v.substring(0, sep) !== lastPath) {
      lastPath = v.slice(0, sep);
      lastCands = _idPathCandidates(lastPath, ctx);
    }
    const cands = lastCands;
    for (let i = 0; i < cands.length; i++) cands[i]!.count += c;
    uses.push({ value: v, rec, head, cands, pick: undefined, last: -1 });
  }
  return { uses, simple, plain };
}

/** A path's use: its own prefix (when another value may share it) and its directories counted. */
function _pathUse(u: _Use, ctx: _Ctx): _Use {
  const c = u.rec.count;
  // A path seen once is a candidate already only as a symbol id's path or as a directory
  // (which ends with `/`): without ids, only a value ending with `/` needs the lookup.
  const head = c > 1
    ? _prefix(u.value, ctx.prefixes)
    : ctx.paths.size > 0 || u.value.endsWith("/")
    ? ctx.prefixes.get(u.value)
    : undefined;
  if (head !== undefined) {
    head.count += c;
    u.head = head;
  }
  u.cands = _dirCandidates(u.value, ctx, u.last);
  for (let i = 0; i < u.cands.length; i++) u.cands[i]!.count += c;
  return u;
}

/**
 * The simple values nobody else shares, each its own prefix, kept exactly when it pays; a
 * shared one joins `uses` with its prefix.
 */
function _aloneValues(
  simple: readonly _Use[],
  prefixes: Map<string, _Prefix>,
  uses: _Use[],
): _Use[] {
  const alone: _Use[] = [];
  for (const u of simple) {
    const v = u.value;
    const shared = prefixes.get(v);
    if (shared !== undefined) {
      shared.count += u.rec.count;
      u.head = shared;
      uses.push(u);
    } else if (_saving(v.length, u.rec.count, 2) > 0) {
      u.head = u.pick = { text: v, count: u.rec.count, used: u.rec.count, state: 1, handle: 0 };
      alone.push(u);
    }
  }
  return alone;
}

/**
 * The prefixes kept, in handle order (their state 2 and handle set), or null when none pays on
 * its own counts. A prefix must pay off on its own counts (state 1); then it is re-counted with
 * each value using its longest such prefix, and kept if it still pays. A literal runs to the end
 * of its line, so a prefix holding a line break is never kept.
 */
function _keptPrefixes(
  prefixes: Map<string, _Prefix>,
  uses: readonly _Use[],
  alone: readonly _Use[],
): _Prefix[] | null {
  let any = alone.length > 0;
  for (const p of prefixes.values()) {
    if (_saving(p.text.length, p.count, 2) > 0) {
      p.state = 1;
      any = true;
    }
  }
  if (!any) return null;
  for (const u of uses) {
    u.pick = _longest(u, 1);
    if (u.pick) u.pick.used += u.rec.count;
  }
  const kept: _Prefix[] = [];
  for (const p of prefixes.values()) {
    if (p.used > 0 && _saving(p.text.length, p.used, 2) > 0 && !LINE_BREAK.test(p.text)) {
      kept.push(p);
    }
  }
  for (const u of alone) if (!LINE_BREAK.test(u.value)) kept.push(u.pick!);
  // Most used first; ties keep first-seen order (the sort is stable), which is deterministic and
  // spares comparing long strings.
  kept.sort((a, b) => b.used - a.used);
  if (kept.length > MAX_ENTRIES) kept.length = MAX_ENTRIES;
  for (let i = 0; i < kept.length; i++) {
    kept[i]!.state = 2;
    kept[i]!.handle = i + 1;
  }
  return kept;
}

// Unicode numbers (`\p{N}`): a superset of the digits Python's `str.isdigit()` and `int()` read.
const _NUMBER_CHAR = /^\p{N}/u;

/**
 * True when `s` has a digit at `i` for some decoder: ASCII `0`-`9`, or any other Unicode number.
 * A decoder reads the digits after `@` as a handle; the reference's (Python) reads every character
 * `str.isdigit()` accepts (`²`, `٣`, `𝟗`) and `int()` turns many of them into digits, so a
 * handle is never followed by one, and a value starting with `@` and one looks like a handle.
 */
export function digitLikeAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c >= 48 && c <= 57) return true;
  if (!(c >= 0x80)) return false; // ASCII, or past the end (NaN)
  return _NUMBER_CHAR.test(String.fromCodePoint(s.codePointAt(i)!));
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
  /** The value itself as a candidate (when not among `cands`). */
  head: _Prefix | undefined;
  /** Further candidate prefixes, longest first (shared between values of one path). */
  cands: _Prefix[];
  pick: _Prefix | undefined;
  /** For a value without `::`: its last `/` before its last character (-1: none). */
  last: number;
}

const _NONE: _Prefix[] = [];

function _assign(uses: readonly _Use[]): void {
  for (const u of uses) {
    const pick = u.pick?.state === 2 ? u.pick : _longest(u, 2);
    if (pick) {
      u.rec.handle = pick.handle;
      u.rec.prefixLength = pick.text.length;
    }
  }
}

/** The longest candidate of a value in at least `state`. */
function _longest(u: _Use, state: number): _Prefix | undefined {
  const v = u.value;
  if (u.head !== undefined && u.head.state >= state) return u.head;
  for (const p of u.cands) {
    if (p.state < state) continue;
    // The handle's digits would run on into a remainder that starts with a digit.
    if (digitLikeAt(v, p.text.length)) continue;
    return p;
  }
  return undefined;
}

function _prefix(text: string, prefixes: Map<string, _Prefix>): _Prefix {
  let p = prefixes.get(text);
  if (p === undefined) prefixes.set(text, p = { text, count: 0, used: 0, state: 0, handle: 0 });
  return p;
}

/** Lookup state of one legend build. */
interface _Ctx {
  prefixes: Map<string, _Prefix>;
  /** Candidates of symbol-id paths (the part before `::`), which recur out of order. */
  paths: Map<string, _Prefix[]>;
  /** The last directory looked up and its candidates: sorted paths share it row after row. */
  dir: string;
  dirCands: _Prefix[];
  /** The last parent directory looked up (the second candidate) and its record. */
  parent: string;
  parentPrefix: _Prefix | undefined;
}

/**
 * The two deepest directory prefixes of a path (deeper ones share more, shallower ones rarely
 * pay), longest first. The array is shared between values of one directory; do not change it.
 */
function _dirCandidates(
  v: string,
  ctx: _Ctx,
  last = v.lastIndexOf("/", v.length - 2),
): _Prefix[] {
  if (last < 2) return _NONE;
  // (`substring` + `===` is several times faster than `startsWith`, or than hashing a slice.)
  if (last + 1 !== ctx.dir.length || v.substring(0, last + 1) !== ctx.dir) {
    ctx.dir = v.slice(0, last + 1);
    ctx.dirCands = [_prefix(ctx.dir, ctx.prefixes)];
    const prev = v.lastIndexOf("/", last - 1);
    if (prev >= 2) {
      // Sibling directories (`locale/ar/`, `locale/de/`) share their parent: its record is
      // reused without slicing and hashing it again (it is in `prefixes` already, so the
      // order of first sight is unchanged).
      if (prev + 1 !== ctx.parent.length || !v.startsWith(ctx.parent)) {
        ctx.parent = v.slice(0, prev + 1);
        ctx.parentPrefix = _prefix(ctx.parent, ctx.prefixes);
      }
      ctx.dirCands.push(ctx.parentPrefix!);
    }
  }
  return ctx.dirCands;
}

/** The candidates of a symbol id's path part, cached per path. */
function _idPathCandidates(path: string, ctx: _Ctx): _Prefix[] {
  let out = ctx.paths.get(path);
  if (out === undefined) {
    ctx.paths.set(path, out = [_prefix(path, ctx.prefixes), ..._dirCandidates(path, ctx)]);
  }
  return out;
}
