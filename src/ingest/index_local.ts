/**
 * Indexing a local folder: the folder argument's checks (allowed roots, existence, the "too
 * broad" guard), then the source-agnostic pipeline (`pipeline.ts`) over a `LocalFolderSource`.
 *
 * Incremental by default: a file whose size, mtime and ctime match what was stored is not even
 * read; any other file is read and hashed, and re-parsed only when its SHA-256 changed. Files
 * that disappeared, or that a rule now excludes, are removed with their symbols, imports and calls.
 */
import { isAbsolute, resolve } from "node:path";
import type { Store } from "../store/store.ts";
import { expandHome } from "../store/paths.ts";
import { allowFolderRemedy, permissionError, ToolError } from "../errors.ts";
import { projectIngestConfig } from "./project_config.ts";
import { homeExpander, type IngestConfig } from "./config.ts";
import { isInside } from "./walk.ts";
import { type IndexOutcome, indexSource } from "./pipeline.ts";
import { LocalFolderSource } from "./local_source.ts";
import type { FileParser, ProgressFn, SymbolSummarizer } from "./source.ts";

export type { FileParser, ProgressFn, SymbolSummarizer } from "./source.ts";
export type { FolderIndexOptions } from "./folder_options.ts";
export type { IndexOutcome, IndexTimings } from "./pipeline.ts";

/** What to index and how. */
export interface IndexFolderRequest {
  /** Folder path as given: absolute, relative to `cwd`, or starting with `~`. */
  path: string;
  extraIgnorePatterns?: readonly string[];
  /** @default false */
  followSymlinks?: boolean;
  /** @default true */
  incremental?: boolean;
  onProgress?: ProgressFn;
  /** Base for a relative `path`. @default Deno.cwd() */
  cwd?: string;
  /** The AI summary tier; absent: docstring and signature summaries only. */
  summarizer?: SymbolSummarizer;
}

/**
 * Resolve and vet a folder argument: `~` expansion, resolution against `cwd`, the allowed-roots
 * check (before the disk is touched), existence, and the "too broad" guard. Returns the folder's
 * real path.
 */
export function resolveFolder(
  path: string,
  config: IngestConfig,
  cwd: string | (() => string),
): string {
  if (typeof path !== "string" || path.trim() === "") {
    throw new ToolError("invalid_argument", 'Argument "path" must be a non-empty folder path');
  }
  const expanded = expandHome(path.trim(), homeExpander(config.home));
  // Only a relative path needs the working directory (reading it needs a permission of its own).
  const absolute = isAbsolute(expanded)
    ? resolve(expanded)
    : resolve(typeof cwd === "string" ? cwd : cwd(), expanded);
  const roots = config.allowedRoots;
  const allowed = (p: string) => roots === null || roots.some((r) => isInside(r, p));
  const outside = () =>
    roots?.length === 0
      ? new ToolError(
        "path_outside_allowed_roots",
        `Cannot index "${absolute}": no folder may be indexed, as CODEMUNCH_ALLOWED_ROOTS is not set and codemunch was started in a filesystem root or the home directory`,
        allowFolderRemedy(absolute, "set"),
      )
      : new ToolError(
        "path_outside_allowed_roots",
        `Cannot index "${absolute}": it is outside the allowed roots (${roots?.join(", ")})`,
        allowFolderRemedy(absolute, "add"),
      );
  if (!allowed(absolute)) throw outside();
  let real: string;
  try {
    real = Deno.realPathSync(absolute);
  } catch (e) {
    const denied = permissionError(e, absolute);
    if (denied !== null) throw denied;
    if (e instanceof Deno.errors.NotFound) {
      throw new ToolError("folder_not_found", `Folder not found: ${absolute}`);
    }
    throw new ToolError("folder_not_found", `Cannot open folder ${absolute}: ${_message(e)}`);
  }
  if (!allowed(real) && !(roots ?? []).some((r) => _realInside(r, real))) throw outside();
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(real);
  } catch (e) {
    throw permissionError(e, real) ??
      new ToolError("folder_not_found", `Cannot open folder ${absolute}: ${_message(e)}`);
  }
  if (!info.isDirectory) {
    throw new ToolError("invalid_argument", `Not a directory: ${absolute}. Pass a folder path`);
  }
  if (real.split(/[\\/]/).filter((p) => p !== "").length < 2) {
    throw new ToolError(
      "path_too_broad",
      `Refusing to index "${real}": the folder is too broad. Pass a project folder`,
    );
  }
  return real;
}

function _realInside(root: string, real: string): boolean {
  try {
    return isInside(Deno.realPathSync(root), real);
  } catch {
    return false;
  }
}

/** Index (or re-index) a local folder into the store. */
export function indexLocalFolder(
  store: Store,
  config: IngestConfig,
  parser: FileParser,
  request: IndexFolderRequest,
): Promise<IndexOutcome> {
  const root = resolveFolder(request.path, config, request.cwd ?? (() => Deno.cwd()));
  // The folder's own .jcodemunch.jsonc may narrow the settings (project_config.ts).
  const project = projectIngestConfig(config, root);
  return _withWarnings(
    _indexFolder(store, project.config, parser, request, root),
    project.warnings,
  );
}

/** An outcome with the project file's warnings added. */
async function _withWarnings(
  run: Promise<IndexOutcome>,
  warnings: readonly string[],
): Promise<IndexOutcome> {
  const outcome = await run;
  if (warnings.length > 0) outcome.warnings.push(...warnings);
  return outcome;
}

function _indexFolder(
  store: Store,
  config: IngestConfig,
  parser: FileParser,
  request: IndexFolderRequest,
  root: string,
): Promise<IndexOutcome> {
  const source = new LocalFolderSource(root, {
    maxFileBytes: config.maxFileBytes,
    maxFiles: config.maxFiles,
    extraIgnorePatterns: [...config.extraIgnorePatterns, ...(request.extraIgnorePatterns ?? [])],
    followSymlinks: request.followSymlinks ?? false,
    recorded: {
      ...(request.extraIgnorePatterns !== undefined
        ? { extraIgnorePatterns: request.extraIgnorePatterns }
        : {}),
      ...(request.followSymlinks !== undefined ? { followSymlinks: request.followSymlinks } : {}),
    },
  });
  return indexSource(store, config, parser, source, {
    ...(request.incremental !== undefined ? { incremental: request.incremental } : {}),
    ...(request.onProgress !== undefined ? { onProgress: request.onProgress } : {}),
    ...(request.summarizer !== undefined ? { summarizer: request.summarizer } : {}),
  }, (e) => permissionError(e, root) ?? e);
}

function _message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
