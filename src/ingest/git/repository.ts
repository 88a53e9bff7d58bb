/**
 * One repository's history, read in process: commits, trees and blobs by id, paths of the
 * indexed folder at a commit, the diff of two trees (with renames), the commits that changed a
 * path, merge bases. Commits named in `shallow` are read as roots (their parents are not in the
 * clone), and the history says so (`shallow`). Walks are bounded by `maxCommits`.
 */
import { join } from "node:path";
import { ToolError } from "../../errors.ts";
import {
  type CommitRecord,
  entryKind,
  findTreeEntry,
  parseCommit,
  parseTree,
  type TreeEntry,
} from "../../parser/git/objects.ts";
import { type GitLocation, locateGit, readGitText } from "./git_dir.ts";
import { type HistoryLimits, METADATA_CAPS } from "./limits.ts";
import { ObjectStore } from "./object_store.ts";
import { Refs } from "./refs.ts";
import { detectRenames } from "./renames.ts";
import { CommitQueue } from "./commit_queue.ts";
import { lineLog } from "./line_log.ts";
import { worktreeChanges } from "./worktree.ts";
import type {
  ChangeStatus,
  FileChange,
  GitHistory,
  LineLogResult,
  WalkResult,
  WorktreeDiff,
} from "../../parser/git/history.ts";
import type { GitObjectType } from "../../parser/git/objects.ts";
import { BlobSymbols } from "../../parser/git/blob_symbols.ts";

const _encoder = new TextEncoder();
/** Most paths `commitPaths` remembers (some 20 MB): past it, it starts again. */
const _MAX_PATHS = 200_000;

export type { FileChange } from "../../parser/git/history.ts";

/** The history of one checkout. */
export class GitRepository implements GitHistory {
  readonly location: GitLocation;
  readonly objects: ObjectStore;
  readonly refs: Refs;
  readonly limits: HistoryLimits;
  /** Commits whose parents this clone does not have. */
  readonly shallow: ReadonlySet<string>;
  readonly #commits = new Map<string, CommitRecord>();
  readonly #trees = new Map<string, TreeEntry[]>();
  readonly blobSymbols: BlobSymbols = new BlobSymbols();
  /** `entryAt` by tree and path. */
  readonly #entries = new Map<string, TreeEntry | null>();
  /** `commitPaths` by commit, and how many paths it holds (emptied past {@linkcode _MAX_PATHS}). */
  readonly #commitPaths = new Map<string, readonly string[]>();
  #commitPathCount = 0;

  private constructor(
    location: GitLocation,
    limits: HistoryLimits,
    allowed: readonly string[] | null,
  ) {
    this.location = location;
    this.limits = limits;
    this.objects = new ObjectStore(
      join(location.commonDir, "objects"),
      location.hashBytes,
      limits,
      allowed,
    );
    this.refs = new Refs(location, this.objects);
    const shallow = readGitText(
      join(location.commonDir, "shallow"),
      location.commonDir,
      METADATA_CAPS.packedRefs,
    );
    this.shallow = new Set(
      (shallow ?? "").split("\n").map((l) => l.trim()).filter((l) => l !== ""),
    );
  }

  /** The repository of an indexed folder, or why there is none (a sentence). */
  static open(
    root: string,
    allowed: readonly string[] | null,
    limits: HistoryLimits,
  ): GitRepository | string {
    const loc = locateGit(root, allowed);
    return typeof loc === "string" ? loc : new GitRepository(loc, limits, allowed);
  }

  /** Whether this is a shallow clone. */
  get isShallow(): boolean {
    return this.shallow.size > 0;
  }

  /** Whether a commit's parents were cut by a shallow clone. */
  isShallowBoundary(id: string): boolean {
    return this.shallow.has(id);
  }

