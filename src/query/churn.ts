/**
 * How often a file changed: the commits within a window that changed it (as `git log --follow
 * --since` counts them: a merge counts only when it differs from every parent), following the
 * file back through renames.
 */
import type { CommitRecord } from "../parser/git/objects.ts";
import type { GitHistory } from "../parser/git/history.ts";

/** The commits of a file since `sinceSeconds` (epoch), newest first. */
export function fileCommits(
  history: GitHistory,
  head: string,
  path: string,
  sinceSeconds: number,
): { commits: CommitRecord[]; truncated: boolean; reachedShallow: boolean } {
  const walk = history.walk(head, { max: history.limits.maxCommits });
  const paths = new Map<string, string>([[head, path]]);
  const commits: CommitRecord[] = [];
  for (const c of walk.commits) {
    const p = paths.get(c.id);
    if (p === undefined) continue;
    const here = history.entryAt(history.folderTree(c.id), p);
    if (here === null) continue;
    let changed = c.parents.length === 0;
    let sameAs = -1;
    c.parents.forEach((parent, i) => {
      let parentPath = p;
      let there = history.entryAt(history.folderTree(parent), p);
      if (there === null) {
        const renamed = history.diffTrees(history.folderTree(parent), history.folderTree(c.id))
          .find((ch) => ch.status === "renamed" && ch.path === p);
        if (renamed !== undefined) {
          parentPath = renamed.oldPath;
          there = history.entryAt(history.folderTree(parent), parentPath);
        }
      }
      // The same content under another path is a change of this path: git log --follow lists
      // a pure rename's commit.
      if (there !== null && there.id === here.id && parentPath === p && sameAs === -1) sameAs = i;
      if (there !== null && !paths.has(parent)) paths.set(parent, parentPath);
    });
    if (sameAs === -1) changed = true;
    if (changed && c.committer.time >= sinceSeconds) commits.push(c);
    if (c.committer.time < sinceSeconds && c.parents.every((x) => !paths.has(x))) break;
  }
  return { commits, truncated: walk.truncated, reachedShallow: walk.reachedShallow };
}

/** How many commits changed each file in a window (see {@linkcode churnByFile}). */
export interface FileChurn {
  /** Folder-relative path → commits in the window that changed it. */
  counts: Map<string, number>;
  /** Commits in the window (merges included). */
  commits: number;
  /** The walk reached the edge of a shallow clone: the counts are a lower bound. */
  reachedShallow: boolean;
  /** The walk stopped at its commit budget. */
  truncated: boolean;
}

/**
 * The commits of the window `[sinceSeconds, now]` reachable from `head` that changed each file,
 * as `git log --since=… --name-only` counts them: a merge counts for no file (it has no diff of
 * its own), a root commit for every file it adds; renames are not followed (a renamed file
 * starts again at its new path).
 */
export function churnByFile(history: GitHistory, head: string, sinceSeconds: number): FileChurn {
  const walk = history.walk(head, { since: sinceSeconds, max: history.limits.maxCommits });
  const counts = new Map<string, number>();
  for (const c of walk.commits) {
    // A merge has no diff of its own; a shallow clone's boundary is no real root.
    if (c.parents.length > 1 || history.isShallowBoundary(c.id)) continue;
    for (const path of history.commitPaths(c.id)) counts.set(path, (counts.get(path) ?? 0) + 1);
  }
  return {
    counts,
    commits: walk.commits.length,
    reachedShallow: walk.reachedShallow,
    truncated: walk.truncated,
  };
}
