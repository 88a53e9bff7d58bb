/**
 * Indexing a local folder: walk → change detection by content hash → parse the new and changed
 * files → store, all inside one write transaction of the repo's index (see `RepoWriter`).
 *
 * Incremental by default: a file whose size, mtime and ctime match what was stored (and whose
 * mtime is not so recent that a same-millisecond edit could hide) is not even read; any other
 * file is read and hashed, and re-parsed only when its SHA-256 changed. Files that disappeared,
 * or that a rule now excludes, are removed with their symbols, imports and calls.
 */
import { createHash } from "node:crypto";
import { basename, isAbsolute, join, resolve } from "node:path";
import {
  EXTRACTOR_VERSION,
  isTextLanguage,
  languageIdForPath,
  type ParseResult,
  resolveImports,
} from "../parser/mod.ts";
import type { Store } from "../store/store.ts";
import type { RepoWriter, StoredFileState } from "../store/repo_writer.ts";
import { expandHome, localRepoId } from "../store/paths.ts";
import { permissionError, ToolError } from "../errors.ts";
import type { IngestConfig } from "./config.ts";
import { looksBinary } from "./filters.ts";
import { isInside, type SkipReason, type WalkedFile, walkFolder } from "./walk.ts";
import { fileSummary, lineCount } from "./file_summary.ts";
import { readGitHead } from "./git_head.ts";

/** Something that parses files: a `ParserPool` or an in-thread adapter over `parseSource`. */
export interface FileParser {
  parse(file: string, bytes: Uint8Array): Promise<ParseResult>;
  /** Get ready to parse files of these languages soon (start a worker, load grammars). */
  prewarm?(languages: readonly string[]): void;
}

/** Progress callback: `done` of `total` files processed, `path` the last one. */
export type ProgressFn = (done: number, total: number, path: string) => void;

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
}

/** Wall-clock time spent in each phase, in milliseconds. */
export interface IndexTimings {
  total_ms: number;
  lock_ms: number;
  walk_ms: number;
  read_hash_ms: number;
  /** Time in the parse pipeline not spent on the main thread reading or storing. */
  parse_ms: number;
  /** Inserting rows (files, symbols, imports, calls). */
  store_ms: number;
  /** Building the full-text indexes (trigram text index + symbol FTS5). */
  fts_ms: number;
  resolve_ms: number;
  commit_ms: number;
}