  /** A commit by id (parents cut at the shallow boundary). */
  commit(id: string): CommitRecord {
    let c = this.#commits.get(id);
    if (c === undefined) {
      try {
        c = parseCommit(id, this.objects.readTyped(id, "commit"));
      } catch (e) {
        if (e instanceof SyntaxError) {
          throw new ToolError("git_object_invalid", `Git object ${id} is damaged: ${e.message}`);
        }
        throw e;
      }
      if (this.shallow.has(id)) c = { ...c, parents: [] };
      if (this.#commits.size > 200_000) this.#commits.clear();
      this.#commits.set(id, c);
    }
    return c;
  }

  /** A tree's entries by id. */
  tree(id: string): TreeEntry[] {
    let t = this.#trees.get(id);
    if (t === undefined) {
      try {
        t = parseTree(this.objects.readTyped(id, "tree"), this.location.hashBytes);
      } catch (e) {
        if (e instanceof SyntaxError) {
          throw new ToolError("git_object_invalid", `Git object ${id} is damaged: ${e.message}`);
        }
        throw e;
      }
      if (this.#trees.size > 50_000) this.#trees.clear();
      this.#trees.set(id, t);
    }
    return t;
  }

  /** The tree of the indexed folder at a commit (`""` when the folder does not exist there). */
  folderTree(commitId: string): string {
    let tree = this.commit(commitId).tree;
    for (const part of this.location.prefix.split("/").filter((p) => p !== "")) {
      const e = this.entryNamed(tree, part);
      if (e === null || entryKind(e.mode) !== "tree") return "";
      tree = e.id;
    }
    return tree;
  }

  /**
   * The entry at a folder-relative path in a folder tree, or null. Remembered by tree and path at
   * every level: walking a history, the trees of consecutive commits share most subtrees, so a
   * path is looked up in the root tree and found in the memo one level down.
   */
  entryAt(folderTree: string, path: string): TreeEntry | null {
    if (folderTree === "") return null;
    const key = `${folderTree}\0${path}`;
    const hit = this.#entries.get(key);
    if (hit !== undefined) return hit;
    const slash = path.indexOf("/");
    const name = slash === -1 ? path : path.slice(0, slash);
    const e = this.entryNamed(folderTree, name);
    let found: TreeEntry | null = null;
    if (e !== null && slash === -1) found = e;
    else if (e !== null && entryKind(e.mode) === "tree") {
      found = this.entryAt(e.id, path.slice(slash + 1));
    }
    if (this.#entries.size > 200_000) this.#entries.clear();
    this.#entries.set(key, found);
    return found;
  }

  /** The entry of a tree with this name, or null (without parsing the whole tree). */
  entryNamed(treeId: string, name: string): TreeEntry | null {
    const parsed = this.#trees.get(treeId);
    if (parsed !== undefined) return parsed.find((x) => x.name === name) ?? null;
    try {
      return findTreeEntry(
        this.objects.readTyped(treeId, "tree"),
        _encoder.encode(name),
        this.location.hashBytes,
      );
    } catch (e) {
      if (e instanceof SyntaxError) {
        throw new ToolError("git_object_invalid", `Git object ${treeId} is damaged: ${e.message}`);
      }
      throw e;
    }
  }

  /** The bytes of the file at a folder-relative path in a commit, or null when absent or not a file. */
  fileAt(commitId: string, path: string): Uint8Array | null {
    const e = this.entryAt(this.folderTree(commitId), path);
    if (e === null || entryKind(e.mode) !== "file") return null;
    return this.objects.readTyped(e.id, "blob");
  }

  /** Every file (folder-relative path → entry) of a folder tree. */
  files(folderTree: string): Map<string, TreeEntry> {
    const out = new Map<string, TreeEntry>();
    const walk = (tree: string, prefix: string) => {
      for (const e of this.tree(tree)) {
        if (entryKind(e.mode) === "tree") walk(e.id, `${prefix}${e.name}/`);
        else out.set(prefix + e.name, e);
      }
    };
    if (folderTree !== "") walk(folderTree, "");
    return out;
  }

  /**
   * The files that differ between two folder trees (`""` = empty), renames detected among the
   * added and deleted ones (exact, then by content similarity ≥ 50%, as git's default).
   */
  diffTrees(oldTree: string, newTree: string, options: { renames?: boolean } = {}): FileChange[] {
    const changes: FileChange[] = [];
    this.#diff(oldTree, newTree, "", changes);
    if (options.renames === false) return changes;
    return detectRenames(changes, (id) => {
      try {
        return this.objects.readTyped(id, "blob");
      } catch (e) {
        // A blob too large to read is no rename candidate (git skips such files too).
        if (e instanceof ToolError && e.code === "git_object_too_large") return null;
        throw e;
      }
    }, (id) => this.objects.size(id));
  }

  /**
   * The paths a commit changed against its first parent, renames not paired. A commit's diff
   * never changes, so it is remembered: the churn and co-change walks of every later call read
   * the window's commits without diffing their trees again.
   */
  commitPaths(commitId: string): readonly string[] {
    const hit = this.#commitPaths.get(commitId);
    if (hit !== undefined) return hit;
    const c = this.commit(commitId);
    const before = c.parents.length === 0 ? "" : this.folderTree(c.parents[0]!);
    const changes: FileChange[] = [];
    this.#diff(before, this.folderTree(commitId), "", changes);
    const paths = changes.map((ch) => ch.path);
    if (this.#commitPathCount + paths.length > _MAX_PATHS) {
      this.#commitPaths.clear();
      this.#commitPathCount = 0;
    }
    this.#commitPaths.set(commitId, paths);
    this.#commitPathCount += paths.length;
    return paths;
  }

  #diff(a: string, b: string, prefix: string, out: FileChange[]): void {
    if (a === b) return;
    const left = a === "" ? [] : this.tree(a);
    const right = b === "" ? [] : this.tree(b);
    const byName = new Map<string, [TreeEntry | undefined, TreeEntry | undefined]>();
    for (const e of left) byName.set(e.name, [e, undefined]);
    for (const e of right) byName.set(e.name, [byName.get(e.name)?.[0], e]);
    for (const [name, [x, y]] of [...byName].sort((p, q) => (p[0] < q[0] ? -1 : 1))) {
      if (x !== undefined && y !== undefined && x.id === y.id && x.mode === y.mode) continue;
      const path = prefix + name;
      const xt = x !== undefined && entryKind(x.mode) === "tree";
      const yt = y !== undefined && entryKind(y.mode) === "tree";
      if (xt || yt) {
        this.#diff(xt ? x!.id : "", yt ? y!.id : "", `${path}/`, out);
        if (xt && y !== undefined && !yt) out.push(_change("added", path, undefined, y));
        if (yt && x !== undefined && !xt) out.push(_change("deleted", path, x, undefined));
        continue;
      }
      if (x === undefined) out.push(_change("added", path, undefined, y));
      else if (y === undefined) out.push(_change("deleted", path, x, undefined));
      else if (entryKind(x.mode) !== entryKind(y.mode)) {
        out.push(_change("type_changed", path, x, y));
      } else out.push(_change("modified", path, x, y));
    }
  }

  /**
   * Commits reachable from `from`, newest first by commit date (parents after children), as
   * `git log` walks them; `stop` ids and their ancestors are not walked (`a..b`).
   */
  walk(
    from: string,
    options: { stop?: readonly string[]; max?: number; firstParent?: boolean; since?: number } = {},
  ): WalkResult {
    const since = options.since ?? -Infinity;
    const max = options.max ?? this.limits.maxCommits;
    const hidden = new Set<string>();
    for (const s of options.stop ?? []) this.#markAncestors(s, hidden, max * 4);
    const commits: CommitRecord[] = [];
    const queue = new CommitQueue();
    const seen = new Set<string>([from]);
    queue.push(this.commit(from));
    let reachedShallow = false;
    while (queue.size > 0) {
      const c = queue.pop()!;
      if (hidden.has(c.id) || c.committer.time < since) continue;
      if (commits.length >= max) return { commits, reachedShallow, truncated: true };
      commits.push(c);
      if (this.shallow.has(c.id)) reachedShallow = true;
      const parents = options.firstParent ? c.parents.slice(0, 1) : c.parents;
      for (const p of parents) {
        if (seen.has(p)) continue;
        seen.add(p);
        queue.push(this.commit(p));
      }
    }
    return { commits, reachedShallow, truncated: false };
  }

  #markAncestors(id: string, into: Set<string>, max: number): void {
    const stack = [id];
    while (stack.length > 0 && into.size < max) {
      const c = stack.pop()!;
      if (into.has(c)) continue;
      into.add(c);
      stack.push(...this.commit(c).parents);
    }
  }

  /** The best common ancestor of two commits (the newest by date), or null. */
  mergeBase(a: string, b: string): string | null {
    const ofA = new Set<string>();
    this.#markAncestors(a, ofA, this.limits.maxCommits * 4);
    const queue = new CommitQueue();
    queue.push(this.commit(b));
    const seen = new Set([b]);
    while (queue.size > 0) {
      const c = queue.pop()!;
      if (ofA.has(c.id)) return c.id;
      for (const p of c.parents) {
        if (!seen.has(p)) {
          seen.add(p);
          queue.push(this.commit(p));
        }
      }
    }
    return null;
  }

  /** The commit id a revision names. */
  resolveCommit(rev: string): string {
    return this.refs.resolveCommit(rev);
  }

  /** An object's bytes, which must be of `type`. */
  read(id: string, type: GitObjectType): Uint8Array {
    return this.objects.readTyped(id, type);
  }

  /** `git log -L start,end:path` from a commit. */
  lineLog(from: string, path: string, start: number, end: number, max: number): LineLogResult {
    return lineLog(this, from, path, start, end, max);
  }

  /** The indexed folder's working tree against a commit. */
  worktreeDiff(commitId: string, extra: readonly string[]): WorktreeDiff {
    const root = this.location.prefix === ""
      ? this.location.workTree
      : `${this.location.workTree}/${this.location.prefix.slice(0, -1)}`;
    return worktreeChanges(
      this,
      root,
      this.folderTree(commitId),
      extra,
      this.limits.maxObjectBytes,
    );
  }

  /** Close the pack files. */
  close(): void {
    this.objects.close();
    this.blobSymbols.clear();
  }
}

function _change(
  status: ChangeStatus,
  path: string,
  x: TreeEntry | undefined,
  y: TreeEntry | undefined,
): FileChange {
  return {
    status,
    path,
    oldPath: path,
    oldId: x?.id ?? "",
    newId: y?.id ?? "",
    oldMode: x?.mode ?? "",
    newMode: y?.mode ?? "",
  };
}
