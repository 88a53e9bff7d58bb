/**
 * Re-indexing a few files of an indexed folder (index_file, watch batches, a stale file a query
 * met) through the one indexing pipeline (`pipeline.ts`), scoped to those paths: each path is
 * judged by the walk's own rules (`PathRules`), read, hashed and re-parsed (with AI summaries
 * when a summarizer is given) only when its content changed; a path that is gone, or that a
 * rule now excludes, is removed with its symbols. It all happens in one write transaction of
 * the repo's index, exactly like a folder index: readers see the batch whole or not at all.
 *
 * The folder is never walked for change detection. Import resolution needs the repo's whole
 * file list (go.mod, package.json, sibling files): it is walked only when a stored import may
 * change — a file was added or removed, or a parsed file's imports changed.
 */
import { join, relative, sep } from "node:path";
import { permissionError, ToolError } from "../errors.ts";
import { projectIngestConfig } from "./project_config.ts";
import type { Store } from "../store/store.ts";
import { localRepoId } from "../store/paths.ts";
import type { IngestConfig } from "./config.ts";
import type { FileParser, ProgressFn, SymbolSummarizer } from "./source.ts";
import type { DiscoveryContext, SourceMeta } from "./source.ts";
import { languageOf } from "./language_of.ts";
import { type FileOutcome, type IndexOutcome, indexSource, type IndexTimings } from "./pipeline.ts";
import { PathRules } from "./path_rules.ts";
import { SKIP_REASONS, type SkipReason } from "./selection.ts";
import type { SelectionResult } from "./selection.ts";
import { LocalFolderSource } from "./local_source.ts";
import { FOLDER_OPTIONS_KEY, recordedFolderOptions } from "./folder_options.ts";
import { isInside, type WalkedFile, walkFolder } from "./walk.ts";

export type { FileChange, FileOutcome } from "./pipeline.ts";

/** What to re-index. */
export interface IndexFilesRequest {
  /** The indexed folder (absolute real path, as stored in the index's `source_root`). */
  root: string;
  /** Absolute paths, or paths relative to `root`; the ones outside `root` are refused. */
  paths: readonly string[];
  /**
   * The folder's own extra ignore patterns (besides the configured ones). @default the ones
   * recorded with the folder's index
   */
  extraIgnorePatterns?: readonly string[];
  /** @default the rule recorded with the folder's index (false when none was) */
  followSymlinks?: boolean;
  /** The AI summary tier; absent: docstring and signature summaries only. */
  summarizer?: SymbolSummarizer;
  onProgress?: ProgressFn;
}

/** The outcome of one batch. */
export interface IndexFilesOutcome {
  repo: string;
  folder_path: string;
  /** One entry per requested path, sorted by path. */
  files: FileOutcome[];
  added: number;
  changed: number;
  deleted: number;
  symbol_count: number;
  file_count: number;
  indexed_at: string;
  /** Whether stored imports were resolved again (the repo's file list was walked). */
  resolved_imports: boolean;
  /** Warnings of the run (a summary provider that failed, a symlink escape). */
  warnings: string[];
  duration_ms: number;
  timings: IndexTimings;
}

/**
 * Re-index these files of the folder indexed at `request.root`. Fails with `repo_not_found`
 * when the folder has no index yet (index it with index_folder first), `index_outdated` when its
 * index was written by another parser version.
 */
export async function indexLocalFiles(
  store: Store,
  config: IngestConfig,
  parser: FileParser,
  request: IndexFilesRequest,
): Promise<IndexFilesOutcome> {
  const root = request.root;
  const repo = localRepoId(root);
  if (!store.has(repo)) {
    throw new ToolError(
      "repo_not_found",
      `The folder ${root} is not indexed: run index_folder on it first`,
    );
  }
  const rels = [..._relativePaths(root, request.paths)].sort();
  // The folder's own .jcodemunch.jsonc may narrow the settings (project_config.ts).
  const project = projectIngestConfig(config, root);
  const source = new LocalFilesSource(root, rels, project.config, request);
  const outcome = await indexSource(store, project.config, parser, source, {
    ...(request.summarizer !== undefined ? { summarizer: request.summarizer } : {}),
    ...(request.onProgress !== undefined ? { onProgress: request.onProgress } : {}),
  }, (e) => permissionError(e, root) ?? e);
  outcome.warnings.push(...project.warnings);
  return _filesOutcome(outcome, rels, source.reasons);
}

/** Repo-relative POSIX paths of the request's paths (`path_outside_repo` for any outside). */
function _relativePaths(root: string, paths: readonly string[]): Set<string> {
  const rels = new Set<string>();
  for (const p of paths) {
    const abs = p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p) ? p : join(root, p);
    if (!isInside(root, abs) || abs === root) {
      throw new ToolError(
        "path_outside_repo",
        `${p} is not a file inside the indexed folder ${root}`,
      );
    }
    rels.add(relative(root, abs).split(sep).join("/"));
  }
  return rels;
}

