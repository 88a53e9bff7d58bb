/**
 * Line diff as git computes it by default: xdiff's Myers divide and conquer (with its cost
 * heuristics for large diffs, its discarding of lines that have no match), then its slider
 * compaction with the indent heuristic (`diff.indentHeuristic`, on by default since git 2.14), so
 * that the lines a change touches are the lines `git diff` shows. Ported from git's
 * `xdiff/xdiffi.c` and `xdiff/xprepare.c` (LGPL-2.1+, algorithm only). Pure: text in, hunks out.
 */

/** One hunk, as a unified diff header counts it (`@@ -oldStart,oldCount +newStart,newCount @@`). */
export interface Hunk {
  /** First old line (1-based); for a pure insertion, the line after which it goes (0 = top). */
  oldStart: number;
  oldCount: number;
  /** First new line (1-based); for a pure deletion, the line after which it was. */
  newStart: number;
  newCount: number;
}

/** Lines of a text, each with its terminator (`\n`), as git's records. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let from = 0;
  for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", from)) {
    lines.push(text.slice(from, nl + 1));
    from = nl + 1;
  }
  if (from < text.length) lines.push(text.slice(from));
  return lines;
}

const _MAX_COST_MIN = 256;
const _HEUR_MIN_COST = 256;
const _SNAKE_CNT = 20;
const _K_HEUR = 4;
const _LINE_MAX = 0x7fffffff;
const _SIMSCAN_WINDOW = 100;
const _KPDIS_RUN = 4;
const _MAX_EQLIMIT = 1024;

function _bogosqrt(n: number): number {
  let i = 1;
  for (; n > 0; n = Math.floor(n / 4)) i <<= 1;
  return i;
}

/** Changed-line flags of both files (`rchg[i + 1]` for line i, sentinels at both ends). */
interface _Changes {
  a: Uint8Array;
  b: Uint8Array;
}

/**
 * The hunks between two texts' lines (`-U0`: no context), in order.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { diffLines, splitLines } from "./line_diff.ts";
 * deepEqual(diffLines(splitLines("a\nb\nc\n"), splitLines("a\nB\nc\n")), [
 *   { oldStart: 2, oldCount: 1, newStart: 2, newCount: 1 },
 * ]);
 * ```
 */
export function diffLines(a: readonly string[], b: readonly string[]): Hunk[] {
  const ids = new Map<string, number>();
  const ha = Int32Array.from(a, (l) => _intern(ids, l));
  const hb = Int32Array.from(b, (l) => _intern(ids, l));
  const changes = { a: new Uint8Array(a.length + 2), b: new Uint8Array(b.length + 2) };
  _diff(ha, hb, changes, ids.size);
  _compact(changes.a, ha, changes.b, a);
  _compact(changes.b, hb, changes.a, b);
  return _hunks(changes, a.length, b.length);
}

function _intern(ids: Map<string, number>, line: string): number {
  let id = ids.get(line);
  if (id === undefined) ids.set(line, id = ids.size);
  return id;
}

/** xdl_do_diff: trim the common ends, discard lines without a match, Myers on the rest. */
function _diff(ha: Int32Array, hb: Int32Array, ch: _Changes, classes: number): void {
  const n1 = ha.length;
  const n2 = hb.length;
  let start = 0;
  const lim = Math.min(n1, n2);
  while (start < lim && ha[start] === hb[start]) start++;
  let tail = 0;
  while (tail < lim - start && ha[n1 - 1 - tail] === hb[n2 - 1 - tail]) tail++;
  const end1 = n1 - tail - 1;
  const end2 = n2 - tail - 1;
  const count1 = new Int32Array(classes);
  const count2 = new Int32Array(classes);
  for (const h of ha) count1[h]!++;
  for (const h of hb) count2[h]!++;
  const r1 = _cleanup(ha, start, end1, count2, Math.min(_bogosqrt(n1), _MAX_EQLIMIT), ch.a);
  const r2 = _cleanup(hb, start, end2, count1, Math.min(_bogosqrt(n2), _MAX_EQLIMIT), ch.b);
  const ndiags = r1.ha.length + r2.ha.length + 3;
  const env = { mxcost: Math.max(_bogosqrt(ndiags), _MAX_COST_MIN) };
  const kvdf = new Int32Array(2 * ndiags + 2);
  const kvdb = new Int32Array(2 * ndiags + 2);
  const ctx: _Ctx = {
    ha1: r1.ha,
    ha2: r2.ha,
    rindex1: r1.rindex,
    rindex2: r2.rindex,
    rchg1: ch.a,
    rchg2: ch.b,
    kvdf,
    kvdb,
    koff: r2.ha.length + 1,
    mxcost: env.mxcost,
  };
  _recsCmp(ctx, 0, r1.ha.length, 0, r2.ha.length, false);
}

