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
import { EXTRACTOR_VERSION, isTextLanguage, type ParseResult } from "../parser/mod.ts";
import { languageOf } from "./language_of.ts";
import { resolveStoredImports } from "./resolve_stored.ts";
import { StagedProgress } from "./staged_progress.ts";
import type { Store } from "../store/store.ts";
import type { RepoWriter, StoredFileState } from "../store/repo_writer.ts";
import { ToolError } from "../errors.ts";
import { unusableDatabase } from "../store/sqlite.ts";
import type { IngestConfig } from "./config.ts";
import { decodedText, looksBinary } from "./filters.ts";
import { callReferences, fileSummary, lineCount } from "../parser/file_summary.ts";
import type { SelectionResult, SkipReason } from "./selection.ts";
import type { RepoMeta } from "../store/repo_index.ts";
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
  /** Building the full-text indexes (trigram text index + symbol FTS5 and terms). */
  fts_ms: number;
  /** Of `fts_ms`: the trigram text index (collecting trigrams, writing posting lists). */
  text_index_ms?: number;
  /** Of `fts_ms`: the symbol search index (FTS5 rows and symbol terms). */
  symbol_index_ms?: number;
  /** Of `store_ms`: building the secondary indexes once at the end of a full rebuild. */
  secondary_index_ms?: number;
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
  retried = false,
): Promise<IndexOutcome> {
  const t0 = performance.now();
  const timings = _zeroTimings();
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
    // A write that met damage inside the file: the writer checks it next time and rebuilds
    // it, so run once more now (issue 25: "malformed" on every retry otherwise).
    const damaged = unusableDatabase(e);
    if (damaged !== null && !retried) {
      store.markDamaged(source.repo, damaged);
      return await indexSource(store, config, parser, source, options, mapError, true);
    }
    // A failed first index leaves no empty database behind.
    if (!existed) await store.deleteIfEmpty(source.repo);
    throw mapError(e);
  }
}

async function _run<F extends SourceFile>(
  writer: RepoWriter,
  source: IndexSource<F>,
  parser: FileParser,
  options: PipelineOptions,
  timings: IndexTimings,
): Promise<IndexOutcome> {
  const run = new _Run(writer, source, parser, options, timings);
  // A re-index usually parses a few files of the repo's main language: let the parser start
  // (worker start-up, grammar load) while this thread discovers the files.
  if (run.incremental) parser.prewarm?.(_mainLanguages(run.prior.languages));
  let t = performance.now();
  const discovery = await source.discover(run.context);
  timings.walk_ms = performance.now() - t;
  if (discovery === "unchanged") return _unchangedOutcome(writer, source, run.warnings);
  if (!run.incremental) writer.clear();
  run.select(discovery);
  const toCheck = run.detectChanges();
  t = performance.now();
  await source.load(toCheck, run.context);
  timings.fetch_ms = performance.now() - t;
  await run.processFiles(toCheck);
  run.deleteMissing();
  run.resolveImports();
  writer.finish();
  const wt = writer.timings;
  timings.store_ms = wt.rows_ms + wt.secondary_index_ms;
  timings.fts_ms = wt.text_index_ms + wt.symbol_index_ms;
  timings.text_index_ms = wt.text_index_ms;
  timings.symbol_index_ms = wt.symbol_index_ms;
  timings.secondary_index_ms = wt.secondary_index_ms;
  return run.outcome();
}

/** Counts of what a run did to the stored files. */
interface _Tally {
  changed: number;
  added: number;
  deleted: number;
}

/** The state of one run, stage by stage (see `_run` for the order). */
class _Run<F extends SourceFile> {
  readonly prior: RepoMeta;
  readonly incremental: boolean;
  readonly warnings: string[] = [];
  readonly context: DiscoveryContext;
  readonly tally: _Tally = { changed: 0, added: 0, deleted: 0 };
  readonly #writer: RepoWriter;
  readonly #source: IndexSource<F>;
  readonly #parser: FileParser;
  readonly #options: PipelineOptions;
  readonly #timings: IndexTimings;
  readonly #progress: StagedProgress;
  #discovery: SelectionResult<F> | undefined;
  #stored = new Map<string, StoredFileState>();
  /** Paths of the selected files that are (still) in the index after this run. */
  readonly #present = new Set<string>();
  readonly #binaryNotes: string[] = [];
  readonly #noSymbols: string[] = [];
  readonly #parseWarnings: string[] = [];
  readonly #parsedWithImports: string[] = [];

