/**
 * Re-indexing a few files of an indexed folder (index_file, watch batches) without walking it
 * for change detection: each path is judged by the walk's own rules (`PathRules`), read, hashed
 * and re-parsed only when its content changed; a path that is gone, or that a rule now
 * excludes, is removed with its symbols. Everything happens in one write transaction of the
 * repo's index, exactly like a folder index: readers see the batch whole or not at all.
 *
 * Import resolution needs the repo's whole file list (go.mod, package.json, sibling files): it is
 * walked only when a stored import may change — a file was added or removed, or a parsed file
 * has imports.
 */
import { createHash } from "node:crypto";
import { join, relative, sep } from "node:path";
import { permissionError, ToolError } from "../errors.ts";
import { EXTRACTOR_VERSION } from "../parser/mod.ts";
import type { Store } from "../store/store.ts";
import type { RepoWriter } from "../store/repo_writer.ts";
import { localRepoId } from "../store/paths.ts";
import type { IngestConfig } from "./config.ts";
import { decodedText, looksBinary } from "./filters.ts";
import { callReferences, fileSummary, lineCount } from "../parser/file_summary.ts";
import type { FileParser } from "./source.ts";
import { languageOf } from "./language_of.ts";
import { parseSafely } from "./pipeline.ts";
import { resolveStoredImports } from "./resolve_stored.ts";
import { readFileInside } from "./safe_read.ts";
import { PathRules } from "./path_rules.ts";
import { isInside, type SkipReason, walkFolder } from "./walk.ts";

/** What became of one path of a batch. */
export type FileChange =
  | "added"
  | "changed"
  | "unchanged"
  | "deleted"
  /** Not indexed (a rule excludes it) and not in the index before either. */
  | "skipped"
  /** Not on disk and not in the index. */
  | "missing";

/** One path's outcome. */
export interface FileOutcome {
  /** Repo-relative path. */
  path: string;
  change: FileChange;
  /** Why the path is not indexed (for `skipped` and for `deleted` by a rule). */
  reason?: SkipReason | "file_limit";
  /** Symbols now stored for the file. */
  symbol_count?: number;
  /** Why the parser skipped the file or only partly parsed it. */
  parse_warning?: string;
}

/** What to re-index. */
export interface IndexFilesRequest {
  /** The indexed folder (absolute real path, as stored in the index's `source_root`). */
  root: string;
  /** Absolute paths, or paths relative to `root`; the ones outside `root` are refused. */
  paths: readonly string[];
  /** The folder index's extra ignore patterns (besides the configured ones). */
  extraIgnorePatterns?: readonly string[];
  /** @default false */
  followSymlinks?: boolean;
}

/** The outcome of one batch. */
export interface IndexFilesOutcome {
  repo: string;
  folder_path: string;
  files: FileOutcome[];
  added: number;
  changed: number;
  deleted: number;
  symbol_count: number;
  file_count: number;
  indexed_at: string;
  /** Whether the repo's whole file list was walked to re-resolve imports. */
  resolved_imports: boolean;
  duration_ms: number;
  /** Milliseconds per phase: waiting for the write lock, reading+parsing+storing, resolving, committing. */
  timings: { lock_ms: number; files_ms: number; resolve_ms: number; commit_ms: number };
}

/**
 * Re-index these files of the folder indexed at `request.root`. Fails with `repo_not_found`
 * when the folder has no index yet (index it with index_folder first).
 */
