/**
 * The indexing pipeline, whatever the source: discover (the source's selection) → change
 * detection (the source's cheap check, then the SHA-256 of the content) → load the bytes (a
 * download for a remote source) → parse the new and changed files → AI summaries (optional) →
 * store, all inside one write transaction of the repo's index (see `RepoWriter`). A failure at
 * any stage rolls the transaction back: the previous index (or none) stays as it was.
 *
 * Files that disappeared, or that a rule now excludes, are removed with their symbols, imports
 * and calls; imports are resolved again when files were added or removed.
 */
import { createHash } from "node:crypto";
import {
  EXTRACTOR_VERSION,
  languageForPath,
  LANGUAGES,
  type ParseResult,
  resolveImports,
} from "../parser/mod.ts";
import type { Store } from "../store/store.ts";
import type { RepoWriter, StoredFileState } from "../store/repo_writer.ts";
import { ToolError } from "../errors.ts";
import type { IngestConfig } from "./config.ts";
import { looksBinary } from "./filters.ts";
import { fileSummary, lineCount } from "./file_summary.ts";
import type { SkipReason } from "./selection.ts";
import type {
  DiscoveryContext,
  FileParser,
  IndexSource,
  ProgressFn,
  SourceFile,
  SymbolSummarizer,
} from "./source.ts";