  constructor(
    writer: RepoWriter,
    source: IndexSource<F>,
    parser: FileParser,
    options: PipelineOptions,
    timings: IndexTimings,
  ) {
    this.#writer = writer;
    this.#source = source;
    this.#parser = parser;
    this.#options = options;
    this.#timings = timings;
    this.#progress = new StagedProgress(options.onProgress);
    if (writer.schemaWarning !== null) this.warnings.push(writer.schemaWarning);
    this.prior = writer.meta();
    const wantIncremental = options.incremental ?? true;
    // Records of unchanged files written by another parser version would stay as they were.
    const staleParser = this.prior.file_count > 0 &&
      this.prior.extractor_version !== EXTRACTOR_VERSION;
    this.incremental = wantIncremental && writer.schemaWarning === null &&
      this.prior.file_count > 0 && !staleParser;
    if (staleParser && wantIncremental && writer.schemaWarning === null) {
      this.warnings.push(
        `Rebuilt in full: the index was written by another parser version (${this.prior.extractor_version}, this build ${EXTRACTOR_VERSION})`,
      );
    }
    this.context = {
      prior: this.prior,
      incremental: this.incremental,
      priorMetaValue: (key) => writer.metaValue(key),
      note: (message) => this.#progress.note(message),
    };
  }

  /** Take the source's selection (at least one file) and the stored file states. */
  select(discovery: SelectionResult<F>): void {
    if (discovery.files.length === 0) {
      const skipped = Object.entries(discovery.skipCounts).filter(([, n]) => n > 0)
        .map(([k, n]) => `${k}: ${n}`).join(", ");
      throw new ToolError(
        "no_source_files",
        `No source files found in ${this.#source.label}${
          skipped === "" ? "" : ` (skipped — ${skipped})`
        }. Check the path, .gitignore and extra_ignore_patterns`,
      );
    }
    this.#discovery = discovery;
    this.warnings.push(...discovery.warnings);
    this.#stored = this.incremental ? this.#writer.fileStates() : new Map();
  }

  /** The selected files that must be read: not known unchanged, not known binary. */
  detectChanges(): F[] {
    const toCheck: F[] = [];
    for (const f of this.#discovery!.files) {
      const s = this.#stored.get(f.path);
      if (s !== undefined && this.#source.isUnchanged(f, s, () => this.#writer.fileBytes(f.path))) {
        this.#present.add(f.path);
      } else if (s === undefined && this.#source.knownBinary?.(f) === true) {
        this.#skipBinary(f);
      } else {
        toCheck.push(f);
      }
    }
    return toCheck;
  }

