/**
 * The walk's rules for one path: would a full walk of the folder (`walkFolder`) index this
 * repo-relative file, and if not, why? Re-indexing a few files (index_file, a watch batch) must
 * keep exactly what a full index keeps, without walking the folder: each ancestor directory is
 * checked as the walk would meet it (symlinks, then `FileSelection`'s directory rules with the
 * `.gitignore` files of every level above), then the file itself (`FileSelection`'s file rules,
 * the very code the walk runs). `tests/ingest/path_rules_test.ts` checks both agree on real trees.
 *
 * `.gitignore` files are read once per {@linkcode PathRules} (one batch); make a new one when a
 * `.gitignore` may have changed.
 */
import { join } from "node:path";
import { FileSelection, type GitignoreMatcher, gitignoreMatcher } from "./selection.ts";
import { isInside, type SkipReason, type WalkedFile } from "./walk.ts";

/** What the rules say about one path. */
export type PathVerdict =
  | { kind: "index"; file: WalkedFile }
  | { kind: "skip"; reason: SkipReason }
  /** Nothing at that path (deleted, or a directory). */
  | { kind: "missing" };

/** The options of the walk these rules mirror. */
export interface PathRulesOptions {
  /** Language id of a repo-relative path, or undefined when no language claims it. */
  languageOf: (path: string) => string | undefined;
  /** @default 512000 */
  maxFileBytes?: number;
  extraIgnorePatterns?: readonly string[];
  /** @default false */
  followSymlinks?: boolean;
}

/** The walk's rules over one folder (an absolute real path). */
export class PathRules {
  readonly #root: string;
  readonly #options: PathRulesOptions;
  readonly #selection: FileSelection;
  /** `.gitignore` matcher of a directory (repo-relative, "" for the root), null when none. */
  readonly #gitignores = new Map<string, GitignoreMatcher | null>();

  constructor(root: string, options: PathRulesOptions) {
    this.#root = root;
    this.#options = options;
    this.#selection = new FileSelection({
      languageOf: options.languageOf,
      ...(options.maxFileBytes !== undefined ? { maxFileBytes: options.maxFileBytes } : {}),
      ...(options.extraIgnorePatterns !== undefined
        ? { extraIgnorePatterns: options.extraIgnorePatterns }
        : {}),
    });
  }

  /** The verdict for a repo-relative POSIX path. */
  check(rel: string): PathVerdict {
    const parts = rel.split("/");
    if (rel === "" || parts.some((p) => p === "" || p === "." || p === "..")) {
      return { kind: "skip", reason: "path_traversal" };
    }
    const matchers: GitignoreMatcher[] = [];
    const rootMatcher = this.#gitignore("");
    if (rootMatcher !== null) matchers.push(rootMatcher);
    // Each ancestor directory, as the walk meets it from the root down.
    for (let i = 0; i < parts.length - 1; i++) {
      const dirRel = parts.slice(0, i + 1).join("/");
      const name = parts[i]!;
      let info: Deno.FileInfo;
      try {
        info = Deno.lstatSync(join(this.#root, dirRel));
      } catch (e) {
        if (e instanceof Deno.errors.NotCapable) throw e;
        return { kind: "missing" };
      }
      // Symlinked directories are never descended, followed or not.
      if (info.isSymlink) return { kind: "skip", reason: "symlink" };
      if (!info.isDirectory) return { kind: "missing" };
      const skip = this.#selection.dirVerdict(dirRel, name, matchers);
      if (skip !== null) return { kind: "skip", reason: skip };
      const m = this.#gitignore(dirRel);
      if (m !== null) matchers.push(m);
    }
    const name = parts[parts.length - 1]!;
    const abs = join(this.#root, rel);
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(abs);
    } catch (e) {
      if (e instanceof Deno.errors.NotCapable) throw e;
      return { kind: "missing" };
    }
    let absolute = abs;
    if (info.isSymlink) {
      if (!this.#options.followSymlinks) return { kind: "skip", reason: "symlink" };
      let real: string;
      try {
        real = Deno.realPathSync(abs);
      } catch (e) {
        if (e instanceof Deno.errors.NotCapable) return { kind: "skip", reason: "symlink_escape" };
        return { kind: "skip", reason: "symlink" };
      }
      if (!isInside(this.#root, real)) return { kind: "skip", reason: "symlink_escape" };
      try {
        info = Deno.statSync(real);
      } catch {
        return { kind: "skip", reason: "unreadable" };
      }
      if (!info.isFile) return { kind: "skip", reason: "symlink" };
      absolute = real;
    } else if (!info.isFile) {
      return { kind: "missing" };
    }
    const verdict = this.#selection.fileVerdict(rel, name, matchers);
    if ("skip" in verdict) return { kind: "skip", reason: verdict.skip };
    const language = verdict.language;
    if (info.size > this.#selection.maxFileBytes) return { kind: "skip", reason: "too_large" };
    return {
      kind: "index",
      file: {
        path: rel,
        absolute,
        language,
        size: info.size,
        mtime_ms: info.mtime?.getTime() ?? 0,
        ctime_ms: info.ctime?.getTime() ?? 0,
      },
    };
  }

  #gitignore(dirRel: string): GitignoreMatcher | null {
    if (this.#gitignores.has(dirRel)) return this.#gitignores.get(dirRel)!;
    let matcher: GitignoreMatcher | null = null;
    try {
      const path = join(this.#root, dirRel, ".gitignore");
      if (Deno.lstatSync(path).isFile) {
        matcher = gitignoreMatcher(dirRel, Deno.readTextFileSync(path));
      }
    } catch (e) {
      if (e instanceof Deno.errors.NotCapable) throw e;
    }
    this.#gitignores.set(dirRel, matcher);
    return matcher;
  }
}