/** The outcome of one index run. */
export interface IndexOutcome {
  repo: string;
  folder_path: string;
  /** `full` (rebuilt), `incremental` (changes applied) or `unchanged`. */
  mode: "full" | "incremental" | "unchanged";
  indexed_at: string;
  file_count: number;
  symbol_count: number;
  file_summary_count: number;
  languages: Record<string, number>;
  /** The first 20 indexed paths. */
  files: string[];
  changed: number;
  new: number;
  deleted: number;
  discovery_skip_counts: Record<SkipReason, number>;
  no_symbols_count: number;
  no_symbols_files: string[];
  /** Files the parser skipped or only partly parsed, with the reason. */
  parse_warnings: string[];
  warnings: string[];
  files_discovered: number;
  files_indexed: number;
  files_skipped_cap: number;
  timings: IndexTimings;
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
  const expanded = expandHome(path.trim(), (n) => Deno.env.get(n));
  // Only a relative path needs the working directory (reading it needs a permission of its own).
  const absolute = isAbsolute(expanded)
    ? resolve(expanded)
    : resolve(typeof cwd === "string" ? cwd : cwd(), expanded);
  const roots = config.allowedRoots;
  const allowed = (p: string) => roots === null || roots.some((r) => isInside(r, p));
  const outside = () =>
    new ToolError(
      "path_outside_allowed_roots",
      `Cannot index "${absolute}": it is outside the allowed roots (${
        roots?.join(", ")
      }). Add it to CODEMUNCH_ALLOWED_ROOTS and restart the server`,
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
export async function indexLocalFolder(
  store: Store,
  config: IngestConfig,
  parser: FileParser,
  request: IndexFolderRequest,
): Promise<IndexOutcome> {
  const t0 = performance.now();
  const root = resolveFolder(request.path, config, request.cwd ?? (() => Deno.cwd()));
  const repo = localRepoId(root);
  const timings: IndexTimings = {
    total_ms: 0,
    lock_ms: 0,
    walk_ms: 0,
    read_hash_ms: 0,
    parse_ms: 0,
    store_ms: 0,
    fts_ms: 0,
    resolve_ms: 0,
    commit_ms: 0,
  };
  const existed = store.has(repo);
  const writer = await store.writer(repo, { waitMs: config.indexWaitMs });
  timings.lock_ms = performance.now() - t0;
  try {
    const outcome = await _run(writer, root, repo, config, parser, request, timings);
    const tc = performance.now();
    writer.commit();
    timings.commit_ms = performance.now() - tc;
    timings.total_ms = performance.now() - t0;
    return outcome;
  } catch (e) {
    writer.rollback();
    // A failed first index leaves no empty database behind.
    if (!existed) await store.deleteIfEmpty(repo);
    throw permissionError(e, root) ?? e;
  }
}

async function _run(
  writer: RepoWriter,
  root: string,
  repo: string,
  config: IngestConfig,
  parser: FileParser,
  request: IndexFolderRequest,
  timings: IndexTimings,
): Promise<IndexOutcome> {
  const warnings: string[] = [];
  if (writer.schemaWarning !== null) warnings.push(writer.schemaWarning);
  const priorMeta = writer.meta();
  // Records of unchanged files written by another parser version would stay as they were.
  const staleParser = priorMeta.file_count > 0 &&
    priorMeta.extractor_version !== EXTRACTOR_VERSION;
  const incremental = (request.incremental ?? true) && writer.schemaWarning === null &&
    priorMeta.file_count > 0 && !staleParser;
  if (staleParser && (request.incremental ?? true) && writer.schemaWarning === null) {
    warnings.push(
      `Rebuilt in full: the index was written by another parser version (${priorMeta.extractor_version}, this build ${EXTRACTOR_VERSION})`,
    );
  }
  const full = !incremental;
  // A re-index usually parses a few files of the repo's main language: let the parser start
  // (worker start-up, grammar load) while this thread walks the folder.
  if (incremental) parser.prewarm?.(_mainLanguages(priorMeta.languages));
  if (full) writer.clear();
  const stored: Map<string, StoredFileState> = full ? new Map() : writer.fileStates();

  let t = performance.now();
  const walk = walkFolder(root, {
    languageOf: (p) => _languageOf(p),
    maxFileBytes: config.maxFileBytes,
    maxFiles: config.maxFiles,
    extraIgnorePatterns: [...config.extraIgnorePatterns, ...(request.extraIgnorePatterns ?? [])],
    followSymlinks: request.followSymlinks ?? false,
  });
  timings.walk_ms = performance.now() - t;
  if (walk.files.length === 0) {
    const skipped = Object.entries(walk.skipCounts).filter(([, n]) => n > 0)
      .map(([k, n]) => `${k}: ${n}`).join(", ");
    throw new ToolError(
      "no_source_files",
      `No source files found in ${root}${
        skipped === "" ? "" : ` (skipped — ${skipped})`
      }. Check the path, .gitignore and extra_ignore_patterns`,
    );
  }
  warnings.push(...walk.warnings);
  const skipCounts = walk.skipCounts;

  // Which walked files must be looked at (read and hashed)?
  const present = new Set<string>();
  const toCheck: WalkedFile[] = [];
  for (const f of walk.files) {
    const s = stored.get(f.path);
    if (
      s !== undefined && s.size === f.size && s.mtime_ms === f.mtime_ms &&
      s.ctime_ms === f.ctime_ms && f.mtime_ms < s.checked_ms - 2000
    ) {
      present.add(f.path);
    } else {
      toCheck.push(f);
    }
  }

  const allFiles = new Set<string>([...walk.files.map((f) => f.path), ...walk.otherFiles]);
  const textCache = new Map<string, string | undefined>();
  const readRepoFile = (p: string): string | undefined => {
    if (!allFiles.has(p)) return undefined;
    if (!textCache.has(p)) {
      try {
        textCache.set(p, Deno.readTextFileSync(join(root, p)));
      } catch {
        textCache.set(p, undefined);
      }
    }
    return textCache.get(p);
  };

  let changed = 0, added = 0, done = 0;
  const noSymbols: string[] = [];
  const parseWarnings: string[] = [];
  const total = toCheck.length;
  const progress = (path: string) => {
    done++;
    request.onProgress?.(done, total, path);
  };
  const pipelineStart = performance.now();
  let mainThreadMs = 0;
  const inflight = new Set<Promise<void>>();
  const maxInflight = 16;
  const binaryNotes: string[] = [];
  const parsedWithImports: string[] = [];

  let aborted = false;
  try {
    for (const f of toCheck) {
      t = performance.now();
      let bytes: Uint8Array;
      try {
        bytes = Deno.readFileSync(f.absolute);
      } catch (e) {
        const denied = permissionError(e, f.absolute);
        if (denied !== null) throw denied;
        skipCounts.unreadable++;
        progress(f.path);
        mainThreadMs += performance.now() - t;
        continue;
      }
      if (looksBinary(bytes)) {
        skipCounts.binary++;
        binaryNotes.push(`Skipped binary file: ${f.path}`);
        progress(f.path);
        mainThreadMs += performance.now() - t;
        continue;
      }
      const hash = createHash("sha256").update(bytes).digest("hex");
      const checked = Date.now();
      present.add(f.path);
      const prior = stored.get(f.path);
      timings.read_hash_ms += performance.now() - t;
      mainThreadMs += performance.now() - t;
      if (prior !== undefined && prior.hash === hash) {
        writer.touchFile(f.path, f.mtime_ms, f.ctime_ms, checked);
        progress(f.path);
        continue;
      }
      if (prior === undefined) added++;
      else changed++;
      const job = _parseSafely(parser, f.path, bytes).then((result) => {
        if (aborted) return;
        const ts = performance.now();
        if (result.status !== "ok") {
          parseWarnings.push(
            `${f.path}: ${result.status}${result.reason ? ` (${result.reason})` : ""}`,
          );
        }
        // A text-only file (SQL, plain text...) has no symbols by design.
        if (result.symbols.length === 0 && !isTextLanguage(result.language)) {
          noSymbols.push(f.path);
        }
        if (result.imports.length > 0) parsedWithImports.push(f.path);
        writer.putFile({
          path: f.path,
          language: result.language || f.language,
          content: bytes,
          hash,
          mtime_ms: f.mtime_ms,
          ctime_ms: f.ctime_ms,
          checked_ms: checked,
          summary: fileSummary(result.symbols),
          line_count: lineCount(bytes),
        }, result);
        mainThreadMs += performance.now() - ts;
        progress(f.path);
      });
      inflight.add(job);
      job.finally(() => inflight.delete(job));
      if (inflight.size >= maxInflight) await Promise.race(inflight);
    }
    await Promise.all(inflight);
  } catch (e) {
    // Let the jobs still in flight finish (they store nothing now) before the rollback.
    aborted = true;
    await Promise.allSettled(inflight);
    throw e;
  }
  const pipelineMs = performance.now() - pipelineStart;

  let deleted = 0;
  for (const path of stored.keys()) {
    if (!present.has(path)) {
      writer.deleteFile(path);
      deleted++;
    }
  }

  // Resolve imports in one pass (resolvers cache repo-wide facts per pass). Adding or removing
  // files can change what the imports of unchanged files resolve to, so then all are redone.
  const tr = performance.now();
  if (added > 0 || deleted > 0) _resolveStored(writer, null, allFiles, readRepoFile);
  else if (parsedWithImports.length > 0) {
    _resolveStored(writer, parsedWithImports, allFiles, readRepoFile);
  }
  timings.resolve_ms = performance.now() - tr;

  writer.finish();
  const wt = writer.timings;
  timings.store_ms = wt.rows_ms;
  timings.fts_ms = wt.text_index_ms + wt.symbol_index_ms;
  timings.parse_ms = Math.max(0, pipelineMs - mainThreadMs);

  warnings.push(...binaryNotes.slice(0, 20));
  if (binaryNotes.length > 20) {
    warnings.push(`... and ${binaryNotes.length - 20} more like the above`);
  }
  if (walk.files.length >= 500 && !_exists(join(root, ".gitignore"))) {
    warnings.push(
      `No .gitignore at the folder root and ${walk.files.length} files found: add one to keep build output and dependencies out of the index`,
    );
  }

  const noChange = !full && changed === 0 && added === 0 && deleted === 0;
  const indexedAt = noChange && priorMeta.indexed_at !== ""
    ? priorMeta.indexed_at
    : new Date().toISOString();
  const languages = writer.languageCounts();
  const name = repo.slice("local/".length);
  writer.setMeta({
    repo,
    owner: "local",
    name,
    display_name: basename(root),
    source_root: root,
    indexed_at: indexedAt,
    git_head: readGitHead(root),
    languages,
    discovery_skip_counts: skipCounts,
    extractor_version: EXTRACTOR_VERSION,
  });
  const meta = writer.meta();
  const paths = writer.paths(20);
  return {
    repo,
    folder_path: root,
    mode: full ? "full" : noChange ? "unchanged" : "incremental",
    indexed_at: indexedAt,
    file_count: meta.file_count,
    symbol_count: meta.symbol_count,
    file_summary_count: writer.fileSummaryCount(),
    languages,
    files: paths,
    changed,
    new: added,
    deleted,
    discovery_skip_counts: skipCounts,
    no_symbols_count: noSymbols.length,
    no_symbols_files: noSymbols.sort().slice(0, 50),
    parse_warnings: parseWarnings.sort().slice(0, 50),
    warnings,
    files_discovered: walk.discovered,
    files_indexed: meta.file_count,
    files_skipped_cap: skipCounts.file_limit,
    timings,
  };
}

async function _parseSafely(
  parser: FileParser,
  path: string,
  bytes: Uint8Array,
): Promise<ParseResult> {
  try {
    return await parser.parse(path, bytes);
  } catch (e) {
    // Keep the file (its text stays searchable) and report why it has no symbols.
    return {
      file: path,
      language: _languageOf(path) ?? "",
      status: "skipped",
      reason: `parser error: ${_message(e)}`,
      symbols: [],
      imports: [],
      calls: [],
    };
  }
}

function _resolveStored(
  writer: RepoWriter,
  paths: readonly string[] | null,
  allFiles: ReadonlySet<string>,
  readFile: (p: string) => string | undefined,
): void {
  const rows = writer.imports(paths);
  const byFile = new Map<string, ParseResult>();
  const order: { fileId: number; seq: number; before: string | null }[] = [];
  const records: { resolved: string | null }[] = [];
  for (const r of rows) {
    let result = byFile.get(r.file);
    if (result === undefined) {
      result = {
        file: r.file,
        language: r.language,
        status: "ok",
        reason: null,
        symbols: [],
        imports: [],
        calls: [],
      };
      byFile.set(r.file, result);
    }
    const record = { specifier: r.specifier, names: r.names, line: r.line, resolved: r.resolved };
    result.imports.push(record);
    records.push(record);
    order.push({ fileId: r.file_id, seq: r.seq, before: r.resolved });
  }
  resolveImports([...byFile.values()], allFiles, readFile);
  for (let i = 0; i < order.length; i++) {
    const o = order[i]!;
    const now = records[i]!.resolved;
    if (now !== o.before) writer.setResolved(o.fileId, o.seq, now);
  }
}

/** The most common language of an index (the one a changed file most likely has). */
function _mainLanguages(counts: Record<string, number>): string[] {
  let best: string | undefined;
  for (const [id, n] of Object.entries(counts)) {
    if (best === undefined || n > counts[best]!) best = id;
  }
  return best === undefined ? [] : [best];
}

/**
 * The language id a path is indexed under (a grammar's, or a text-only one's), `undefined` for a
 * file that is not indexed.
 */
function _languageOf(path: string): string | undefined {
  return languageIdForPath(path);
}

function _exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function _message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
