/**
 * What every read tool shares: the context a handler runs in, the output it returns to the
 * server (the response plus what the envelope needs: raw bytes for `tokens_saved`, extra `_meta`),
 * and the lookups that fail with a helpful `ToolError` (unknown repo with the indexed ones, file
 * not in the index with the closest paths).
 */
import type { Store } from "../store/store.ts";
import type { FileEntry, RepoIndex } from "../store/repo_index.ts";
import type { SymbolKind } from "../parser/types.ts";
import { join } from "node:path";
import { readGitHead } from "../ingest/git_head.ts";
import type { IngestConfig } from "../ingest/config.ts";
import type { FileParser, ProgressFn } from "../ingest/index_local.ts";
import { ToolError, type ToolErrorCode } from "./errors.ts";

/** What a tool handler needs; built once per server (no module-level state). */
export interface ToolContext {
  store: Store;
  /** Indexing settings. */
  ingest: IngestConfig;
  /** The long-lived parser for index runs (created on first use). */
  parser: () => FileParser;
  /** Base for relative folder paths. */
  cwd: string;
  /** Progress of the current index run, when the caller asked for it. */
  onProgress?: ProgressFn;
  /** Per-server caches of derived data, keyed by repo id and index time. */
  cache: Map<string, { key: string; value: unknown }>;
}

/** What a tool returns to the server. */
export interface ToolOutput {
  /** The response object (API.md), without `_meta`. */
  response: Record<string, unknown>;
  /** Bytes an agent would have read without the tool (for `tokens_saved`); 0 when not a read. */
  rawBytes?: number;
  /** Repo id the call was about. */
  repo?: string;
  /** Tool-specific `_meta` fields (`truncated`, `hint`, `files_searched`, …). */
  meta?: Record<string, unknown>;
}

/** A `ToolError` that carries extra fields for the error object (candidates, closest matches). */
export class DetailedToolError extends ToolError {
  /** Extra fields of the error object, e.g. `{candidates: [...]}`. */
  readonly details: Record<string, unknown>;

  constructor(code: ToolErrorCode, message: string, details: Record<string, unknown>) {
    super(code, message);
    this.details = details;
  }
}

/** Most repo ids listed in a `repo_not_found` error. */
const _MAX_LISTED_REPOS = 10;

/**
 * Open a repo's index by identifier. An unknown repo fails with `repo_not_found` and, when few
 * repos are indexed, their ids; an ambiguous bare name with `repo_ambiguous` and the candidates.
 */
export function openRepo(ctx: ToolContext, identifier: string): { repo: string; index: RepoIndex } {
  try {
    const repo = ctx.store.resolveRepo(identifier);
    return { repo, index: ctx.store.repo(repo) };
  } catch (e) {
    if (!(e instanceof ToolError) || e instanceof DetailedToolError) throw e;
    if (e.code === "repo_not_found") {
      const repos = ctx.store.repoIds();
      if (repos.length === 0) {
        throw new DetailedToolError(
          e.code,
          `${e.message}. No repository is indexed yet: run index_folder with a folder path first`,
          { repos: [] },
        );
      }
      if (repos.length <= _MAX_LISTED_REPOS) {
        throw new DetailedToolError(e.code, `${e.message}. Indexed: ${repos.join(", ")}`, {
          repos,
        });
      }
    }
    if (e.code === "repo_ambiguous") {
      const list = e.message.split("Use one of: ")[1]?.split(", ") ?? [];
      throw new DetailedToolError(e.code, e.message, { candidates: list });
    }
    throw e;
  }
}

/** Cached derived data of a repo, recomputed when the repo was re-indexed. */
export function cached<T>(
  ctx: ToolContext,
  repo: string,
  index: RepoIndex,
  what: string,
  f: () => T,
): T {
  const key = _dbVersionNow(ctx, index.dbPath);
  const slot = `${what}\u0000${repo}`;
  const hit = ctx.cache.get(slot);
  if (hit !== undefined && hit.key === key) return hit.value as T;
  const value = f();
  ctx.cache.set(slot, { key, value });
  return value;
}

