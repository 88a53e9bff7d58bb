/**
 * Facets every tool shares: the indexed files by path, every symbol in brief, the repo's meta,
 * and per-file freshness against the folder on disk (API.md §4.5).
 */
import { join } from "node:path";
import type { SymbolKind } from "../parser/types.ts";
import type { FileEntry } from "../store/repo_index.ts";
import { facet, type RepoView } from "./view.ts";

/** Every indexed file by path. */
export const FILES = facet(
  "files",
  (v): Map<string, FileEntry> => new Map(v.index.listFiles().map((f) => [f.path, f])),
  {
    // Files re-indexed, none added or removed: only their rows changed (the order is the same).
    update: (v, previous, change): Map<string, FileEntry> => {
      const next = new Map(previous);
      for (const path of change.paths) {
        const entry = v.index.file(path);
        if (entry === undefined || !next.has(path)) return FILES.build(v);
        next.set(path, entry);
      }
      return next;
    },
  },
);

/** Every indexed path, in index order. */
export const PATHS = facet("paths", (v) => [...v.get(FILES).keys()], { carry: "same_paths" });

/** The repo's index meta (source root, git head, counts). */
export const META = facet("meta", (v) => v.index.meta());

/** Symbol and file counts. */
export const COUNTS = facet("counts", (v) => ({
  symbols: v.index.symbolCount(),
  files: v.index.fileCount(),
}));

/** File paths by file row id. */
export const PATHS_BY_ID = facet("paths-by-id", (v) => v.index.filePathsById(), {
  carry: "same_paths",
});

/** The fields of a symbol that whole-repo summaries and the fuzzy name index need. */
export interface SymbolBrief {
  id: string;
  name: string;
  kind: SymbolKind;
  language: string;
  file: string;
  byte_length: number;
}

/** Every symbol of a repo in brief, in file and source order. */
export const SYMBOL_BRIEFS = facet(
  "symbol-briefs",
  (v): SymbolBrief[] => v.index.allSymbolBriefs(),
);

/** Sum of the sizes of the distinct indexed files among `paths`. */
export function bytesOfFiles(view: RepoView, paths: Iterable<string>): number {
  const unique = new Set(paths);
  if (unique.size === 0) return 0;
  let total = 0;
  for (const p of unique) total += indexedFile(view, p)?.size ?? 0;
  return total;
}

/** How current the indexed copy of a file is (API.md §4.5). */
export type Freshness = "fresh" | "edited_uncommitted" | "stale_index";

/**
 * A checker of per-file freshness for a local repo: `stale_index` when the folder's git HEAD is
 * not the indexed commit, else `edited_uncommitted` when the file's size or mtime on disk is not
 * the indexed one (an edit not indexed yet) or the file is gone, else `fresh`. Returns null for a
 * file it cannot check (a remote repo, or a folder this server may not read). The checker reads
 * the disk: make one per call, never cache it in a facet.
 */
export function freshnessChecker(view: RepoView): (file: string) => Freshness | null {
  const meta = view.get(META);
  const root = meta.source_root;
  if (root === "") return () => null;
  let headMoved: boolean | undefined;
  const memo = new Map<string, Freshness | null>();
  return (file) => {
    headMoved ??= meta.git_head !== "" &&
      ((head) => head !== "" && head !== meta.git_head)(view.gitHead(root));
    if (headMoved) return "stale_index";
    if (memo.has(file)) return memo.get(file)!;
    let result: Freshness | null = null;
    const entry = indexedFile(view, file);
    if (entry !== undefined) {
      const disk = _diskState(root, file);
      if (disk !== "unknown") result = _sameAsIndexed(entry, disk) ? "fresh" : "edited_uncommitted";
    }
    memo.set(file, result);
    return result;
  };
}

/** At most this many paths are stat'ed by one {@linkcode filesChangedOnDisk} call. */
export const MAX_CHECKED_FILES = 256;

/**
 * The paths among `paths` (repo-relative, as indexed) whose file on disk is not the indexed
 * one: an indexed file whose size or mtime differ, or that is gone; a path not indexed that now
 * is a regular file on disk (written after the index). Empty for a repo without a local folder.
 * One stat per path, at most `limit` of them (the rest are not checked); paths that could leave
 * the folder (`..`, absolute) are ignored.
 */
export function filesChangedOnDisk(
  view: RepoView,
  paths: Iterable<string>,
  limit: number = MAX_CHECKED_FILES,
): string[] {
  const root = view.get(META).source_root;
  if (root === "") return [];
  const out: string[] = [];
  let checked = 0;
  for (const path of new Set(paths)) {
    if (checked++ >= limit) break;
    if (!_plainRelative(path)) continue;
    const entry = indexedFile(view, path);
    const disk = _diskState(root, path);
    if (disk === "unknown") continue;
    if (entry === undefined ? disk !== "gone" && disk.isFile : !_sameAsIndexed(entry, disk)) {
      out.push(path);
    }
  }
  return out;
}

/**
 * The indexed entry of one path: from the view's file map when it is built, else one indexed
 * lookup (building the map of every file costs ~100 ms on a repo of 5,000 files: a check of a
 * few files after each edit must not pay it).
 */
export function indexedFile(view: RepoView, path: string): FileEntry | undefined {
  return view.has(FILES) ? view.get(FILES).get(path) : view.index.file(path);
}

/** A file's stat now: "gone" when nothing is there, "unknown" when it cannot be stat'ed. */
function _diskState(root: string, path: string): Deno.FileInfo | "gone" | "unknown" {
  try {
    return Deno.statSync(join(root, path));
  } catch (e) {
    return e instanceof Deno.errors.NotFound ? "gone" : "unknown";
  }
}

function _sameAsIndexed(entry: FileEntry, disk: Deno.FileInfo | "gone"): boolean {
  return disk !== "gone" && disk.size === entry.size &&
    (disk.mtime?.getTime() ?? 0) === entry.mtime_ms;
}

/** A repo-relative path that stays inside the folder (no `..`, not absolute, no NUL). */
function _plainRelative(path: string): boolean {
  return path !== "" && !path.startsWith("/") && !path.includes("\0") &&
    !/^[A-Za-z]:/.test(path) && !path.split(/[\\/]/).some((p) => p === "..");
}

/**
 * Add `_freshness` to each entry with a `file` (null for a file that cannot be checked, when some
 * other can); returns the counts for `_meta.freshness`, or null when no file could be checked.
 */
export function markFreshness(
  entries: Record<string, unknown>[],
  check: (file: string) => Freshness | null,
): Record<Freshness, number> | null {
  const counts: Record<Freshness, number> = { fresh: 0, edited_uncommitted: 0, stale_index: 0 };
  let any = false;
  for (const e of entries) {
    const f = check(String(e.file));
    if (f === null) continue;
    e._freshness = f;
    counts[f]!++;
    any = true;
  }
  if (!any) return null;
  // Every entry gets the key (null when unknown), so a list of entries stays one table.
  for (const e of entries) if (!("_freshness" in e)) e._freshness = null;
  return counts;
}
