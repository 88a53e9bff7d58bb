/**
 * A symbol's source at two revisions as a unified diff (`git diff`'s format and hunks, with
 * context lines), found on each side by its qualified name and kind in that version's parse.
 */
import { parseSource } from "../parser/parse.ts";
import { diffLines, type Hunk, splitLines } from "../parser/git/line_diff.ts";
import type { SymbolRecord } from "../parser/types.ts";

const _decoder = new TextDecoder();

/** What finds a symbol in a file version: its id, else its qualified name and kind. */
export interface SymbolLike {
  id: string;
  qualified_name: string;
  kind: string;
}

/**
 * The parts of a symbol id (`path::Qualified.name#kind`, `~N` for the N+1-th of that name), or
 * null when `ref` is no id: a symbol that is not in the index (removed since, or added in a
 * revision the index does not hold) is found in a file version by them.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { parseSymbolId } from "./symbol_diff.ts";
 * deepEqual(parseSymbolId("src/a.ts::Box.open#method~1"), {
 *   file: "src/a.ts",
 *   like: { id: "src/a.ts::Box.open#method~1", qualified_name: "Box.open", kind: "method" },
 * });
 * ```
 */
export function parseSymbolId(ref: string): { file: string; like: SymbolLike } | null {
  const m = /^(.+?)::(.+)#([a-z_]+)(~\d+)?$/.exec(ref);
  if (m === null) return null;
  return { file: m[1]!, like: { id: ref, qualified_name: m[2]!, kind: m[3]! } };
}

/** The source of the symbol matching `like` (its id, else qualified name and kind) in a file version. */
export async function symbolIn(
  path: string,
  bytes: Uint8Array | null,
  like: SymbolLike,
): Promise<{ symbol: SymbolRecord; source: string } | null> {
  if (bytes === null) return null;
  const symbols = (await parseSource(path, bytes)).symbols;
  const s = symbols.find((x) => x.id === like.id) ??
    symbols.find((x) => x.qualified_name === like.qualified_name && x.kind === like.kind);
  if (s === undefined) return null;
  return {
    symbol: s,
    source: _decoder.decode(bytes.subarray(s.byte_offset, s.byte_offset + s.byte_length)),
  };
}

/** A unified diff of two texts (`context` lines around each change), with its +/- counts. */
export function unifiedDiff(
  oldText: string,
  newText: string,
  labels: [string, string],
  firstLines: [number, number],
  context = 3,
): { text: string; added: number; removed: number } {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const hunks = diffLines(a, b);
  let added = 0;
  let removed = 0;
  const out = [`--- ${labels[0]}`, `+++ ${labels[1]}`];
  for (const group of _groups(hunks, context)) {
    const first = group[0]!;
    const last = group[group.length - 1]!;
    const os = Math.max(0, _zero(first.oldStart, first.oldCount) - context);
    const oe = Math.min(a.length, _zero(last.oldStart, last.oldCount) + last.oldCount + context);
    const ns = Math.max(0, _zero(first.newStart, first.newCount) - context);
    const ne = Math.min(b.length, _zero(last.newStart, last.newCount) + last.newCount + context);
    // An absent side (a symbol added or removed) is an empty file's: -0,0 as git writes it.
    const oldFirst = a.length === 0 ? 1 : os + firstLines[0];
    const newFirst = b.length === 0 ? 1 : ns + firstLines[1];
    out.push(`@@ -${_range(oldFirst, oe - os)} +${_range(newFirst, ne - ns)} @@`);
    let i = os;
    for (const h of group) {
      const ho = _zero(h.oldStart, h.oldCount);
      const hn = _zero(h.newStart, h.newCount);
      for (; i < ho; i++) out.push(` ${_strip(a[i]!)}`);
      for (let k = 0; k < h.oldCount; k++) out.push(`-${_strip(a[ho + k]!)}`);
      for (let k = 0; k < h.newCount; k++) out.push(`+${_strip(b[hn + k]!)}`);
      removed += h.oldCount;
      added += h.newCount;
      i = ho + h.oldCount;
    }
    for (; i < oe; i++) out.push(` ${_strip(a[i]!)}`);
  }
  return { text: out.length === 2 ? "" : out.join("\n") + "\n", added, removed };
}

/**
 * A hunk range as diff -u and git write it: `start` alone for one line, `start,count` for more,
 * and for none the line before the gap, `start - 1,0` (the 1-based `start` is where it would be).
 */
function _range(start: number, count: number): string {
  return count === 1 ? `${start}` : count === 0 ? `${start - 1},0` : `${start},${count}`;
}

function _zero(start: number, count: number): number {
  return count === 0 ? start : start - 1;
}

function _strip(line: string): string {
  return line.replace(/\r?\n$/, "");
}

/** Hunks whose context would overlap are shown together. */
function _groups(hunks: Hunk[], context: number): Hunk[][] {
  const groups: Hunk[][] = [];
  for (const h of hunks) {
    const last = groups[groups.length - 1]?.at(-1);
    if (
      last !== undefined &&
      _zero(h.oldStart, h.oldCount) - (_zero(last.oldStart, last.oldCount) + last.oldCount) <=
        2 * context
    ) {
      groups[groups.length - 1]!.push(h);
    } else groups.push([h]);
  }
  return groups;
}
