/**
 * The commits that changed a range of lines, as `git log -L<start>,<end>:<path>` finds them:
 * walk back from a commit in date order; at each commit, diff the file against each parent
 * (following a rename when the path is new there), report the commit when a hunk touches the
 * tracked lines, and carry the lines over to the parent's numbering. A merge whose range comes
 * unchanged from one parent follows that parent alone and is not reported. The commits are listed
 * in git's order for `-L`, which implies `--topo-order` (graph order): a merged branch's commits
 * together after its merge, not interleaved by date.
 */
import { entryKind } from "../../parser/git/objects.ts";
import { diffLines, type Hunk, splitLines } from "../../parser/git/line_diff.ts";
import type { LineLogEntry, LineLogResult } from "../../parser/git/history.ts";
import { CommitQueue } from "./commit_queue.ts";
import type { GitRepository } from "./repository.ts";

/** Half-open 0-based line ranges, sorted, disjoint. */
type _Ranges = [number, number][];

const _decoder = new TextDecoder();

/** `git log -L start,end:path` from `from` (lines 1-based inclusive), at most `max` commits. */
export function lineLog(
  repo: GitRepository,
  from: string,
  path: string,
  start: number,
  end: number,
  max: number,
): LineLogResult {
  const pending = new Map<string, { path: string; ranges: _Ranges }>();
  pending.set(from, { path, ranges: [[start - 1, end]] });
  const queue = new CommitQueue();
  queue.push(repo.commit(from));
  const queued = new Set([from]);
  const entries: LineLogEntry[] = [];
  /** The parents each walked commit carried the lines to, for the graph order. */
  const followed = new Map<string, string[]>();
  const walked: string[] = [];
  const done = (truncated: boolean) => ({
    entries: _graphOrder(entries, walked, followed),
    truncated,
    reachedShallow,
    visited,
  });
  let visited = 0;
  let reachedShallow = false;
  const lines = new Map<string, string[]>();
  const linesOf = (id: string) => {
    let l = lines.get(id);
    if (l === undefined) {
      l = splitLines(_decoder.decode(repo.objects.readTyped(id, "blob")));
      if (lines.size > 256) lines.clear();
      lines.set(id, l);
    }
    return l;
  };
  while (queue.size > 0) {
    const c = queue.pop()!;
    const state = pending.get(c.id);
    pending.delete(c.id);
    if (state === undefined || state.ranges.length === 0) continue;
    if (++visited > repo.limits.maxCommits) return done(true);
    walked.push(c.id);
    const here = repo.entryAt(repo.folderTree(c.id), state.path);
    if (here === null || entryKind(here.mode) !== "file") continue;
    if (repo.shallow.has(c.id)) reachedShallow = true;
    const outcomes = c.parents.map((p) =>
      _acrossParent(repo, p, c.id, state.path, here.id, state.ranges, linesOf)
    );
    const same = outcomes.findIndex((o) => o !== null && !o.touched);
    const carry = (i: number) => {
      const o = outcomes[i]!;
      if (o === null || o.ranges.length === 0) return;
      const parent = c.parents[i]!;
      followed.set(c.id, [...followed.get(c.id) ?? [], parent]);
      const prev = pending.get(parent);
      pending.set(parent, {
        path: o.path,
        ranges: prev === undefined ? o.ranges : _union(prev.ranges, o.ranges),
      });
      if (!queued.has(parent)) {
        queued.add(parent);
        queue.push(repo.commit(parent));
      }
    };
    if (same !== -1) {
      carry(same);
      continue;
    }
    // Reported: every parent changed the lines, or there is no parent with the file.
    const introduced = outcomes.length === 0 || outcomes.every((o) => o === null);
    const touched = outcomes.find((o) => o !== null)?.touchedLines ?? state.ranges;
    entries.push({
      commit: c,
      path: state.path,
      introduced,
      lines: touched.map(([s, e]) => [s + 1, Math.max(s + 1, e)]),
    });
    if (entries.length >= max) return done(queue.size > 0);
    outcomes.forEach((_, i) => carry(i));
  }
  return done(false);
}

/**
 * The entries in git's `--topo-order` (graph order, `sort_in_topological_order`) of the walked
 * commits and the parents the lines were carried to: a commit comes once all its walked children
 * have; a stack, so after a merge its last parent's line of history comes first, whole.
 */