export async function indexLocalFiles(
  store: Store,
  config: IngestConfig,
  parser: FileParser,
  request: IndexFilesRequest,
): Promise<IndexFilesOutcome> {
  const t0 = performance.now();
  const root = request.root;
  const repo = localRepoId(root);
  if (!store.has(repo)) {
    throw new ToolError(
      "repo_not_found",
      `The folder ${root} is not indexed: run index_folder on it first`,
    );
  }
  const rels = new Set<string>();
  for (const p of request.paths) {
    const abs = p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p) ? p : join(root, p);
    if (!isInside(root, abs) || abs === root) {
      throw new ToolError(
        "path_outside_repo",
        `${p} is not a file inside the indexed folder ${root}`,
      );
    }
    rels.add(relative(root, abs).split(sep).join("/"));
  }
  const writer = await store.writer(repo, { waitMs: config.indexWaitMs });
  const lockMs = performance.now() - t0;
  try {
    const outcome = await _run(writer, root, repo, config, parser, request, [...rels].sort());
    const tc = performance.now();
    writer.commit();
    outcome.timings.commit_ms = performance.now() - tc;
    outcome.timings.lock_ms = lockMs;
    outcome.duration_ms = performance.now() - t0;
    return outcome;
  } catch (e) {
    writer.rollback();
    throw permissionError(e, root) ?? e;
  }
}