/** xdl_cleanup_records: the lines that take part in the Myers search; the rest are changed. */
function _cleanup(
  h: Int32Array,
  start: number,
  end: number,
  otherCount: Int32Array,
  mlim: number,
  rchg: Uint8Array,
): { ha: Int32Array; rindex: Int32Array } {
  const len = Math.max(0, end - start + 1);
  const dis = new Uint8Array(len);
  for (let i = 0; i < len; i++) {
    const nm = otherCount[h[start + i]!]!;
    dis[i] = nm === 0 ? 0 : nm >= mlim ? 2 : 1;
  }
  const ha: number[] = [];
  const rindex: number[] = [];
  for (let i = 0; i < len; i++) {
    if (dis[i] === 1 || (dis[i] === 2 && !_cleanMmatch(dis, i, 0, len - 1))) {
      rindex.push(start + i);
      ha.push(h[start + i]!);
    } else {
      rchg[start + i + 1] = 1;
    }
  }
  return { ha: Int32Array.from(ha), rindex: Int32Array.from(rindex) };
}

function _cleanMmatch(dis: Uint8Array, i: number, s: number, e: number): boolean {
  if (i - s > _SIMSCAN_WINDOW) s = i - _SIMSCAN_WINDOW;
  if (e - i > _SIMSCAN_WINDOW) e = i + _SIMSCAN_WINDOW;
  let rdis0 = 0;
  let rpdis0 = 1;
  for (let r = 1; i - r >= s; r++) {
    if (dis[i - r] === 0) rdis0++;
    else if (dis[i - r] === 2) rpdis0++;
    else break;
  }
  if (rdis0 === 0) return false;
  let rdis1 = 0;
  let rpdis1 = 1;
  for (let r = 1; i + r <= e; r++) {
    if (dis[i + r] === 0) rdis1++;
    else if (dis[i + r] === 2) rpdis1++;
    else break;
  }
  if (rdis1 === 0) return false;
  rdis1 += rdis0;
  rpdis1 += rpdis0;
  return rpdis1 * _KPDIS_RUN < rpdis1 + rdis1;
}

interface _Ctx {
  ha1: Int32Array;
  ha2: Int32Array;
  rindex1: Int32Array;
  rindex2: Int32Array;
  rchg1: Uint8Array;
  rchg2: Uint8Array;
  kvdf: Int32Array;
  kvdb: Int32Array;
  /** Offset of diagonal 0 in kvdf/kvdb. */
  koff: number;
  mxcost: number;
}

interface _Split {
  i1: number;
  i2: number;
  minLo: boolean;
  minHi: boolean;
}

/** xdl_recs_cmp, with an explicit stack instead of recursion. */
function _recsCmp(
  c: _Ctx,
  off1: number,
  lim1: number,
  off2: number,
  lim2: number,
  needMin: boolean,
): void {
  const stack: [number, number, number, number, boolean][] = [[off1, lim1, off2, lim2, needMin]];
  const { ha1, ha2 } = c;
  while (stack.length > 0) {
    let [o1, l1, o2, l2, min] = stack.pop()!;
    while (o1 < l1 && o2 < l2 && ha1[o1] === ha2[o2]) o1++, o2++;
    while (o1 < l1 && o2 < l2 && ha1[l1 - 1] === ha2[l2 - 1]) l1--, l2--;
    if (o1 === l1) {
      for (; o2 < l2; o2++) c.rchg2[c.rindex2[o2]! + 1] = 1;
    } else if (o2 === l2) {
      for (; o1 < l1; o1++) c.rchg1[c.rindex1[o1]! + 1] = 1;
    } else {
      const spl = _split(c, o1, l1, o2, l2, min);
      // Lower half first (pushed last).
      stack.push([spl.i1, l1, spl.i2, l2, spl.minHi]);
      stack.push([o1, spl.i1, o2, spl.i2, spl.minLo]);
    }
  }
}