/** One outcome per requested path: the pipeline's, else why the rules left it out. */
function _filesOutcome(
  o: IndexOutcome,
  rels: readonly string[],
  reasons: ReadonlyMap<string, SkipReason>,
): IndexFilesOutcome {
  const byPath = new Map((o.file_changes ?? []).map((f) => [f.path, f]));
  const files = rels.map((path): FileOutcome => {
    const f = byPath.get(path);
    const reason = reasons.get(path);
    if (f !== undefined) {
      return f.change === "deleted" && f.reason === undefined && reason !== undefined
        ? { ...f, reason }
        : f;
    }
    return reason === undefined ? { path, change: "missing" } : { path, change: "skipped", reason };
  });
  return {
    repo: o.repo,
    folder_path: o.folder_path,
    files,
    added: o.new,
    changed: o.changed,
    deleted: o.deleted,
    symbol_count: o.symbol_count,
    file_count: o.file_count,
    indexed_at: o.indexed_at,
    resolved_imports: o.imports_resolved,
    warnings: o.warnings,
    duration_ms: o.timings.total_ms,
    timings: o.timings,
  };
}

/**
 * Some files of an indexed folder as a pipeline source, scoped to their paths: the walk's rules
 * per path instead of the walk, every selected file read and hashed (the caller knows or
 * suspects it changed), the stored folder-wide facts kept.
 */
class LocalFilesSource extends LocalFolderSource {
  readonly scope: ReadonlySet<string>;
  /** Why the rules left a requested path out (the outcome reports it). */
  readonly reasons = new Map<string, SkipReason>();
  readonly #rels: readonly string[];
  readonly #config: IngestConfig;
  readonly #request: IndexFilesRequest;
  #prior: DiscoveryContext["prior"] | undefined;

  constructor(
    root: string,
    rels: readonly string[],
    config: IngestConfig,
    request: IndexFilesRequest,
  ) {
    super(root, {
      maxFileBytes: config.maxFileBytes,
      maxFiles: config.maxFiles,
      extraIgnorePatterns: config.extraIgnorePatterns,
      followSymlinks: request.followSymlinks ?? false,
    });
    this.scope = new Set(rels);
    this.#rels = rels;
    this.#config = config;
    this.#request = request;
  }

  override discover(context: DiscoveryContext): Promise<SelectionResult<WalkedFile>> {
    const prior = context.prior;
    if (prior.file_count === 0 || prior.source_root === "") {
      throw new ToolError(
        "repo_not_found",
        `The folder ${this.root} has no completed index: run index_folder on it first`,
      );
    }
    if (!context.incremental) {
      throw new ToolError(
        "index_outdated",
        `The index of ${this.root} was written by another parser or schema version: run index_folder on it to rebuild it`,
      );
    }
    this.#prior = prior;
    this.#useRecordedOptions(context.priorMetaValue(FOLDER_OPTIONS_KEY));
    const rules = new PathRules(this.root, {
      languageOf,
      maxFileBytes: this.options.maxFileBytes,
      extraIgnorePatterns: this.options.extraIgnorePatterns,
      followSymlinks: this.options.followSymlinks,
    });
    const skipCounts = Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<
      SkipReason,
      number
    >;
    const files: WalkedFile[] = [];
    let fileCount = prior.file_count;
    for (const rel of this.#rels) {
      const verdict = rules.check(rel);
      if (verdict.kind === "missing") continue;
      let reason = verdict.kind === "skip" ? verdict.reason : undefined;
      if (reason === undefined && !context.isStored(rel)) {
        if (fileCount >= this.#config.maxFiles) reason = "file_limit";
        else fileCount++;
      }
      if (reason !== undefined) {
        this.reasons.set(rel, reason);
        skipCounts[reason]++;
      } else if (verdict.kind === "index") files.push(verdict.file);
    }
    return Promise.resolve({
      files,
      otherFiles: [],
      skipCounts,
      warnings: [],
      discovered: files.length,
    });
  }

  /** The request's options, else the ones the folder was indexed with. */
  #useRecordedOptions(recorded: string | undefined): void {
    const r = recordedFolderOptions(recorded);
    const extra = this.#request.extraIgnorePatterns ?? r.extraIgnorePatterns ?? [];
    this.options = {
      ...this.options,
      extraIgnorePatterns: [...this.#config.extraIgnorePatterns, ...extra],
      followSymlinks: this.#request.followSymlinks ?? r.followSymlinks ?? false,
    };
  }

  override isUnchanged(): boolean {
    return false;
  }

  override closingWarnings(): string[] {
    return [];
  }

  repoPaths(): Set<string> {
    const walk = walkFolder(this.root, {
      languageOf,
      maxFileBytes: this.options.maxFileBytes,
      maxFiles: this.options.maxFiles,
      extraIgnorePatterns: this.options.extraIgnorePatterns,
      followSymlinks: this.options.followSymlinks,
    });
    return new Set<string>([...walk.files.map((f) => f.path), ...walk.otherFiles]);
  }

  override meta(): SourceMeta {
    const prior = this.#prior!;
    return {
      owner: prior.owner,
      name: prior.name,
      display_name: prior.display_name,
      source_root: prior.source_root,
      git_head: prior.git_head,
    };
  }
}
