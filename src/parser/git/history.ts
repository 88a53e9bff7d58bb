/**
 * The surface of a repository's history as the read model uses it, with its record types. The
 * reader is `src/ingest/git/` (handed to the query layer by the composition root, like the git
 * `HEAD` reader); the types live here, below both, because they are records of parsed git data.
 */
import type { CommitRecord, GitObjectType, TreeEntry } from "./objects.ts";
import type { BlobSymbols } from "./blob_symbols.ts";

/** How a file differs between two trees. */
export type ChangeStatus = "added" | "deleted" | "modified" | "renamed" | "type_changed";

/** One changed path (relative to the indexed folder). */
export interface FileChange {
  status: ChangeStatus;
  path: string;
  /** The path before, for `renamed` (else the same as `path`). */
  oldPath: string;
  /** Blob ids; `""` on the side where the file does not exist. */
  oldId: string;
  newId: string;
  oldMode: string;
  newMode: string;
  /** Similarity of a rename, 0..100. */
  similarity?: number;
}

/** Commits of a walk and why it stopped. */
export interface WalkResult {
  commits: CommitRecord[];
  /** The walk reached a commit whose parents are not in this (shallow) clone. */
  reachedShallow: boolean;
  /** The walk stopped at its commit budget. */
  truncated: boolean;
}

/** One commit that touched tracked lines (`git log -L`). */
export interface LineLogEntry {
  commit: CommitRecord;
  /** The file's path at that commit (folder-relative). */
  path: string;
  /** The file was created (or first seen) at this commit: the lines were introduced here. */
  introduced: boolean;
  /** Lines of the tracked range that this commit changed (1-based, inclusive, its numbering). */
  lines: [number, number][];
}

/** What a line log found. */
export interface LineLogResult {
  entries: LineLogEntry[];
  /** The walk hit its limit of reported commits or its commit budget. */
  truncated: boolean;
  /** The walk reached the edge of a shallow clone before the lines' origin. */
  reachedShallow: boolean;
  /** Commits examined. */
  visited: number;
}

/** The working tree against a commit. */
export interface WorktreeDiff {
  changes: FileChange[];
  /** The working-tree bytes of the files that were read (changed ones). */
  contents: Map<string, Uint8Array>;
}

/** One repository's history, read in process. */
export interface GitHistory {
  /** Where it is: the top of the working tree, the indexed folder below it (`""` or `dir/`). */
  readonly location: { readonly workTree: string; readonly prefix: string };
  /** Whether the clone is shallow (history cut). */
  readonly isShallow: boolean;
  /** Whether a commit's parents were cut by a shallow clone (it is no root of the history). */
  isShallowBoundary(id: string): boolean;
  /**
   * The symbols parsed from its blobs (by blob id and path), kept while the repository is open:
   * a range or the working tree asked about again parses only the file versions not seen before.
   */
  readonly blobSymbols: BlobSymbols;
  /** The limits of its walks. */
  readonly limits: {
    readonly maxCommits: number;
    readonly maxFiles: number;
    readonly maxObjectBytes: number;
  };
  /** The commit id a revision names (`HEAD`, `main~3`, an abbreviated id, a tag). */
  resolveCommit(rev: string): string;
  commit(id: string): CommitRecord;
  /** The tree of the indexed folder at a commit (`""` when absent). */
  folderTree(commitId: string): string;
  /** The entry at a folder-relative path of a folder tree. */
  entryAt(folderTree: string, path: string): TreeEntry | null;
  /** The bytes of a file (folder-relative) at a commit, or null. */
  fileAt(commitId: string, path: string): Uint8Array | null;
  /** An object's bytes. */
  read(id: string, type: GitObjectType): Uint8Array;
  /** Files that differ between two folder trees, renames paired unless `renames: false`. */
  diffTrees(oldTree: string, newTree: string, options?: { renames?: boolean }): FileChange[];
  /**
   * The folder-relative paths a commit changed against its first parent (a root commit: every
   * file), renames not paired — `diffTrees(…, { renames: false })`'s paths, remembered per commit.
   */
  commitPaths(commitId: string): readonly string[];
  /**
   * Commits reachable from `from`, newest first, not those reachable from `stop`, none older
   * than `since` (seconds since the epoch, committer date: the walk goes no further back).
   */
  walk(
    from: string,
    options?: { stop?: readonly string[]; max?: number; since?: number },
  ): WalkResult;
  /** The best common ancestor of two commits. */
  mergeBase(a: string, b: string): string | null;
  /** `git log -L start,end:path` from a commit. */
  lineLog(from: string, path: string, start: number, end: number, max: number): LineLogResult;
  /** The indexed folder's working tree against a commit (`extra`: untracked indexed paths). */
  worktreeDiff(commitId: string, extra: readonly string[]): WorktreeDiff;
}

/** Opens the history of an indexed folder: the repository, or why there is none (a sentence). */
export type HistorySource = (root: string) => GitHistory | string;