/** xdl_split: the middle snake of a box, or a good-enough split when the cost grows. */
function _split(
  c: _Ctx,
  off1: number,
  lim1: number,
  off2: number,
  lim2: number,
  needMin: boolean,
): _Split {
  const { ha1, ha2, kvdf, kvdb, koff } = c;
  const dmin = off1 - lim2, dmax = lim1 - off2;
  const fmid = off1 - off2, bmid = lim1 - lim2;
  const odd = ((fmid - bmid) & 1) !== 0;
  let fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
  kvdf[koff + fmid] = off1;
  kvdb[koff + bmid] = lim1;
  for (let ec = 1;; ec++) {
    let gotSnake = false;
    if (fmin > dmin) kvdf[koff + --fmin - 1] = -1;
    else ++fmin;
    if (fmax < dmax) kvdf[koff + ++fmax + 1] = -1;
    else --fmax;
    for (let d = fmax; d >= fmin; d -= 2) {
      let i1 = kvdf[koff + d - 1]! >= kvdf[koff + d + 1]!
        ? kvdf[koff + d - 1]! + 1
        : kvdf[koff + d + 1]!;
      const prev1 = i1;
      let i2 = i1 - d;
      while (i1 < lim1 && i2 < lim2 && ha1[i1] === ha2[i2]) i1++, i2++;
      if (i1 - prev1 > _SNAKE_CNT) gotSnake = true;
      kvdf[koff + d] = i1;
      if (odd && bmin <= d && d <= bmax && kvdb[koff + d]! <= i1) {
        return { i1, i2, minLo: true, minHi: true };
      }
    }
    if (bmin > dmin) kvdb[koff + --bmin - 1] = _LINE_MAX;
    else ++bmin;
    if (bmax < dmax) kvdb[koff + ++bmax + 1] = _LINE_MAX;
    else --bmax;
    for (let d = bmax; d >= bmin; d -= 2) {
      let i1 = kvdb[koff + d - 1]! < kvdb[koff + d + 1]!
        ? kvdb[koff + d - 1]!
        : kvdb[koff + d + 1]! - 1;
      const prev1 = i1;
      let i2 = i1 - d;
      while (i1 > off1 && i2 > off2 && ha1[i1 - 1] === ha2[i2 - 1]) i1--, i2--;
      if (prev1 - i1 > _SNAKE_CNT) gotSnake = true;
      kvdb[koff + d] = i1;
      if (!odd && fmin <= d && d <= fmax && i1 <= kvdf[koff + d]!) {
        return { i1, i2, minLo: true, minHi: true };
      }
    }
    if (needMin) continue;
    if (gotSnake && ec > _HEUR_MIN_COST) {
      const h = _heuristic(c, { off1, lim1, off2, lim2, fmin, fmax, fmid, bmin, bmax, bmid }, ec);
      if (h !== null) return h;
    }
    if (ec >= c.mxcost) return _furthest(c, off1, lim1, off2, lim2, fmin, fmax, bmin, bmax);
  }
}

interface _Box {
  off1: number;
  lim1: number;
  off2: number;
  lim2: number;
  fmin: number;
  fmax: number;
  fmid: number;
  bmin: number;
  bmax: number;
  bmid: number;
}

/** The "interesting path" sampling of xdl_split (XDL_K_HEUR). */
function _heuristic(c: _Ctx, x: _Box, ec: number): _Split | null {
  const { ha1, ha2, kvdf, kvdb, koff } = c;
  let best = 0;
  let spl: _Split | null = null;
  for (let d = x.fmax; d >= x.fmin; d -= 2) {
    const dd = d > x.fmid ? d - x.fmid : x.fmid - d;
    const i1 = kvdf[koff + d]!;
    const i2 = i1 - d;
    const v = i1 - x.off1 + (i2 - x.off2) - dd;
    if (
      v > _K_HEUR * ec && v > best && x.off1 + _SNAKE_CNT <= i1 && i1 < x.lim1 &&
      x.off2 + _SNAKE_CNT <= i2 && i2 < x.lim2
    ) {
      for (let k = 1; ha1[i1 - k] === ha2[i2 - k]; k++) {
        if (k === _SNAKE_CNT) {
          best = v;
          spl = { i1, i2, minLo: true, minHi: false };
          break;
        }
      }
    }
  }
  if (best > 0) return spl;
  for (let d = x.bmax; d >= x.bmin; d -= 2) {
    const dd = d > x.bmid ? d - x.bmid : x.bmid - d;
    const i1 = kvdb[koff + d]!;
    const i2 = i1 - d;
    const v = x.lim1 - i1 + (x.lim2 - i2) - dd;
    if (
      v > _K_HEUR * ec && v > best && x.off1 < i1 && i1 <= x.lim1 - _SNAKE_CNT &&
      x.off2 < i2 && i2 <= x.lim2 - _SNAKE_CNT
    ) {
      for (let k = 0; ha1[i1 + k] === ha2[i2 + k]; k++) {
        if (k === _SNAKE_CNT - 1) {
          best = v;
          spl = { i1, i2, minLo: false, minHi: true };
          break;
        }
      }
    }
  }
  return best > 0 ? spl : null;
}

