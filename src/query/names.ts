/** Name matching shared by the tools: edit distance and the closest indexed paths. */

/** Up to `n` of `paths` closest to `wanted`: same base name, then substring, then edit distance. */
export function closestPaths(paths: readonly string[], wanted: string, n: number): string[] {
  const base = wanted.slice(wanted.lastIndexOf("/") + 1).toLowerCase();
  const sameBase = paths.filter((p) => p.slice(p.lastIndexOf("/") + 1).toLowerCase() === base);
  if (sameBase.length > 0) return sameBase.slice(0, n);
  const lower = wanted.toLowerCase();
  const containing = base === "" ? [] : paths.filter((p) => p.toLowerCase().includes(base));
  if (containing.length > 0) return containing.slice(0, n);
  return paths
    .map((p) => ({ p, d: levenshtein(p.toLowerCase(), lower, 8) }))
    .filter((x) => x.d <= 8)
    .sort((a, b) => a.d - b.d || (a.p < b.p ? -1 : 1))
    .slice(0, n)
    .map((x) => x.p);
}

/**
 * Levenshtein distance, giving up (returning `max + 1`) once it must exceed `max`.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { levenshtein } from "./names.ts";
 * equal(levenshtein("kitten", "sitting"), 3);
 * equal(levenshtein("abc", "xyzxyz", 2), 3);
 * ```
 */
export function levenshtein(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(
        prev[j]! + 1,
        cur[j - 1]! + 1,
        prev[j - 1]! + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1),
      );
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}