/**
 * {@linkcode _dbVersion}, stat'ed once per synchronous stretch of a call (a handler asks for
 * several cached values in a row): the memo is dropped at the next microtask, so an index
 * written in between is always seen.
 */
function _dbVersionNow(ctx: ToolContext, path: string): string {
  let memo = ctx.cache.get(_VERSIONS_SLOT)?.value as Map<string, string> | undefined;
  if (memo === undefined) {
    memo = new Map();
    ctx.cache.set(_VERSIONS_SLOT, { key: "", value: memo });
    queueMicrotask(() => ctx.cache.delete(_VERSIONS_SLOT));
  }
  let version = memo.get(path);
  if (version === undefined) memo.set(path, version = _dbVersion(path));
  return version;
}

/** The `ctx.cache` slot of {@linkcode _dbVersionNow}'s memo (no repo id contains NUL). */
const _VERSIONS_SLOT = "\u0000db-versions";

/** Identity of a database's current state: size and mtime of the file and its WAL (cheap stats). */
function _dbVersion(path: string): string {
  const stat = (p: string) => {
    try {
      const s = Deno.statSync(p);
      return `${s.ino}:${s.size}:${s.mtime?.getTime()}`;
    } catch {
      return "-";
    }
  };
  return `${stat(path)}/${stat(path + "-wal")}`;
}

/**
 * The file at `path` exactly as indexed; otherwise `file_not_found` with up to 5 indexed paths
 * that look closest (same file name first, then by edit distance).
 */
export function requireFile(index: RepoIndex, repo: string, path: string): FileEntry {
  const entry = index.file(path);
  if (entry !== undefined) return entry;
  const closest = closestPaths(index.listFiles().map((f) => f.path), path, 5);
  throw new DetailedToolError(
    "file_not_found",
    `File not found in the index of ${repo}: ${path}. Paths are repo-relative with "/" as in get_file_tree${
      closest.length > 0 ? `; did you mean ${closest.join(", ")}?` : ""
    }`,
    { closest },
  );
}

/** Up to `n` of `paths` closest to `wanted`: same base name, then substring, then edit distance. */
export function closestPaths(paths: readonly string[], wanted: string, n: number): string[] {
  const base = wanted.slice(wanted.lastIndexOf("/") + 1).toLowerCase();
  const sameBase = paths.filter((p) => p.slice(p.lastIndexOf("/") + 1).toLowerCase() === base);
  if (sameBase.length > 0) return sameBase.slice(0, n);
  const lower = wanted.toLowerCase();
  const containing = base === "" ? [] : paths.filter((p) => p.toLowerCase().includes(base));
  if (containing.length > 0) return containing.slice(0, n);
  return paths
    .map((p) => ({ p, d: levenshtein(p.toLowerCase(), lower, 8) }))
    .filter((x) => x.d <= 8)
    .sort((a, b) => a.d - b.d || (a.p < b.p ? -1 : 1))
    .slice(0, n)
    .map((x) => x.p);
}

/**
 * Levenshtein distance, giving up (returning `max + 1`) once it must exceed `max`.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { levenshtein } from "./context.ts";
 * equal(levenshtein("kitten", "sitting"), 3);
 * equal(levenshtein("abc", "xyzxyz", 2), 3);
 * ```
 */