/** "Enough is enough": the furthest reaching path of either search. */
function _furthest(
  c: _Ctx,
  off1: number,
  lim1: number,
  off2: number,
  lim2: number,
  fmin: number,
  fmax: number,
  bmin: number,
  bmax: number,
): _Split {
  const { kvdf, kvdb, koff } = c;
  let fbest = -1, fbest1 = -1;
  for (let d = fmax; d >= fmin; d -= 2) {
    let i1 = Math.min(kvdf[koff + d]!, lim1);
    let i2 = i1 - d;
    if (lim2 < i2) i1 = lim2 + d, i2 = lim2;
    if (fbest < i1 + i2) fbest = i1 + i2, fbest1 = i1;
  }
  let bbest = _LINE_MAX, bbest1 = _LINE_MAX;
  for (let d = bmax; d >= bmin; d -= 2) {
    let i1 = Math.max(off1, kvdb[koff + d]!);
    let i2 = i1 - d;
    if (i2 < off2) i1 = off2 + d, i2 = off2;
    if (i1 + i2 < bbest) bbest = i1 + i2, bbest1 = i1;
  }
  if (lim1 + lim2 - bbest < fbest - (off1 + off2)) {
    return { i1: fbest1, i2: fbest - fbest1, minLo: true, minHi: false };
  }
  return { i1: bbest1, i2: bbest - bbest1, minLo: false, minHi: true };
}

// ---------------------------------------------------------------------------------------------
// xdl_change_compact with the indent heuristic

const _MAX_INDENT = 200;
const _MAX_BLANKS = 20;
const _INDENT_MAX_SLIDING = 100;

/** A group of changed lines `[start, end)` of one file; rchg is indexed line + 1. */
interface _Group {
  start: number;
  end: number;
}

function _indent(line: string | undefined): number {
  if (line === undefined) return -1;
  let ret = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === " ") ret += 1;
    else if (c === "\t") ret += 8 - ret % 8;
    else if (c !== "\n" && c !== "\r" && c !== "\f" && c !== "\v") return ret;
    if (ret >= _MAX_INDENT) return _MAX_INDENT;
  }
  return -1;
}

interface _Measure {
  eof: boolean;
  indent: number;
  preBlank: number;
  preIndent: number;
  postBlank: number;
  postIndent: number;
}

function _measure(lines: readonly string[], split: number): _Measure {
  const n = lines.length;
  const m: _Measure = {
    eof: split >= n,
    indent: split >= n ? -1 : _indent(lines[split]),
    preBlank: 0,
    preIndent: -1,
    postBlank: 0,
    postIndent: -1,
  };
  for (let i = split - 1; i >= 0; i--) {
    m.preIndent = _indent(lines[i]);
    if (m.preIndent !== -1) break;
    m.preBlank += 1;
    if (m.preBlank === _MAX_BLANKS) {
      m.preIndent = 0;
      break;
    }
  }
  for (let i = split + 1; i < n; i++) {
    m.postIndent = _indent(lines[i]);
    if (m.postIndent !== -1) break;
    m.postBlank += 1;
    if (m.postBlank === _MAX_BLANKS) {
      m.postIndent = 0;
      break;
    }
  }
  return m;
}

function _score(m: _Measure, s: { indent: number; penalty: number }): void {
  if (m.preIndent === -1 && m.preBlank === 0) s.penalty += 1;
  if (m.eof) s.penalty += 21;
  const postBlank = m.indent === -1 ? 1 + m.postBlank : 0;
  const totalBlank = m.preBlank + postBlank;
  s.penalty += -30 * totalBlank + 6 * postBlank;
  const indent = m.indent !== -1 ? m.indent : m.postIndent;
  const anyBlanks = totalBlank !== 0;
  s.indent += indent;
  if (indent === -1 || m.preIndent === -1) return;
  if (indent > m.preIndent) s.penalty += anyBlanks ? 10 : -4;
  else if (indent === m.preIndent) return;
  else if (m.postIndent !== -1 && m.postIndent > indent) s.penalty += anyBlanks ? 17 : 24;
  else s.penalty += anyBlanks ? 17 : 23;
}

