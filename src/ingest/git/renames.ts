/**
 * Rename detection among the added and deleted files of a diff, as git's default does it: exact
 * renames (same blob) first, then pairs whose content is at least 50% alike, best pairs first.
 * Similarity is measured on lines (bytes of the old file's lines found in the new one, over the
 * larger size) rather than git's hashed 64-byte chunks: the same threshold, a close measure.
 */
import type { FileChange } from "../../parser/git/history.ts";

/** Most added × deleted pairs scored for inexact renames (git's `diff.renameLimit` 1000, squared). */
const _MAX_PAIRS = 1000 * 1000;
/** Git's default minimum similarity. */
const _MIN_SCORE = 0.5;

/** The changes with renamed files paired up (a `renamed` change replaces its add and delete). */
export function detectRenames(
  changes: FileChange[],
  blob: (id: string) => Uint8Array | null,
  size: (id: string) => number,
): FileChange[] {
  const added = changes.filter((c) => c.status === "added" && !c.newMode.startsWith("160"));
  const deleted = changes.filter((c) => c.status === "deleted" && !c.oldMode.startsWith("160"));
  if (added.length === 0 || deleted.length === 0) return changes;
  const pairs = new Map<FileChange, { from: FileChange; score: number }>();
  const used = new Set<FileChange>();
  // Exact: the same blob under another name (the first deleted one of the same name wins).
  const byId = new Map<string, FileChange[]>();
  for (const d of deleted) byId.set(d.oldId, [...byId.get(d.oldId) ?? [], d]);
  for (const a of added) {
    const candidates = (byId.get(a.newId) ?? []).filter((d) => !used.has(d));
    if (candidates.length === 0) continue;
    const base = a.path.slice(a.path.lastIndexOf("/") + 1);
    const from = candidates.find((d) => d.path.endsWith(`/${base}`) || d.path === base) ??
      candidates[0]!;
    used.add(from);
    pairs.set(a, { from, score: 1 });
  }
  const restA = added.filter((a) => !pairs.has(a));
  const restD = deleted.filter((d) => !used.has(d));
  if (restA.length > 0 && restD.length > 0 && restA.length * restD.length <= _MAX_PAIRS) {
    const lines = new Map<string, { size: number; counts: Map<number, number> } | null>();
    const profile = (id: string) => {
      let p = lines.get(id);
      if (p === undefined) {
        const bytes = blob(id);
        p = bytes === null ? null : { size: bytes.length, counts: _lineCounts(bytes) };
        lines.set(id, p);
      }
      return p;
    };
    const scored: { a: FileChange; d: FileChange; score: number }[] = [];
    const sizes = new Map<string, number>();
    const sizeOf = (id: string) => {
      let n = sizes.get(id);
      if (n === undefined) sizes.set(id, n = size(id));
      return n;
    };
    for (const a of restA) {
      for (const d of restD) {
        // Sizes too far apart cannot reach the threshold: no need to read either file.
        const sa = sizeOf(a.newId), sd = sizeOf(d.oldId);
        if (Math.min(sa, sd) < Math.max(sa, sd) * _MIN_SCORE) continue;
        const pa = profile(a.newId);
        const pd = profile(d.oldId);
        if (pa === null || pd === null) continue;
        const max = Math.max(pa.size, pd.size);
        // Sizes too far apart cannot reach the threshold (git's quick reject).
        if (max === 0 || Math.min(pa.size, pd.size) < max * _MIN_SCORE) continue;
        const score = _common(pd.counts, pa.counts) / max;
        if (score >= _MIN_SCORE) scored.push({ a, d, score });
      }
    }
    scored.sort((x, y) => y.score - x.score);
    for (const s of scored) {
      if (pairs.has(s.a) || used.has(s.d)) continue;
      used.add(s.d);
      pairs.set(s.a, { from: s.d, score: s.score });
    }
  }
  if (pairs.size === 0) return changes;
  const out: FileChange[] = [];
  for (const c of changes) {
    if (used.has(c)) continue;
    const p = pairs.get(c);
    if (p === undefined) {
      out.push(c);
      continue;
    }
    out.push({
      status: "renamed",
      path: c.path,
      oldPath: p.from.path,
      oldId: p.from.oldId,
      newId: c.newId,
      oldMode: p.from.oldMode,
      newMode: c.newMode,
      similarity: Math.round(p.score * 100),
    });
  }
  return out;
}

/** Bytes per line, by a 32-bit hash of the line (FNV-1a over its bytes). */
function _lineCounts(bytes: Uint8Array): Map<number, number> {
  const counts = new Map<number, number>();
  let h = 0x811c9dc5;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    const b = i < bytes.length ? bytes[i]! : 10;
    if (b === 10) {
      counts.set(h, (counts.get(h) ?? 0) + i - start + 1);
      h = 0x811c9dc5;
      start = i + 1;
    } else {
      h = Math.imul(h ^ b, 0x01000193);
    }
  }
  return counts;
}

/** Bytes of the old file's lines that the new file has too. */
function _common(old: Map<number, number>, now: Map<number, number>): number {
  let n = 0;
  for (const [line, bytes] of old) {
    const there = now.get(line);
    if (there !== undefined) n += Math.min(bytes, there);
  }
  return n;
}
