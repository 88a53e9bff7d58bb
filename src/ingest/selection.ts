/**
 * Which files of a tree get indexed: the rules every source applies in the same order, so that
 * a local folder and a GitHub tree of the same commit select the same files. The local walk
 * (`walk.ts`) and the tree walk (`tree_walk.ts`) only differ in how they list directories.
 *
 * Rules, in order: default skipped directories; `.gitignore` files at every level, each relative
 * to its own directory, deeper files overriding shallower ones (git semantics, via `npm:ignore`);
 * extra ignore patterns; secret files; generated bundles and lock files; binary extensions; files
 * of no supported language; files over the size limit; and finally the file-count cap.
 */
import ignore, { type Ignore } from "ignore";
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

/** The rules' settings. */
export interface SelectionOptions {
  /** Language id of a repo-relative path, or undefined when no language claims it. */
  languageOf: (path: string) => string | undefined;
  /** @default 512000 */
  maxFileBytes?: number;
  /** @default 100000 */
  maxFiles?: number;
  /** Gitignore-style patterns relative to the root. */
  extraIgnorePatterns?: readonly string[];
}

/** The `.gitignore` of one directory. */
export interface GitignoreMatcher {
  /** Directory of the `.gitignore`, repo-relative, "" for the root. */
  base: string;
  ig: Ignore;
}

/** What a walk found. */
export interface SelectionResult<F extends { path: string }> {
  /** Files to index, sorted by path. */
  files: F[];
  /** Repo-relative paths of other files that passed the ignore rules (for import resolution). */
  otherFiles: string[];
  /** How many paths each rule skipped. */
  skipCounts: Record<SkipReason, number>;
  /** Human-readable notes (skipped secrets, binaries, symlink escapes, the file cap). */
  warnings: string[];
  /** Files found before the file-count cap was applied. */
  discovered: number;
}

const _MAX_WARNINGS_PER_KIND = 20;

/**
 * Most bytes of a `.gitignore` read (local or remote): a larger one is skipped with a warning
 * that its rules are not applied (a 1 GB file was read whole, 1.1 GB peak, issue 25).
 */
export const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/** A `.gitignore` matcher for the directory `base`. */
export function gitignoreMatcher(base: string, text: string): GitignoreMatcher {
  return { base, ig: ignore({ allowRelativePaths: true }).add(text) };
}

/** The selection rules and their tallies for one walk. */
export class FileSelection {
  readonly skipCounts: Record<SkipReason, number> = Object.fromEntries(
    SKIP_REASONS.map((r) => [r, 0]),
  ) as Record<SkipReason, number>;
  readonly otherFiles: string[] = [];
  readonly maxFileBytes: number;
  readonly maxFiles: number;
  readonly #languageOf: (path: string) => string | undefined;
  readonly #extra: Ignore | null;
  readonly #notes = new Map<string, string[]>();

  constructor(options: SelectionOptions) {
    this.maxFileBytes = options.maxFileBytes ?? 500 * 1024;
    this.maxFiles = options.maxFiles ?? 100_000;
    this.#languageOf = options.languageOf;
    const extra = options.extraIgnorePatterns;
    this.#extra = extra !== undefined && extra.length > 0
      ? ignore({ allowRelativePaths: true }).add([...extra])
      : null;
  }

  /** Add a human-readable note of a kind (at most 20 per kind are reported). */
  note(kind: string, text: string): void {
    const list = this.#notes.get(kind) ?? [];
    list.push(text);
    this.#notes.set(kind, list);
  }