async function _run(
  writer: RepoWriter,
  root: string,
  repo: string,
  config: IngestConfig,
  parser: FileParser,
  request: IndexFilesRequest,
  rels: readonly string[],
): Promise<IndexFilesOutcome> {
  const prior = writer.meta();
  if (prior.file_count === 0 || prior.source_root === "") {
    throw new ToolError(
      "repo_not_found",
      `The folder ${root} has no completed index: run index_folder on it first`,
    );
  }
  if (prior.extractor_version !== EXTRACTOR_VERSION) {
    throw new ToolError(
      "index_outdated",
      `The index of ${root} was written by another parser version: run index_folder on it to rebuild it`,
    );
  }
  const extraIgnorePatterns = [
    ...config.extraIgnorePatterns,
    ...(request.extraIgnorePatterns ?? []),
  ];
  const rules = new PathRules(root, {
    languageOf,
    maxFileBytes: config.maxFileBytes,
    extraIgnorePatterns,
    followSymlinks: request.followSymlinks ?? false,
  });
  const tFiles = performance.now();
  let fileCount = prior.file_count;
  const outcomes: FileOutcome[] = [];
  const parsedWithImports: string[] = [];
  let added = 0, changed = 0, deleted = 0;
  const jobs: Promise<void>[] = [];
  for (const rel of rels) {
    const stored = writer.fileState(rel);
    const verdict = rules.check(rel);
    let reason: SkipReason | "file_limit" | undefined;
    if (verdict.kind === "index" && stored === undefined && fileCount >= config.maxFiles) {
      reason = "file_limit";
    } else if (verdict.kind === "skip") reason = verdict.reason;
    let bytes: Uint8Array | undefined;
    if (verdict.kind === "index" && reason === undefined) {
      try {
        // Open, then verify what was opened (safe_read.ts): a file swapped for a symlink is
        // refused, never read through.
        const read = readFileInside(verdict.file.absolute, root, {
          maxBytes: config.maxFileBytes,
          followSymlinks: request.followSymlinks ?? false,
        });
        if (typeof read === "string") reason = read === "not_regular" ? "unreadable" : read;
        else bytes = decodedText(read);
      } catch (e) {
        const denied = permissionError(e, verdict.file.absolute);
        if (denied !== null) throw denied;
        reason = e instanceof Deno.errors.NotFound ? undefined : "unreadable";
      }
      if (bytes !== undefined && looksBinary(bytes)) {
        bytes = undefined;
        reason = "binary";
      }
    }
    if (verdict.kind !== "index" || bytes === undefined) {
      if (stored !== undefined) {
        writer.deleteFile(rel);
        deleted++;
        fileCount--;
        outcomes.push({ path: rel, change: "deleted", ...(reason ? { reason } : {}) });
      } else {
        outcomes.push(
          reason === undefined
            ? { path: rel, change: "missing" }
            : { path: rel, change: "skipped", reason },
        );
      }
      continue;
    }
    const f = verdict.file;
    const hash = createHash("sha256").update(bytes).digest("hex");
    const checked = Date.now();
    if (stored !== undefined && stored.hash === hash) {
      // A stat that changed is recorded; an identical one is not written at all, so that the
      // index state (and every view built on it) stays the same.
      if (
        stored.mtime_ms !== f.mtime_ms || stored.ctime_ms !== f.ctime_ms || stored.size !== f.size
      ) {
        writer.touchFile(rel, f.mtime_ms, f.ctime_ms, checked);
      }
      outcomes.push({ path: rel, change: "unchanged" });
      continue;
    }
    const outcome: FileOutcome = { path: rel, change: stored === undefined ? "added" : "changed" };
    outcomes.push(outcome);
    if (stored === undefined) {
      added++;
      fileCount++;
    } else changed++;
    const content = bytes;
    // An edit that leaves a file's imports as they were (the usual edit) resolves them as
    // before, as long as no file was added or removed: keep the stored targets.
    const storedImports = stored === undefined ? [] : writer.imports([rel]);
    jobs.push(
      parseSafely(parser, rel, content).then((result) => {
        if (result.status !== "ok") {
          outcome.parse_warning = `${result.status}${result.reason ? ` (${result.reason})` : ""}`;
        }
        if (stored !== undefined && _sameImports(result.imports, storedImports)) {
          result.imports.forEach((imp, i) => imp.resolved = storedImports[i]!.resolved);
        } else if (result.imports.length > 0) parsedWithImports.push(rel);
        outcome.symbol_count = result.symbols.length;
        writer.putFile({
          path: rel,
          language: result.language || f.language,
          content,
          hash,
          mtime_ms: f.mtime_ms,
          ctime_ms: f.ctime_ms,
          checked_ms: checked,
          summary: fileSummary(result.symbols, callReferences(result.calls)),
          line_count: lineCount(content),
        }, result);
      }),
    );
  }
  await Promise.all(jobs);
  const filesMs = performance.now() - tFiles;

  const tResolve = performance.now();
  const resolve = added > 0 || deleted > 0 || parsedWithImports.length > 0;
  if (resolve) {
    const walk = walkFolder(root, {
      languageOf,
      maxFileBytes: config.maxFileBytes,
      maxFiles: config.maxFiles,
      extraIgnorePatterns,
      followSymlinks: request.followSymlinks ?? false,
    });
    const allFiles = new Set<string>([...walk.files.map((f) => f.path), ...walk.otherFiles]);
    const texts = new Map<string, string | undefined>();
    const readRepoFile = (p: string): string | undefined => {
      if (!allFiles.has(p)) return undefined;
      if (!texts.has(p)) {
        try {
          const read = readFileInside(join(root, p), root, { maxBytes: config.maxFileBytes });
          texts.set(p, typeof read === "string" ? undefined : new TextDecoder().decode(read));
        } catch {
          texts.set(p, undefined);
        }
      }
      return texts.get(p);
    };
    resolveStoredImports(
      writer,
      added > 0 || deleted > 0 ? null : parsedWithImports,
      allFiles,
      readRepoFile,
    );
  }
  writer.finish();
  const resolveMs = performance.now() - tResolve;
  const touched = added + changed + deleted > 0;
  const indexedAt = touched ? new Date().toISOString() : prior.indexed_at;
  // The source root, git head and skip counts stay those of the last folder index: a batch
  // does not look at the rest of the folder (a branch switch is a folder index's job).
  if (touched) writer.setMeta({ indexed_at: indexedAt, languages: writer.languageCounts() });
  const meta = writer.meta();
  return {
    repo,
    folder_path: root,
    files: outcomes,
    added,
    changed,
    deleted,
    symbol_count: meta.symbol_count,
    file_count: meta.file_count,
    indexed_at: indexedAt,
    resolved_imports: resolve,
    duration_ms: 0,
    timings: { lock_ms: 0, files_ms: filesMs, resolve_ms: resolveMs, commit_ms: 0 },
  };
}

function _sameImports(
  now: readonly { specifier: string; names: string[] }[],
  before: readonly { specifier: string; names: string[] }[],
): boolean {
  return now.length === before.length && now.every((imp, i) => {
    const b = before[i]!;
    return imp.specifier === b.specifier && imp.names.length === b.names.length &&
      imp.names.every((n, j) => n === b.names[j]);
  });
}