  #skipBinary(f: F): void {
    this.#discovery!.skipCounts.binary++;
    this.#binaryNotes.push(`Skipped binary file: ${f.path}`);
    this.#source.noteBinary?.(f);
  }

  /**
   * Read and hash each file; store new and changed ones with their parse result (and AI
   * summaries), at most 16 parses in flight; a file whose hash did not change is only touched.
   */
  async processFiles(toCheck: readonly F[]): Promise<void> {
    this.#progress.nextStage();
    const source = this.#source;
    const writer = this.#writer;
    const timings = this.#timings;
    const skipCounts = this.#discovery!.skipCounts;
    const summarizer = this.#options.summarizer;
    let done = 0;
    const fileDone = (path: string, symbols = 0) => {
      done++;
      this.#progress.step(done, toCheck.length, path, symbols);
    };
    const pipelineStart = performance.now();
    let mainThreadMs = 0;
    const inflight = new Set<Promise<void>>();
    const maxInflight = 16;
    let aborted = false;
    try {
      for (const f of toCheck) {
        const t = performance.now();
        const read = source.read(f);
        if (read === null || typeof read === "string") {
          skipCounts[read === null || read === "not_regular" ? "unreadable" : read]++;
          if (read === "symlink_escape") {
            this.#binaryNotes.push(`Skipped symlink escape: ${f.path}`);
          }
          fileDone(f.path);
          mainThreadMs += performance.now() - t;
          continue;
        }
        // UTF-16 with a byte-order mark is stored as UTF-8 (one text encoding for every tool).
        const bytes = decodedText(read);
        if (looksBinary(bytes)) {
          this.#skipBinary(f);
          fileDone(f.path);
          mainThreadMs += performance.now() - t;
          continue;
        }
        const hash = createHash("sha256").update(bytes).digest("hex");
        const checked = Date.now();
        const times = source.times(f);
        this.#present.add(f.path);
        const prior = this.#stored.get(f.path);
        timings.read_hash_ms += performance.now() - t;
        mainThreadMs += performance.now() - t;
        if (prior !== undefined && prior.hash === hash) {
          writer.touchFile(f.path, times.mtime_ms, times.ctime_ms, checked);
          fileDone(f.path);
          continue;
        }
        if (prior === undefined) this.tally.added++;
        else this.tally.changed++;
        const job = parseSafely(this.#parser, f.path, bytes).then(async (result) => {
          if (aborted) return;
          if (summarizer !== undefined && result.symbols.length > 0) {
            await summarizer.summarize(result.symbols, (m) => this.#progress.note(m));
            if (aborted) return;
          }
          const ts = performance.now();
          if (result.status !== "ok") {
            this.#parseWarnings.push(
              `${f.path}: ${result.status}${result.reason ? ` (${result.reason})` : ""}`,
            );
          }
          // A text-only file (SQL, plain text…) has no symbols by design.
          if (result.symbols.length === 0 && !isTextLanguage(result.language)) {
            this.#noSymbols.push(f.path);
          }
          if (result.imports.length > 0) this.#parsedWithImports.push(f.path);
          writer.putFile({
            path: f.path,
            language: result.language || f.language,
            content: bytes,
            hash,
            mtime_ms: times.mtime_ms,
            ctime_ms: times.ctime_ms,
            checked_ms: checked,
            summary: fileSummary(result.symbols, callReferences(result.calls)),
            line_count: lineCount(bytes),
          }, result);
          mainThreadMs += performance.now() - ts;
          fileDone(f.path, result.symbols.length);
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
    timings.parse_ms = Math.max(0, performance.now() - pipelineStart - mainThreadMs);
  }

  /** Remove stored files that are gone or that a rule now excludes. */
  deleteMissing(): void {
    for (const path of this.#stored.keys()) {
      if (!this.#present.has(path)) {
        this.#writer.deleteFile(path);
        this.tally.deleted++;
      }
    }
  }

  /**
   * Resolve imports in one pass (resolvers cache repo-wide facts per pass). Adding or removing
   * files can change what the imports of unchanged files resolve to, so then all are redone.
   */
  resolveImports(): void {
    const t = performance.now();
    const discovery = this.#discovery!;
    const allFiles = new Set<string>([
      ...discovery.files.map((f) => f.path),
      ...discovery.otherFiles,
    ]);
    const textCache = new Map<string, string | undefined>();
    const readRepoFile = (p: string): string | undefined => {
      if (!allFiles.has(p)) return undefined;
      if (!textCache.has(p)) textCache.set(p, this.#source.readOther(p));
      return textCache.get(p);
    };
    if (this.tally.added > 0 || this.tally.deleted > 0) {
      resolveStoredImports(this.#writer, null, allFiles, readRepoFile);
    } else if (this.#parsedWithImports.length > 0) {
      resolveStoredImports(this.#writer, this.#parsedWithImports, allFiles, readRepoFile);
    }
    this.#timings.resolve_ms = performance.now() - t;
  }

  /** Write the repo's metadata and describe the run. */
  outcome(): IndexOutcome {
    const writer = this.#writer;
    const source = this.#source;
    const discovery = this.#discovery!;
    const skipCounts = discovery.skipCounts;
    const warnings = this.warnings;
    const notes = this.#binaryNotes;
    warnings.push(...notes.slice(0, 20));
    if (notes.length > 20) warnings.push(`... and ${notes.length - 20} more like the above`);
    warnings.push(...source.closingWarnings(discovery.files));
    if (this.#options.summarizer !== undefined) {
      warnings.push(...this.#options.summarizer.warnings());
    }
    const { changed, added, deleted } = this.tally;
    const full = !this.incremental;
    const noChange = !full && changed === 0 && added === 0 && deleted === 0;
    const indexedAt = noChange && this.prior.indexed_at !== ""
      ? this.prior.indexed_at
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
      no_symbols_count: this.#noSymbols.length,
      no_symbols_files: this.#noSymbols.sort().slice(0, 50),
      parse_warnings: this.#parseWarnings.sort().slice(0, 50),
      warnings,
      files_discovered: discovery.discovered,
      files_indexed: stats.file_count,
      files_skipped_cap: skipCounts.file_limit,
      timings: this.#timings,
    };
  }
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
    timings: _zeroTimings(),
  };
}

/** Timings of a run that has not started a phase yet. */
function _zeroTimings(): IndexTimings {
  return {
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
}

/** Parse a file; a parser failure keeps the file (its text stays searchable) with the reason. */
export async function parseSafely(
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

/** The most common language of an index (the one a changed file most likely has). */
function _mainLanguages(counts: Record<string, number>): string[] {
  let best: string | undefined;
  for (const [id, n] of Object.entries(counts)) {
    if (best === undefined || n > counts[best]!) best = id;
  }
  return best === undefined ? [] : [best];
}