function _groupNext(rchg: Uint8Array, n: number, g: _Group): boolean {
  if (g.end === n) return false;
  g.start = g.end + 1;
  for (g.end = g.start; rchg[g.end + 1]; g.end++);
  return true;
}

function _groupPrevious(rchg: Uint8Array, g: _Group): boolean {
  if (g.start === 0) return false;
  g.end = g.start - 1;
  for (g.start = g.end; rchg[g.start]; g.start--);
  return true;
}

function _slideDown(rchg: Uint8Array, h: Int32Array, g: _Group): boolean {
  if (g.end < h.length && h[g.start] === h[g.end]) {
    rchg[g.start++ + 1] = 0;
    rchg[g.end++ + 1] = 1;
    while (rchg[g.end + 1]) g.end++;
    return true;
  }
  return false;
}

function _slideUp(rchg: Uint8Array, h: Int32Array, g: _Group): boolean {
  if (g.start > 0 && h[g.start - 1] === h[g.end - 1]) {
    rchg[--g.start + 1] = 1;
    rchg[--g.end + 1] = 0;
    while (rchg[g.start]) g.start--;
    return true;
  }
  return false;
}

function _groupInit(rchg: Uint8Array): _Group {
  const g = { start: 0, end: 0 };
  while (rchg[g.end + 1]) g.end++;
  return g;
}

/** Slide each group of changes of one file to where git puts it (xdl_change_compact). */
function _compact(rchg: Uint8Array, h: Int32Array, ochg: Uint8Array, lines: readonly string[]) {
  const n = h.length;
  const on = ochg.length - 2;
  const g = _groupInit(rchg);
  const go = _groupInit(ochg);
  for (;;) {
    if (g.end !== g.start) {
      let groupsize: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      do {
        groupsize = g.end - g.start;
        endMatchingOther = -1;
        while (_slideUp(rchg, h, g)) _groupPrevious(ochg, go);
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        while (_slideDown(rchg, h, g)) {
          _groupNext(ochg, on, go);
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (groupsize !== g.end - g.start);
      if (g.end === earliestEnd) {
        // no shifting was possible
      } else if (endMatchingOther !== -1) {
        while (go.end === go.start) {
          _slideUp(rchg, h, g);
          _groupPrevious(ochg, go);
        }
      } else {
        let shift = Math.max(earliestEnd, g.end - groupsize - 1, g.end - _INDENT_MAX_SLIDING);
        let bestShift = -1;
        let best = { indent: 0, penalty: 0 };
        for (; shift <= g.end; shift++) {
          const score = { indent: 0, penalty: 0 };
          _score(_measure(lines, shift), score);
          _score(_measure(lines, shift - groupsize), score);
          const cmp = 60 * Math.sign(score.indent - best.indent) + (score.penalty - best.penalty);
          if (bestShift === -1 || cmp <= 0) {
            best = score;
            bestShift = shift;
          }
        }
        while (g.end > bestShift) {
          _slideUp(rchg, h, g);
          _groupPrevious(ochg, go);
        }
      }
    }
    if (!_groupNext(rchg, n, g)) break;
    _groupNext(ochg, on, go);
  }
}

function _hunks(ch: _Changes, n1: number, n2: number): Hunk[] {
  const hunks: Hunk[] = [];
  let i1 = 0, i2 = 0;
  while (i1 < n1 || i2 < n2) {
    if (i1 < n1 && i2 < n2 && !ch.a[i1 + 1] && !ch.b[i2 + 1]) {
      i1++, i2++;
      continue;
    }
    const s1 = i1, s2 = i2;
    while (i1 < n1 && ch.a[i1 + 1]) i1++;
    while (i2 < n2 && ch.b[i2 + 1]) i2++;
    if (i1 === s1 && i2 === s2) break; // unbalanced flags cannot happen; stop rather than loop
    hunks.push({
      oldStart: i1 === s1 ? s1 : s1 + 1,
      oldCount: i1 - s1,
      newStart: i2 === s2 ? s2 : s2 + 1,
      newCount: i2 - s2,
    });
  }
  return hunks;
}
