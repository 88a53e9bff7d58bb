/**
 * Which symbol of a file's old version is which of its new version, across a line diff. A symbol
 * keeps its qualified name and kind; among symbols that share both (a JSON file's repeated keys,
 * overloads, a test file's `env` helpers: ids `~1`, `~2`, … by order), a symbol whose first line
 * the diff leaves unchanged is the one at that line's new position, and the rest pair in order —
 * so an insertion before a run of duplicates does not pair each with its neighbour's old self.
 */
import type { Hunk } from "../parser/git/line_diff.ts";
import type { SymbolRecord } from "../parser/types.ts";

/** The pairs and the symbols left on each side. */
export interface SymbolPairs {
  /** [old, new] pairs, in the new version's order. */
  pairs: [SymbolRecord, SymbolRecord][];
  /** Old symbols without a partner (removed or renamed), in source order. */
  removed: SymbolRecord[];
  /** New symbols without a partner (added or renamed), in source order. */
  added: SymbolRecord[];
}

/**
 * Where an old line (1-based) is in the new version, or null when the diff changed it.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { newLineOf } from "./symbol_pairs.ts";
 * // Three lines inserted after old line 5, old line 9 deleted.
 * const hunks = [
 *   { oldStart: 5, oldCount: 0, newStart: 6, newCount: 3 },
 *   { oldStart: 9, oldCount: 1, newStart: 11, newCount: 0 },
 * ];
 * equal(newLineOf(hunks, 5), 5);
 * equal(newLineOf(hunks, 6), 9);
 * equal(newLineOf(hunks, 9), null);
 * equal(newLineOf(hunks, 10), 12);
 * ```
 */
export function newLineOf(hunks: readonly Hunk[], line: number): number | null {
  let delta = 0;
  for (const h of hunks) {
    // The first old line at or after the hunk (a pure insertion goes after `oldStart`).
    const first = h.oldCount === 0 ? h.oldStart + 1 : h.oldStart;
    if (line < first) break;
    if (line < h.oldStart + h.oldCount) return null;
    delta += h.newCount - h.oldCount;
  }
  return line + delta;
}

/** Pair the symbols of two versions of a file (see the module doc). */
export function pairSymbols(
  before: readonly SymbolRecord[],
  after: readonly SymbolRecord[],
  hunks: readonly Hunk[],
): SymbolPairs {
  const key = (s: SymbolRecord) => `${s.qualified_name}#${s.kind}`;
  const olds = new Map<string, SymbolRecord[]>();
  for (const s of before) olds.set(key(s), [...olds.get(key(s)) ?? [], s]);
  const news = new Map<string, SymbolRecord[]>();
  for (const s of after) news.set(key(s), [...news.get(key(s)) ?? [], s]);
  const partner = new Map<SymbolRecord, SymbolRecord>();
  for (const [k, group] of news) {
    const candidates = olds.get(k) ?? [];
    if (candidates.length === 0) continue;
    if (candidates.length === 1 && group.length === 1) {
      partner.set(group[0]!, candidates[0]!);
      continue;
    }
    const free = new Set(candidates);
    const byNewLine = new Map<number, SymbolRecord>();
    for (const o of candidates) {
      const at = newLineOf(hunks, o.line);
      if (at !== null && !byNewLine.has(at)) byNewLine.set(at, o);
    }
    for (const s of group) {
      const o = byNewLine.get(s.line);
      if (o !== undefined && free.has(o)) {
        partner.set(s, o);
        free.delete(o);
      }
    }
    const rest = candidates.filter((o) => free.has(o));
    for (const s of group) {
      if (partner.has(s)) continue;
      const o = rest.shift();
      if (o === undefined) break;
      partner.set(s, o);
    }
  }
  const paired = new Set(partner.values());
  return {
    pairs: after.filter((s) => partner.has(s)).map((s) => [partner.get(s)!, s]),
    removed: before.filter((s) => !paired.has(s)),
    added: after.filter((s) => !partner.has(s)),
  };
}
