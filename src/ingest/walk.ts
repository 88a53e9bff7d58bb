/**
 * The local folder walk: every file that may be indexed, with what each rule skipped.
 *
 * The selection rules are shared with every other source (see `selection.ts`). What is local:
 * symlinks are skipped unless `followSymlinks`, then only files whose real path stays inside the
 * root are kept — symlinked directories are never descended, so a symlink loop cannot trap the
 * walk.
 */
import { join, sep } from "node:path";
import {
  FileSelection,
  type GitignoreMatcher,
  gitignoreMatcher,
  MAX_IGNORE_FILE_BYTES,
  type SelectionOptions,
  type SelectionResult,
} from "./selection.ts";
import { readFileInside } from "./safe_read.ts";

export { SKIP_REASONS, type SkipReason } from "./selection.ts";

/** A file the walk accepted. */
export interface WalkedFile {
  /** Repo-relative POSIX path. */
  path: string;
  /** Absolute path to read (the real path for a followed symlink). */
  absolute: string;
  /** Language id. */
  language: string;
  size: number;
  mtime_ms: number;
  ctime_ms: number;
}

/** Options for {@linkcode walkFolder}. */
export interface WalkOptions extends SelectionOptions {
  /**
   * Include symlinked files whose real path is inside the root.
   * @default false
   */
  followSymlinks?: boolean;
}

/**
 * A `.gitignore`'s text: a small regular file inside the root, read from its handle (no FIFO,
 * device or giant); null, with a note when it is too large, when it cannot be read.
 */
function _ignoreFile(
  path: string,
  root: string,
  relDir: string,
  selection: FileSelection,
): string | null {
  let r: Uint8Array | string;
  try {
    r = readFileInside(path, root, { maxBytes: MAX_IGNORE_FILE_BYTES });
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable) throw e;
    return null;
  }
  if (r === "too_large") {
    selection.note(
      "ignore_file",
      `Skipped ${
        relDir === "" ? "" : relDir + "/"
      }.gitignore: over ${MAX_IGNORE_FILE_BYTES} bytes, its rules are not applied`,
    );
  }
  return typeof r === "string" ? null : new TextDecoder().decode(r);
}

/** What the walk found. */
export type WalkResult = SelectionResult<WalkedFile>;

/**
 * Walk `root` (an absolute, real path) and return the files to index. Synchronous file-system
 * calls keep the walk of a large tree fast; it reads only `.gitignore` files and metadata.
 */
export function walkFolder(root: string, options: WalkOptions): WalkResult {
  const selection = new FileSelection(options);
  const skipCounts = selection.skipCounts;
  const files: WalkedFile[] = [];

  const considerFile = (
    rel: string,
    name: string,
    absolute: string,
    stat: () => Deno.FileInfo | null,
    matchers: readonly GitignoreMatcher[],
  ) => {
    const language = selection.acceptFileName(rel, name, matchers);
    if (language === undefined) return;
    // Stat only files that passed the cheap name rules.
    const info = stat();
    if (info === null) {
      skipCounts.unreadable++;
      return;
    }
    if (!selection.acceptSize(rel, info.size)) return;
    files.push({
      path: rel,
      absolute,
      language,
      size: info.size,
      mtime_ms: info.mtime?.getTime() ?? 0,
      ctime_ms: info.ctime?.getTime() ?? 0,
    });
  };

  const visit = (absDir: string, relDir: string, inherited: readonly GitignoreMatcher[]) => {
    const entries = _sortedEntries(absDir, selection);
    if (entries === null) return;
    let matchers = inherited;
    if (entries.some((e) => e.name === ".gitignore" && e.isFile)) {
      const text = _ignoreFile(join(absDir, ".gitignore"), root, relDir, selection);
      if (text === null) skipCounts.unreadable++;
      else matchers = [...inherited, gitignoreMatcher(relDir, text)];
    }
    // Entry names are plain names and absDir is normalised: concatenation is what join() gives.
    const dirPrefix = absDir.endsWith(sep) ? absDir : absDir + sep;
    for (const entry of entries) {
      const rel = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
      const abs = dirPrefix + entry.name;
      if (entry.isSymlink) {
        if (!options.followSymlinks) {
          skipCounts.symlink++;
          continue;
        }
        const target = _symlinkTarget(abs, rel, root, selection);
        if (target !== null) {
          considerFile(rel, entry.name, target.real, () => target.info, matchers);
        }
        continue;
      }
      if (entry.isDirectory) {
        if (selection.acceptDir(rel, entry.name, matchers)) visit(abs, rel, matchers);
        continue;
      }
      if (!entry.isFile) continue; // sockets, fifos, devices
      considerFile(rel, entry.name, abs, () => _lstat(abs), matchers);
    }
  };

  visit(root, "", []);
  return selection.finish(files);
}

/** A folder's entries sorted by name, or null (counted unreadable) when it cannot be listed. */
function _sortedEntries(absDir: string, selection: FileSelection): Deno.DirEntry[] | null {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(absDir)];
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable) throw e;
    selection.skipCounts.unreadable++;
    return null;
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The real path and metadata of a symlinked regular file inside the root, or null with the skip
 * counted (dangling, a loop, an escape, unreadable, or a directory: never descended).
 */
function _symlinkTarget(
  abs: string,
  rel: string,
  root: string,
  selection: FileSelection,
): { real: string; info: Deno.FileInfo } | null {
  const skipCounts = selection.skipCounts;
  let real: string;
  try {
    real = Deno.realPathSync(abs);
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable) {
      // Deno's permission wall stopped it: the target is outside what we may read.
      skipCounts.symlink_escape++;
      selection.note("symlink_escape", `Skipped symlink escape: ${rel}`);
      return null;
    }
    skipCounts.symlink++; // dangling, or a loop (ELOOP)
    return null;
  }
  if (!isInside(root, real)) {
    skipCounts.symlink_escape++;
    selection.note("symlink_escape", `Skipped symlink escape: ${rel} -> ${real}`);
    return null;
  }
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(real);
  } catch {
    skipCounts.unreadable++;
    return null;
  }
  if (!info.isFile) {
    skipCounts.symlink++; // symlinked directories are never descended
    return null;
  }
  return { real, info };
}

/** A file's own metadata, or null when it cannot be read (a permission wall still throws). */
function _lstat(abs: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(abs);
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable) throw e;
    return null;
  }
}

/** Whether `path` is `root` or inside it (both absolute and normalised). */
export function isInside(root: string, path: string): boolean {
  if (path === root) return true;
  const prefix = root.endsWith("/") || root.endsWith("\\") ? root : root + "/";
  return path.startsWith(prefix) ||
    (Deno.build.os === "windows" && path.startsWith(root + "\\"));
}