  /** Whether an ignore rule excludes a path, and which. */
  ignoredBy(
    rel: string,
    isDir: boolean,
    matchers: readonly GitignoreMatcher[],
  ): "gitignore" | "extra_ignore" | null {
    const probe = isDir ? rel + "/" : rel;
    // Deepest .gitignore first: the first one with an opinion decides (git semantics).
    for (let i = matchers.length - 1; i >= 0; i--) {
      const m = matchers[i]!;
      const local = m.base === "" ? probe : probe.slice(m.base.length + 1);
      const r = m.ig.test(local);
      if (r.ignored) return "gitignore";
      if (r.unignored) break;
    }
    if (this.#extra !== null && this.#extra.ignores(probe)) return "extra_ignore";
    return null;
  }

  /** Why a directory is not descended into, or null when it is (nothing counted). */
  dirVerdict(
    rel: string,
    name: string,
    matchers: readonly GitignoreMatcher[],
  ): SkipReason | null {
    if (isSkippedDir(name)) return "skip_dir";
    return this.ignoredBy(rel, true, matchers);
  }

  /** Whether to descend into a directory (counting why not). */
  acceptDir(rel: string, name: string, matchers: readonly GitignoreMatcher[]): boolean {
    const skip = this.dirVerdict(rel, name, matchers);
    if (skip !== null) this.skipCounts[skip]++;
    return skip === null;
  }

  /**
   * A file's language when its name passes the rules, else why not (nothing counted): ignore
   * rules, secret files, skipped names, binary extensions, then a language must claim it.
   */
  fileVerdict(
    rel: string,
    name: string,
    matchers: readonly GitignoreMatcher[],
  ): { language: string } | { skip: SkipReason } {
    const ignored = this.ignoredBy(rel, false, matchers);
    if (ignored !== null) return { skip: ignored };
    if (isSecretFile(name)) return { skip: "secret" };
    if (isSkippedFile(name)) return { skip: "skip_file" };
    if (hasBinaryExtension(name)) return { skip: "binary" };
    const language = this.#languageOf(rel);
    return language === undefined ? { skip: "wrong_extension" } : { language };
  }

  /**
   * The language of a file that passes the name rules, else undefined (counted). A file of no
   * language that is not ignored goes to `otherFiles`.
   */
  acceptFileName(
    rel: string,
    name: string,
    matchers: readonly GitignoreMatcher[],
  ): string | undefined {
    const v = this.fileVerdict(rel, name, matchers);
    if ("language" in v) return v.language;
    this.skipCounts[v.skip]++;
    if (v.skip === "secret") this.note("secret", `Skipped secret file: ${rel}`);
    if (v.skip === "wrong_extension") this.otherFiles.push(rel);
    return undefined;
  }

  /** Whether a file's size is within the limit (counting it when not). */
  acceptSize(rel: string, size: number): boolean {
    if (size <= this.maxFileBytes) return true;
    this.skipCounts.too_large++;
    this.note("too_large", `Skipped file over ${this.maxFileBytes} bytes: ${rel} (${size} bytes)`);
    return false;
  }

  /** Sort, apply the file-count cap, and gather the notes. */
  finish<F extends { path: string }>(files: F[]): SelectionResult<F> {
    files.sort(_byPath);
    this.otherFiles.sort();
    const discovered = files.length;
    let kept = files;
    if (files.length > this.maxFiles) {
      kept = [...files].sort(_capOrder).slice(0, this.maxFiles);
      kept.sort(_byPath);
      this.skipCounts.file_limit = files.length - this.maxFiles;
      this.note(
        "file_limit",
        `File cap reached: indexed ${this.maxFiles} of ${files.length} files (set JCODEMUNCH_MAX_FOLDER_FILES to raise it)`,
      );
    }
    const warnings: string[] = [];
    for (const [, list] of this.#notes) {
      warnings.push(...list.slice(0, _MAX_WARNINGS_PER_KIND));
      if (list.length > _MAX_WARNINGS_PER_KIND) {
        warnings.push(`... and ${list.length - _MAX_WARNINGS_PER_KIND} more like the above`);
      }
    }
    return {
      files: kept,
      otherFiles: this.otherFiles,
      skipCounts: this.skipCounts,
      warnings,
      discovered,
    };
  }
}

function _byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

const _PRIORITY_DIRS = ["src/", "lib/", "pkg/", "cmd/", "internal/"];

/** Which files survive the cap: priority directories, then shallower, then by path. */
function _capOrder(a: { path: string }, b: { path: string }): number {
  const pa = _priority(a.path), pb = _priority(b.path);
  if (pa !== pb) return pa - pb;
  const da = a.path.split("/").length, db = b.path.split("/").length;
  if (da !== db) return da - db;
  return _byPath(a, b);
}

function _priority(path: string): number {
  const i = _PRIORITY_DIRS.findIndex((d) => path.startsWith(d));
  return i === -1 ? _PRIORITY_DIRS.length : i;
}