function _graphOrder(
  entries: LineLogEntry[],
  walked: readonly string[],
  followed: ReadonlyMap<string, readonly string[]>,
): LineLogEntry[] {
  if (entries.length < 2) return entries;
  const children = new Map<string, number>();
  for (const id of walked) children.set(id, children.get(id) ?? 0);
  for (const id of walked) {
    for (const p of followed.get(id) ?? []) {
      if (children.has(p)) children.set(p, children.get(p)! + 1);
    }
  }
  // The tips in walk order, the first on top.
  const stack = walked.filter((id) => children.get(id) === 0).reverse();
  const rank = new Map<string, number>();
  while (stack.length > 0) {
    const id = stack.pop()!;
    rank.set(id, rank.size);
    for (const p of followed.get(id) ?? []) {
      const left = children.get(p);
      if (left === undefined) continue;
      children.set(p, left - 1);
      if (left - 1 === 0) stack.push(p);
    }
  }
  return [...entries].sort((a, b) =>
    (rank.get(a.commit.id) ?? Infinity) - (rank.get(b.commit.id) ?? Infinity)
  );
}

/** How the tracked lines of `path` at a commit relate to one parent; null when the parent lacks the file. */
function _acrossParent(
  repo: GitRepository,
  parent: string,
  child: string,
  path: string,
  blob: string,
  ranges: _Ranges,
  linesOf: (id: string) => string[],
): { path: string; touched: boolean; ranges: _Ranges; touchedLines: _Ranges } | null {
  let parentPath = path;
  let there = repo.entryAt(repo.folderTree(parent), path);
  if (there === null || entryKind(there.mode) !== "file") {
    // Not at this path in the parent: renamed here? (git log -L follows renames.)
    const renamed = repo.diffTrees(repo.folderTree(parent), repo.folderTree(child))
      .find((ch) => ch.status === "renamed" && ch.path === path);
    if (renamed === undefined) return null;
    parentPath = renamed.oldPath;
    there = repo.entryAt(repo.folderTree(parent), parentPath);
    if (there === null) return null;
  }
  if (there.id === blob) return { path: parentPath, touched: false, ranges, touchedLines: [] };
  const hunks = diffLines(linesOf(there.id), linesOf(blob));
  return { path: parentPath, ..._mapRanges(ranges, hunks) };
}

/** Carry ranges across a diff (child → parent numbering), and say whether a hunk touched them. */
function _mapRanges(
  ranges: _Ranges,
  hunks: Hunk[],
): { touched: boolean; ranges: _Ranges; touchedLines: _Ranges } {
  // Hunks as 0-based half-open [start, end) on both sides.
  const hs = hunks.map((h) => ({
    ps: h.oldCount === 0 ? h.oldStart : h.oldStart - 1,
    pe: (h.oldCount === 0 ? h.oldStart : h.oldStart - 1) + h.oldCount,
    ts: h.newCount === 0 ? h.newStart : h.newStart - 1,
    te: (h.newCount === 0 ? h.newStart : h.newStart - 1) + h.newCount,
  }));
  const overlap = (as: number, ae: number, bs: number, be: number) => !(ae <= bs || be <= as);
  let touched = false;
  const touchedLines: _Ranges = [];
  const out: _Ranges = [];
  for (const [rs, re] of ranges) {
    let offset = 0; // parent line = child line + offset, before the current hunk
    let ps = -1;
    let pe = -1;
    for (const h of hs) {
      if (overlap(h.ts, h.te, rs, re)) {
        touched = true;
        touchedLines.push([Math.max(h.ts, rs), Math.min(h.te, re)]);
      }
      if (ps === -1 && rs < h.ts) ps = rs + offset;
      else if (ps === -1 && rs < h.te) ps = h.ps;
      if (pe === -1 && re <= h.ts) pe = re + offset;
      else if (pe === -1 && re <= h.te) pe = h.pe;
      offset = h.pe - h.te;
    }
    if (ps === -1) ps = rs + offset;
    if (pe === -1) pe = re + offset;
    if (pe > ps) out.push([ps, pe]);
  }
  return { touched, ranges: _union([], out), touchedLines };
}

function _union(a: _Ranges, b: _Ranges): _Ranges {
  const all = [...a, ...b].sort((x, y) => x[0] - y[0]);
  const out: _Ranges = [];
  for (const r of all) {
    const last = out[out.length - 1];
    if (last !== undefined && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}
