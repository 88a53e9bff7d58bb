/**
 * The local folder walk: every file that may be indexed, with what each rule skipped.
 *
 * Rules, in order: default skipped directories; symlinks (skipped unless `followSymlinks`, then
 * only files whose real path stays inside the root — symlinked directories are never descended,
 * so a symlink loop cannot trap the walk); `.gitignore` files at every level, each relative to
 * its own directory, deeper files overriding shallower ones (git semantics, via `npm:ignore`);
 * extra ignore patterns; secret files; generated bundles and lock files; binary extensions;
 * files of no indexed language (`languageOf`: a grammar's, or a text-only one's such as SQL,
 * reStructuredText or plain text, see src/parser/text_languages.ts); files over the size limit;
 * and finally the file-count cap.
 */
import ignore, { type Ignore } from "ignore";
import { join, sep } from "node:path";
import { hasBinaryExtension, isSecretFile, isSkippedDir, isSkippedFile } from "./filters.ts";

/** Why a path was not indexed (API.md §1.2 `discovery_skip_counts`). */
export type SkipReason =
  | "skip_dir"
  | "skip_file"
  | "symlink"
  | "symlink_escape"
  | "path_traversal"
  | "gitignore"
  | "extra_ignore"
  | "secret"
  | "wrong_extension"
  | "too_large"
  | "unreadable"
  | "binary"
  | "file_limit";

/** Every skip reason, in report order. */
export const SKIP_REASONS: readonly SkipReason[] = [
  "skip_dir",
  "skip_file",
  "symlink",
  "symlink_escape",
  "path_traversal",
  "gitignore",
  "extra_ignore",
  "secret",
  "wrong_extension",
  "too_large",
  "unreadable",
  "binary",
  "file_limit",
];

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
export interface WalkOptions {
  /**
   * Language id of a repo-relative path (a grammar's or a text-only one's), or undefined when the
   * file is not indexed.
   */
  languageOf: (path: string) => string | undefined;
  /** @default 512000 */
  maxFileBytes?: number;
  /** @default 100000 */
  maxFiles?: number;
  /** Gitignore-style patterns relative to the root. */
  extraIgnorePatterns?: readonly string[];
  /**
   * Include symlinked files whose real path is inside the root.
   * @default false
   */
  followSymlinks?: boolean;
}

/** What the walk found. */
export interface WalkResult {
  /** Files to index, sorted by path. */
  files: WalkedFile[];
  /** Repo-relative paths of other files that passed the ignore rules (for import resolution). */
  otherFiles: string[];
  /** How many paths each rule skipped. */
  skipCounts: Record<SkipReason, number>;
  /** Human-readable notes (skipped secrets, binaries, symlink escapes, the file cap). */
  warnings: string[];
  /** Files found before the file-count cap was applied. */
  discovered: number;
}

interface _Matcher {
  /** Directory of the `.gitignore`, repo-relative, "" for the root. */
  base: string;
  ig: Ignore;
}

const _MAX_WARNINGS_PER_KIND = 20;

/**
 * Walk `root` (an absolute, real path) and return the files to index. Synchronous file-system
 * calls keep the walk of a large tree fast; it reads only `.gitignore` files and metadata.
 */