export function levenshtein(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(
        prev[j]! + 1,
        cur[j - 1]! + 1,
        prev[j - 1]! + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1),
      );
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * A file glob as Python's `fnmatch` reads it (`*` also crosses `/`, `?` one character,
 * `[...]` a class), matched against the whole path or any `/`-suffix of it, so `*.go` and
 * `handler.go` both work.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { globMatcher } from "./context.ts";
 * const m = globMatcher("src/*.ts");
 * equal(m("src/a/b.ts"), true);
 * equal(globMatcher("b.ts")("src/a/b.ts"), true);
 * equal(m("lib/b.ts"), false);
 * ```
 */
export function globMatcher(pattern: string): (path: string) => boolean {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "*") re += ".*";
    else if (ch === "?") re += ".";
    else if (ch === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close === -1) re += "\\[";
      else {
        let body = pattern.slice(i + 1, close).replaceAll("\\", "\\\\");
        if (body.startsWith("!")) body = "^" + body.slice(1);
        re += `[${body}]`;
        i = close;
      }
    } else re += ch.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  const full = new RegExp(`^(?:${re})$`, "s");
  const suffix = new RegExp(`(?:^|/)(?:${re})$`, "s");
  return (path) => full.test(path) || suffix.test(path);
}

/** Sum of the sizes of the distinct indexed files among `paths`. */
export function bytesOfFiles(
  ctx: ToolContext,
  repo: string,
  index: RepoIndex,
  paths: Iterable<string>,
): number {
  const unique = new Set(paths);
  if (unique.size === 0) return 0;
  const files = fileMap(ctx, repo, index);
  let total = 0;
  for (const p of unique) total += files.get(p)?.size ?? 0;
  return total;
}

/** Every indexed file by path, loaded once per index state. */
export function fileMap(ctx: ToolContext, repo: string, index: RepoIndex): Map<string, FileEntry> {
  return cached(
    ctx,
    repo,
    index,
    "files",
    () => new Map(index.listFiles().map((f) => [f.path, f])),
  );
}

/** How current the indexed copy of a file is (API.md §4.5). */
export type Freshness = "fresh" | "edited_uncommitted" | "stale_index";

/**
 * A checker of per-file freshness for a local repo: `stale_index` when the folder's git HEAD is
 * not the indexed commit, else `edited_uncommitted` when the file on disk is newer than the
 * indexed copy by more than a second (or is gone), else `fresh`. Returns null for a file it
 * cannot check (a remote repo, or a folder this server may not read).
 */
export function freshnessChecker(
  ctx: ToolContext,
  repo: string,
  index: RepoIndex,
): (file: string) => Freshness | null {
  const meta = cached(ctx, repo, index, "meta", () => index.meta());
  const root = meta.source_root;
  if (root === "") return () => null;
  let headMoved: boolean | undefined;
  const files = fileMap(ctx, repo, index);
  const memo = new Map<string, Freshness | null>();
  return (file) => {
    headMoved ??= meta.git_head !== "" &&
      ((head) => head !== "" && head !== meta.git_head)(readGitHead(root));
    if (headMoved) return "stale_index";
    if (memo.has(file)) return memo.get(file)!;
    let result: Freshness | null = null;
    const entry = files.get(file);
    if (entry !== undefined) {
      try {
        const mtime = Deno.statSync(join(root, file)).mtime?.getTime() ?? 0;
        result = mtime > entry.mtime_ms + 1000 ? "edited_uncommitted" : "fresh";
      } catch (e) {
        if (e instanceof Deno.errors.NotFound) result = "edited_uncommitted";
      }
    }
    memo.set(file, result);
    return result;
  };
}

/** Add `_freshness` to each entry with a `file`; returns the counts for `_meta.freshness`. */
export function markFreshness(
  entries: Record<string, unknown>[],
  check: (file: string) => Freshness | null,
): Record<string, number> | null {
  const counts: Record<string, number> = { fresh: 0, edited_uncommitted: 0, stale_index: 0 };
  let any = false;
  for (const e of entries) {
    const f = check(String(e.file));
    if (f === null) continue;
    e._freshness = f;
    counts[f]!++;
    any = true;
  }
  return any ? counts : null;
}

/** The fields of a symbol that whole-repo summaries and the fuzzy name index need. */
export interface SymbolBrief {
  id: string;
  name: string;
  kind: SymbolKind;
  language: string;
  file: string;
  byte_length: number;
}

/**
 * Every symbol of a repo in brief, in file and source order, loaded once per index state and
 * shared by the tools that need the whole list (the repo outline, the fuzzy name index).
 */
export function symbolBriefs(ctx: ToolContext, repo: string, index: RepoIndex): SymbolBrief[] {
  return cached(ctx, repo, index, "symbol-briefs", () =>
    index.allSymbols().map((s) => ({
      id: s.id,
      name: s.name,
      kind: s.kind,
      language: s.language,
      file: s.file,
      byte_length: s.byte_length,
    })));
}
