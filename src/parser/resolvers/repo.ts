/**
 * What every import resolver shares: the view of the repository it may consult and the path
 * helpers (POSIX, repo-relative, never above the root).
 */
import { posix } from "node:path";
import type { ImportRecord } from "../types.ts";

/** What a resolver may consult about the repository. */
export interface RepoView {
  files: ReadonlySet<string>;
  readFile: (path: string) => string | undefined;
  /**
   * The name of the repository's root folder (a local folder's last segment, a GitHub
   * repository's name), when known: a language that imports a folder by its name (Python) reads
   * its own package name from it.
   */
  rootName?: string;
  /** Lazily computed per-repo facts, cached by key. */
  memo<T>(key: string, compute: () => T): T;
}

/** Resolve one import of `file`; null when the specifier is external or unknown. */
export type Resolver = (file: string, record: ImportRecord, repo: RepoView) => string | null;

/** The first candidate path that is a file of the repo (normalized, never above the root). */
export function firstFile(repo: RepoView, candidates: Iterable<string>): string | null {
  for (const c of candidates) {
    const n = posix.normalize(c);
    if (!n.startsWith("../") && n !== ".." && repo.files.has(n)) return n;
  }
  return null;
}

/** The directory of a repo-relative path (`""` at the root). */
export function dirName(file: string): string {
  const d = posix.dirname(file);
  return d === "." ? "" : d;
}

/** Join path parts, skipping empty ones. */
export function joinPath(...parts: string[]): string {
  return posix.join(...parts.filter((p) => p !== ""));
}