export function walkFolder(root: string, options: WalkOptions): WalkResult {
  const maxBytes = options.maxFileBytes ?? 500 * 1024;
  const maxFiles = options.maxFiles ?? 100_000;
  const skipCounts = Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<
    SkipReason,
    number
  >;
  const notes = new Map<string, string[]>();
  const note = (kind: string, text: string) => {
    const list = notes.get(kind) ?? [];
    list.push(text);
    notes.set(kind, list);
  };
  const extra = options.extraIgnorePatterns !== undefined && options.extraIgnorePatterns.length > 0
    ? ignore({ allowRelativePaths: true }).add([...options.extraIgnorePatterns])
    : null;
  const files: WalkedFile[] = [];
  const otherFiles: string[] = [];

  const ignoredBy = (rel: string, isDir: boolean, matchers: readonly _Matcher[]) => {
    const probe = isDir ? rel + "/" : rel;
    // Deepest .gitignore first: the first one with an opinion decides (git semantics).
    for (let i = matchers.length - 1; i >= 0; i--) {
      const m = matchers[i]!;
      const local = m.base === "" ? probe : probe.slice(m.base.length + 1);
      const r = m.ig.test(local);
      if (r.ignored) return "gitignore";
      if (r.unignored) break;
    }
    if (extra !== null && extra.ignores(probe)) return "extra_ignore";
    return null;
  };

  const considerFile = (
    rel: string,
    name: string,
    absolute: string,
    stat: () => Deno.FileInfo | null,
    matchers: readonly _Matcher[],
  ) => {
    const ignored = ignoredBy(rel, false, matchers);
    if (ignored !== null) {
      skipCounts[ignored]++;
      return;
    }
    if (isSecretFile(name)) {
      skipCounts.secret++;
      note("secret", `Skipped secret file: ${rel}`);
      return;
    }
    if (isSkippedFile(name)) {
      skipCounts.skip_file++;
      return;
    }
    if (hasBinaryExtension(name)) {
      skipCounts.binary++;
      return;
    }
    const language = options.languageOf(rel);
    if (language === undefined) {
      skipCounts.wrong_extension++;
      otherFiles.push(rel);
      return;
    }
    // Stat only files that passed the cheap name rules.
    const info = stat();
    if (info === null) {
      skipCounts.unreadable++;
      return;
    }
    if (info.size > maxBytes) {
      skipCounts.too_large++;
      note("too_large", `Skipped file over ${maxBytes} bytes: ${rel} (${info.size} bytes)`);
      return;
    }
    files.push({
      path: rel,
      absolute,
      language,
      size: info.size,
      mtime_ms: info.mtime?.getTime() ?? 0,
      ctime_ms: info.ctime?.getTime() ?? 0,
    });
  };

  const visit = (absDir: string, relDir: string, inherited: readonly _Matcher[]) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(absDir)];
    } catch (e) {
      if (e instanceof Deno.errors.NotCapable) throw e;
      skipCounts.unreadable++;
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    let matchers = inherited;
    if (entries.some((e) => e.name === ".gitignore" && e.isFile)) {
      try {
        const text = Deno.readTextFileSync(join(absDir, ".gitignore"));
        matchers = [...inherited, {
          base: relDir,
          ig: ignore({ allowRelativePaths: true }).add(text),
        }];
      } catch (e) {
        if (e instanceof Deno.errors.NotCapable) throw e;
        skipCounts.unreadable++;
      }
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
        let real: string;
        try {
          real = Deno.realPathSync(abs);
        } catch (e) {
          if (e instanceof Deno.errors.NotCapable) {
            // Deno's permission wall stopped it: the target is outside what we may read.
            skipCounts.symlink_escape++;
            note("symlink_escape", `Skipped symlink escape: ${rel}`);
            continue;
          }
          skipCounts.symlink++; // dangling, or a loop (ELOOP)
          continue;
        }
        if (!isInside(root, real)) {
          skipCounts.symlink_escape++;
          note("symlink_escape", `Skipped symlink escape: ${rel} -> ${real}`);
          continue;
        }
        let info: Deno.FileInfo;
        try {
          info = Deno.statSync(real);
        } catch {
          skipCounts.unreadable++;
          continue;
        }
        if (!info.isFile) {
          skipCounts.symlink++; // symlinked directories are never descended
          continue;
        }
        considerFile(rel, entry.name, real, () => info, matchers);
        continue;
      }
      if (entry.isDirectory) {
        if (isSkippedDir(entry.name)) {
          skipCounts.skip_dir++;
          continue;
        }
        const ignored = ignoredBy(rel, true, matchers);
        if (ignored !== null) {
          skipCounts[ignored]++;
          continue;
        }
        visit(abs, rel, matchers);
        continue;
      }
      if (!entry.isFile) continue; // sockets, fifos, devices
      considerFile(rel, entry.name, abs, () => {
        try {
          return Deno.lstatSync(abs);
        } catch (e) {
          if (e instanceof Deno.errors.NotCapable) throw e;
          return null;
        }
      }, matchers);
    }
  };

  visit(root, "", []);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  otherFiles.sort();
  const discovered = files.length;
  let kept = files;
  if (files.length > maxFiles) {
    kept = [...files].sort(_capOrder).slice(0, maxFiles);
    kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    skipCounts.file_limit = files.length - maxFiles;
    note(
      "file_limit",
      `File cap reached: indexed ${maxFiles} of ${files.length} files (set JCODEMUNCH_MAX_FOLDER_FILES to raise it)`,
    );
  }
  const warnings: string[] = [];
  for (const [, list] of notes) {
    warnings.push(...list.slice(0, _MAX_WARNINGS_PER_KIND));
    if (list.length > _MAX_WARNINGS_PER_KIND) {
      warnings.push(`... and ${list.length - _MAX_WARNINGS_PER_KIND} more like the above`);
    }
  }
  return { files: kept, otherFiles, skipCounts, warnings, discovered };
}

/** Whether `path` is `root` or inside it (both absolute and normalised). */
export function isInside(root: string, path: string): boolean {
  if (path === root) return true;
  const prefix = root.endsWith("/") || root.endsWith("\\") ? root : root + "/";
  return path.startsWith(prefix) ||
    (Deno.build.os === "windows" && path.startsWith(root + "\\"));
}

const _PRIORITY_DIRS = ["src/", "lib/", "pkg/", "cmd/", "internal/"];

/** Which files survive the cap: priority directories, then shallower, then by path. */
function _capOrder(a: WalkedFile, b: WalkedFile): number {
  const pa = _priority(a.path), pb = _priority(b.path);
  if (pa !== pb) return pa - pb;
  const da = a.path.split("/").length, db = b.path.split("/").length;
  if (da !== db) return da - db;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function _priority(path: string): number {
  const i = _PRIORITY_DIRS.findIndex((d) => path.startsWith(d));
  return i === -1 ? _PRIORITY_DIRS.length : i;
}