/** Wall-clock time spent in each phase, in milliseconds. */
export interface IndexTimings {
  total_ms: number;
  lock_ms: number;
  /** Discovery (the folder walk, or the remote tree listing). */
  walk_ms: number;
  /** Downloading content (remote sources; 0 for a local folder). */
  fetch_ms: number;
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
  /** The folder indexed (local), `""` for a remote repo. */
  folder_path: string;
  /** The commit the index reflects, or `""`. */
  git_head: string;
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

/** How to run the pipeline. */
export interface PipelineOptions {
  /** @default true */
  incremental?: boolean;
  onProgress?: ProgressFn;
  /** The AI summary tier; absent: docstring and signature summaries only. */
  summarizer?: SymbolSummarizer;
}

/**
 * Index (or re-index) a source into the store. `mapError` turns a failure into the error the
 * caller reports (after the rollback).
 */
export async function indexSource<F extends SourceFile>(
  store: Store,
  config: IngestConfig,
  parser: FileParser,
  source: IndexSource<F>,
  options: PipelineOptions = {},
  mapError: (e: unknown) => unknown = (e) => e,
): Promise<IndexOutcome> {
  const t0 = performance.now();
  const timings: IndexTimings = {
    total_ms: 0,
    lock_ms: 0,
    walk_ms: 0,
    fetch_ms: 0,
    read_hash_ms: 0,
    parse_ms: 0,
    store_ms: 0,
    fts_ms: 0,
    resolve_ms: 0,
    commit_ms: 0,
  };
  const existed = store.has(source.repo);
  const writer = await store.writer(source.repo, { waitMs: config.indexWaitMs });
  timings.lock_ms = performance.now() - t0;
  try {
    const outcome = await _run(writer, source, parser, options, timings);
    const tc = performance.now();
    writer.commit();
    timings.commit_ms = performance.now() - tc;
    timings.total_ms = performance.now() - t0;
    return outcome;
  } catch (e) {
    writer.rollback();
    // A failed first index leaves no empty database behind.
    if (!existed) await store.deleteIfEmpty(source.repo);
    throw mapError(e);
  }
}

/**
 * Progress over the stages of one run, as one rising count: each stage's steps come after the
 * previous stage's, so a client never sees the count go back.
 */
class _StagedProgress {
  #offset = 0;
  #done = 0;
  #total = 0;
  readonly #fn: ProgressFn | undefined;
  constructor(fn: ProgressFn | undefined) {
    this.#fn = fn;
  }
  /** Report `done` of `total` steps of the current stage. */
  step(done: number, total: number, message: string): void {
    this.#done = this.#offset + done;
    this.#total = this.#offset + total;
    this.#fn?.(this.#done, this.#total, message);
  }
  /** Report what is happening without a new step. */
  note(message: string): void {
    this.#fn?.(this.#done, Math.max(this.#total, this.#done), message);
  }
  /** Start the next stage after the current one's steps. */
  nextStage(): void {
    this.#offset = this.#total;
  }
}

async function _run<F extends SourceFile>(
  writer: RepoWriter,
  source: IndexSource<F>,
  parser: FileParser,
  options: PipelineOptions,
  timings: IndexTimings,
): Promise<IndexOutcome> {
  const warnings: string[] = [];
  if (writer.schemaWarning !== null) warnings.push(writer.schemaWarning);
  const priorMeta = writer.meta();
  const wantIncremental = options.incremental ?? true;
  // Records of unchanged files written by another parser version would stay as they were.
  const staleParser = priorMeta.file_count > 0 &&
    priorMeta.extractor_version !== EXTRACTOR_VERSION;
  const incremental = wantIncremental && writer.schemaWarning === null &&
    priorMeta.file_count > 0 && !staleParser;
  if (staleParser && wantIncremental && writer.schemaWarning === null) {
    warnings.push(
      `Rebuilt in full: the index was written by another parser version (${priorMeta.extractor_version}, this build ${EXTRACTOR_VERSION})`,
    );
  }
  const full = !incremental;
  const progress = new _StagedProgress(options.onProgress);
  const context: DiscoveryContext = {
    prior: priorMeta,
    incremental,
    priorMetaValue: (key) => writer.metaValue(key),
    note: (message) => progress.note(message),
  };
  // A re-index usually parses a few files of the repo's main language: let the parser start
  // (worker start-up, grammar load) while this thread discovers the files.
  if (incremental) parser.prewarm?.(_mainLanguages(priorMeta.languages));

  let t = performance.now();
  const discovery = await source.discover(context);
  timings.walk_ms = performance.now() - t;
  if (discovery === "unchanged") return _unchangedOutcome(writer, source, warnings);
  if (full) writer.clear();
  const stored: Map<string, StoredFileState> = full ? new Map() : writer.fileStates();
  if (discovery.files.length === 0) {
    const skipped = Object.entries(discovery.skipCounts).filter(([, n]) => n > 0)
      .map(([k, n]) => `${k}: ${n}`).join(", ");
    throw new ToolError(
      "no_source_files",
      `No source files found in ${source.label}${
        skipped === "" ? "" : ` (skipped — ${skipped})`
      }. Check the path, .gitignore and extra_ignore_patterns`,
    );
  }
  warnings.push(...discovery.warnings);
  const skipCounts = discovery.skipCounts;

  // Which selected files must be looked at (read and hashed)?
  const present = new Set<string>();
  const toCheck: F[] = [];
  const binaryNotes: string[] = [];
  const skipBinary = (f: F) => {
    skipCounts.binary++;
    binaryNotes.push(`Skipped binary file: ${f.path}`);
    source.noteBinary?.(f);
  };
  for (const f of discovery.files) {
    const s = stored.get(f.path);
    if (s !== undefined && source.isUnchanged(f, s, () => writer.fileBytes(f.path))) {
      present.add(f.path);
    } else if (s === undefined && source.knownBinary?.(f) === true) {
      skipBinary(f);
    } else {
      toCheck.push(f);
    }
  }
  t = performance.now();
  await source.load(toCheck, context);
  timings.fetch_ms = performance.now() - t;
  progress.nextStage();

  const allFiles = new Set<string>([
    ...discovery.files.map((f) => f.path),
    ...discovery.otherFiles,
  ]);
  const textCache = new Map<string, string | undefined>();
  const readRepoFile = (p: string): string | undefined => {
    if (!allFiles.has(p)) return undefined;
    if (!textCache.has(p)) textCache.set(p, source.readOther(p));
    return textCache.get(p);
  };

  let changed = 0, added = 0, done = 0;
  const noSymbols: string[] = [];
  const parseWarnings: string[] = [];
  const total = toCheck.length;
  const fileDone = (path: string) => {
    done++;
    progress.step(done, total, path);
  };
  const pipelineStart = performance.now();
  let mainThreadMs = 0;
  const inflight = new Set<Promise<void>>();
  const maxInflight = 16;
  const parsedWithImports: string[] = [];
  const summarizer = options.summarizer;

  let aborted = false;
  try {
    for (const f of toCheck) {
      t = performance.now();
      const bytes = source.read(f);
      if (bytes === null) {
        skipCounts.unreadable++;
        fileDone(f.path);
        mainThreadMs += performance.now() - t;
        continue;
      }
      if (looksBinary(bytes)) {
        skipBinary(f);
        fileDone(f.path);
        mainThreadMs += performance.now() - t;
        continue;
      }
      const hash = createHash("sha256").update(bytes).digest("hex");
      const checked = Date.now();
      const times = source.times(f);
      present.add(f.path);
      const prior = stored.get(f.path);
      timings.read_hash_ms += performance.now() - t;
      mainThreadMs += performance.now() - t;
      if (prior !== undefined && prior.hash === hash) {
        writer.touchFile(f.path, times.mtime_ms, times.ctime_ms, checked);
        fileDone(f.path);
        continue;
      }
      if (prior === undefined) added++;
      else changed++;
      const job = _parseSafely(parser, f.path, bytes).then(async (result) => {
        if (aborted) return;
        if (summarizer !== undefined && result.symbols.length > 0) {
          await summarizer.summarize(result.symbols, (m) => progress.note(m));
          if (aborted) return;
        }
        const ts = performance.now();
        if (result.status !== "ok") {
          parseWarnings.push(
            `${f.path}: ${result.status}${result.reason ? ` (${result.reason})` : ""}`,
          );
        }
        if (result.symbols.length === 0) noSymbols.push(f.path);
        if (result.imports.length > 0) parsedWithImports.push(f.path);
        writer.putFile({
          path: f.path,
          language: result.language || f.language,
          content: bytes,
          hash,
          mtime_ms: times.mtime_ms,
          ctime_ms: times.ctime_ms,
          checked_ms: checked,
          summary: fileSummary(result.symbols),
          line_count: lineCount(bytes),
        }, result);
        mainThreadMs += performance.now() - ts;
        fileDone(f.path);
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
  warnings.push(...source.closingWarnings(discovery.files));
  if (summarizer !== undefined) warnings.push(...summarizer.warnings());

  const noChange = !full && changed === 0 && added === 0 && deleted === 0;
  const indexedAt = noChange && priorMeta.indexed_at !== ""
    ? priorMeta.indexed_at
    : new Date().toISOString();
  const languages = writer.languageCounts();
  const meta = source.meta();
  writer.setMeta({
    repo: source.repo,
    owner: meta.owner,
    name: meta.name,
    display_name: meta.display_name,
    source_root: meta.source_root,
    indexed_at: indexedAt,
    git_head: meta.git_head,
    languages,
    discovery_skip_counts: skipCounts,
    extractor_version: EXTRACTOR_VERSION,
    ...meta.extra,
  });
  const stats = writer.meta();
  return {
    repo: source.repo,
    folder_path: meta.source_root,
    git_head: meta.git_head,
    mode: full ? "full" : noChange ? "unchanged" : "incremental",
    indexed_at: indexedAt,
    file_count: stats.file_count,
    symbol_count: stats.symbol_count,
    file_summary_count: writer.fileSummaryCount(),
    languages,
    files: writer.paths(20),
    changed,
    new: added,
    deleted,
    discovery_skip_counts: skipCounts,
    no_symbols_count: noSymbols.length,
    no_symbols_files: noSymbols.sort().slice(0, 50),
    parse_warnings: parseWarnings.sort().slice(0, 50),
    warnings,
    files_discovered: discovery.discovered,
    files_indexed: stats.file_count,
    files_skipped_cap: skipCounts.file_limit,
    timings,
  };
}

/** The outcome when the source knows nothing changed: the stored index, untouched. */
function _unchangedOutcome<F extends SourceFile>(
  writer: RepoWriter,
  source: IndexSource<F>,
  warnings: string[],
): IndexOutcome {
  const stats = writer.meta();
  const skipCounts = stats.discovery_skip_counts as Record<SkipReason, number>;
  return {
    repo: source.repo,
    folder_path: stats.source_root,
    git_head: stats.git_head,
    mode: "unchanged",
    indexed_at: stats.indexed_at,
    file_count: stats.file_count,
    symbol_count: stats.symbol_count,
    file_summary_count: writer.fileSummaryCount(),
    languages: stats.languages,
    files: writer.paths(20),
    changed: 0,
    new: 0,
    deleted: 0,
    discovery_skip_counts: skipCounts,
    no_symbols_count: 0,
    no_symbols_files: [],
    parse_warnings: [],
    warnings,
    files_discovered: stats.file_count,
    files_indexed: stats.file_count,
    files_skipped_cap: skipCounts.file_limit ?? 0,
    timings: {
      total_ms: 0,
      lock_ms: 0,
      walk_ms: 0,
      fetch_ms: 0,
      read_hash_ms: 0,
      parse_ms: 0,
      store_ms: 0,
      fts_ms: 0,
      resolve_ms: 0,
      commit_ms: 0,
    },
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
      language: languageOf(path) ?? "",
      status: "skipped",
      reason: `parser error: ${e instanceof Error ? e.message : String(e)}`,
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

const _languageFileNames = new Set(LANGUAGES.flatMap((l) => l.fileNames ?? []));
const _languageBySuffix = new Map<string, string | undefined>();

/**
 * The language id of a path. The registry matches exact file names and extensions, so for any
 * other name the answer depends only on the part from the first dot: memoised by that suffix.
 */
export function languageOf(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.indexOf(".");
  if (_languageFileNames.has(base) || dot <= 0) return languageForPath(path)?.id;
  const suffix = base.slice(dot).toLowerCase();
  if (!_languageBySuffix.has(suffix)) {
    _languageBySuffix.set(suffix, languageForPath("x" + suffix)?.id);
  }
  return _languageBySuffix.get(suffix);
}
