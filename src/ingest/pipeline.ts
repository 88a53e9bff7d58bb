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
import { resolveStoredImports, rootNameOf } from "./resolve_stored.ts";
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
  SourceMeta,
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
  /** Whether stored imports were resolved again (files added or removed, or imports changed). */
  imports_resolved: boolean;
  /** What became of each path of a scoped run (see `IndexSource.scope`); absent otherwise. */
  file_changes?: FileOutcome[];
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
  // Every file is done; the rest of the run writes the index: say which step it is.
  run.context.note("removing deleted files");
  run.deleteMissing();
  run.context.note("resolving imports");
  run.resolveImports();
  run.context.note("writing the search indexes");
  writer.finish();
  const wt = writer.timings;
  timings.store_ms = wt.rows_ms + wt.secondary_index_ms;
  timings.fts_ms = wt.text_index_ms + wt.symbol_index_ms;
  timings.text_index_ms = wt.text_index_ms;
  timings.symbol_index_ms = wt.symbol_index_ms;
  timings.secondary_index_ms = wt.secondary_index_ms;
  run.context.note("saving the index");
  return run.outcome();
}

/** Counts of what a run did to the stored files. */
interface _Tally {
  changed: number;
  added: number;
  deleted: number;
}

/** What became of one path of a scoped run (see `IndexSource.scope`). */
export type FileChange =
  | "added"
  | "changed"
  | "unchanged"
  | "deleted"
  /** Not indexed (a rule excludes it) and not in the index before either. */
  | "skipped"
  /** Not on disk and not in the index. */
  | "missing";

/** One path's outcome in a scoped run. */
export interface FileOutcome {
  /** Repo-relative path. */
  path: string;
  change: FileChange;
  /** Why the path is not indexed (for `skipped`, and for `deleted` by a rule). */
  reason?: SkipReason;
  /** Symbols now stored for the file. */
  symbol_count?: number;
  /** Why the parser skipped the file or only partly parsed it. */
  parse_warning?: string;
}

/** A selected file after reading and hashing, ready to be parsed and stored. */
interface _ToParse {
  bytes: Uint8Array;
  hash: string;
  checked: number;
  times: { mtime_ms: number; ctime_ms: number };
  prior: StoredFileState | undefined;
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
  /** What became of each path, for a scoped run only (a full run may hold 100k files). */
  readonly #changes: Map<string, FileOutcome> | null;
  #importsResolved = false;
  #mainThreadMs = 0;

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
    this.#changes = source.scope === undefined ? null : new Map();
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
      isStored: (path) => writer.fileState(path) !== undefined,
    };
  }

  /**
   * Take the source's selection (at least one file, unless the run is scoped) and the stored
   * states of the files it covers.
   */
  select(discovery: SelectionResult<F>): void {
    const scope = this.#source.scope;
    if (discovery.files.length === 0 && scope === undefined) {
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
    if (!this.incremental) this.#stored = new Map();
    else if (scope === undefined) this.#stored = this.#writer.fileStates();
    else {
      for (const path of scope) {
        const state = this.#writer.fileState(path);
        if (state !== undefined) this.#stored.set(path, state);
      }
    }
  }

  /** The selected files that must be read: not known unchanged, not known binary. */
  detectChanges(): F[] {
    const toCheck: F[] = [];
    for (const f of this.#discovery!.files) {
      const s = this.#stored.get(f.path);
      if (s !== undefined && this.#source.isUnchanged(f, s, () => this.#writer.fileBytes(f.path))) {
        this.#present.add(f.path);
        this.#changes?.set(f.path, { path: f.path, change: "unchanged" });
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
    this.#changes?.set(f.path, { path: f.path, change: "skipped", reason: "binary" });
    this.#source.noteBinary?.(f);
  }

  /**
   * Read and hash each file; store new and changed ones with their parse result (and AI
   * summaries), at most 16 parses in flight; a file whose hash did not change is only touched.
   */
  async processFiles(toCheck: readonly F[]): Promise<void> {
    this.#progress.nextStage();
    let done = 0;
    const fileDone = (path: string, symbols = 0) => {
      done++;
      this.#progress.step(done, toCheck.length, path, symbols);
    };
    const pipelineStart = performance.now();
    const inflight = new Set<Promise<void>>();
    const maxInflight = 16;
    const abort = { aborted: false };
    try {
      for (const f of toCheck) {
        const item = this.#readAndHash(f);
        if (item === null) {
          fileDone(f.path);
          continue;
        }
        if (item.prior === undefined) this.tally.added++;
        else this.tally.changed++;
        const job = this.#parseAndStore(f, item, abort).then((symbols) => {
          if (symbols !== null) fileDone(f.path, symbols);
        });
        inflight.add(job);
        job.finally(() => inflight.delete(job));
        if (inflight.size >= maxInflight) await Promise.race(inflight);
      }
      await Promise.all(inflight);
    } catch (e) {
      // Let the jobs still in flight finish (they store nothing now) before the rollback.
      abort.aborted = true;
      await Promise.allSettled(inflight);
      throw e;
    }
    this.#timings.parse_ms = Math.max(
      0,
      performance.now() - pipelineStart - this.#mainThreadMs,
    );
  }

  /**
   * Read and hash one file on the main thread. Null when it needs no parse: refused by the
   * source, binary, or unchanged by content (then its new stat is recorded, if it changed).
   */
  #readAndHash(f: F): _ToParse | null {
    const t = performance.now();
    try {
      const read = this.#source.read(f);
      if (read === null || typeof read === "string") {
        const reason = read === null || read === "not_regular" ? "unreadable" : read;
        this.#discovery!.skipCounts[reason]++;
        if (read === "symlink_escape") this.#binaryNotes.push(`Skipped symlink escape: ${f.path}`);
        this.#changes?.set(f.path, { path: f.path, change: "skipped", reason });
        return null;
      }
      // UTF-16 with a byte-order mark is stored as UTF-8 (one text encoding for every tool).
      const bytes = decodedText(read);
      if (looksBinary(bytes)) {
        this.#skipBinary(f);
        return null;
      }
      const hash = createHash("sha256").update(bytes).digest("hex");
      const checked = Date.now();
      const times = this.#source.times(f);
      this.#present.add(f.path);
      const prior = this.#stored.get(f.path);
      this.#timings.read_hash_ms += performance.now() - t;
      if (prior !== undefined && prior.hash === hash) {
        // A stat that changed is recorded; an identical one is not written at all, so that the
        // index state (and every view built on it) stays the same.
        if (prior.mtime_ms !== times.mtime_ms || prior.ctime_ms !== times.ctime_ms) {
          this.#writer.touchFile(f.path, times.mtime_ms, times.ctime_ms, checked);
        }
        this.#changes?.set(f.path, { path: f.path, change: "unchanged" });
        return null;
      }
      return { bytes, hash, checked, times, prior };
    } finally {
      this.#mainThreadMs += performance.now() - t;
    }
  }

  /**
   * Parse a file (in a worker), summarize its symbols, and store it; resolves to its symbol
   * count, or null when the run was aborted meanwhile (nothing is stored then).
   */
  async #parseAndStore(f: F, item: _ToParse, abort: { aborted: boolean }): Promise<number | null> {
    const result = await parseSafely(this.#parser, f.path, item.bytes);
    if (abort.aborted) return null;
    const summarizer = this.#options.summarizer;
    if (summarizer !== undefined && result.symbols.length > 0) {
      await summarizer.summarize(result.symbols, (m) => this.#progress.note(m));
      if (abort.aborted) return null;
    }
    const ts = performance.now();
    const outcome: FileOutcome = {
      path: f.path,
      change: item.prior === undefined ? "added" : "changed",
      symbol_count: result.symbols.length,
    };
    if (result.status !== "ok") {
      outcome.parse_warning = `${result.status}${result.reason ? ` (${result.reason})` : ""}`;
      this.#parseWarnings.push(`${f.path}: ${outcome.parse_warning}`);
    }
    this.#changes?.set(f.path, outcome);
    // A text-only file (SQL, plain text…) has no symbols by design.
    if (result.symbols.length === 0 && !isTextLanguage(result.language)) {
      this.#noSymbols.push(f.path);
    }
    this.#keepOrResolveImports(f.path, item.prior !== undefined, result);
    this.#writer.putFile({
      path: f.path,
      language: result.language || f.language,
      content: item.bytes,
      hash: item.hash,
      mtime_ms: item.times.mtime_ms,
      ctime_ms: item.times.ctime_ms,
      checked_ms: item.checked,
      summary: fileSummary(result.symbols, callReferences(result.calls)),
      line_count: lineCount(item.bytes),
    }, result);
    this.#mainThreadMs += performance.now() - ts;
    return result.symbols.length;
  }

  /**
   * An edit that leaves a file's imports as they were (the usual edit) resolves them as before
   * as long as no file is added or removed: keep the stored targets. Other imports are resolved
   * once all files are stored.
   */
  #keepOrResolveImports(path: string, wasStored: boolean, result: ParseResult): void {
    if (result.imports.length === 0) return;
    if (wasStored && this.incremental) {
      const stored = this.#writer.imports([path]);
      if (_sameImports(result.imports, stored)) {
        result.imports.forEach((imp, i) => imp.resolved = stored[i]!.resolved);
        return;
      }
    }
    this.#parsedWithImports.push(path);
  }

  /** Remove stored files (of the run's scope) that are gone or that a rule now excludes. */
  deleteMissing(): void {
    for (const path of this.#stored.keys()) {
      if (!this.#present.has(path)) {
        this.#writer.deleteFile(path);
        this.tally.deleted++;
        const reason = this.#changes?.get(path)?.reason;
        this.#changes?.set(path, { path, change: "deleted", ...(reason ? { reason } : {}) });
      }
    }
  }

  /**
   * Resolve imports in one pass (resolvers cache repo-wide facts per pass). Adding or removing
   * files can change what the imports of unchanged files resolve to, so then all are redone.
   */
  resolveImports(): void {
    const t = performance.now();
    const all = this.tally.added > 0 || this.tally.deleted > 0;
    if (all || this.#parsedWithImports.length > 0) {
      const discovery = this.#discovery!;
      const allFiles = this.#source.repoPaths?.() ??
        new Set<string>([...discovery.files.map((f) => f.path), ...discovery.otherFiles]);
      const textCache = new Map<string, string | undefined>();
      const readRepoFile = (p: string): string | undefined => {
        if (!allFiles.has(p)) return undefined;
        if (!textCache.has(p)) textCache.set(p, this.#source.readOther(p));
        return textCache.get(p);
      };
      resolveStoredImports(
        this.#writer,
        all ? null : this.#parsedWithImports,
        allFiles,
        readRepoFile,
        rootNameOf(this.#source.label),
      );
      this.#importsResolved = true;
    }
    this.#timings.resolve_ms = performance.now() - t;
  }

  /** Write the repo's metadata and describe the run. */
  outcome(): IndexOutcome {
    const writer = this.#writer;
    const source = this.#source;
    const discovery = this.#discovery!;
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
    const meta = this.#writeMeta(indexedAt, languages, noChange);
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
      discovery_skip_counts: discovery.skipCounts,
      no_symbols_count: this.#noSymbols.length,
      no_symbols_files: this.#noSymbols.sort().slice(0, 50),
      parse_warnings: this.#parseWarnings.sort().slice(0, 50),
      warnings,
      files_discovered: discovery.discovered,
      files_indexed: stats.file_count,
      files_skipped_cap: discovery.skipCounts.file_limit,
      imports_resolved: this.#importsResolved,
      ...(this.#changes === null ? {} : { file_changes: [...this.#changes.values()] }),
      timings: this.#timings,
    };
  }

  /**
   * Store the run's facts. A scoped run looked at a few files only: it records when the index
   * changed and its languages, and keeps the folder-wide facts of the last full run.
   */
  #writeMeta(indexedAt: string, languages: Record<string, number>, noChange: boolean): SourceMeta {
    const writer = this.#writer;
    const meta = this.#source.meta();
    if (this.#source.scope !== undefined) {
      if (!noChange) writer.setMeta({ indexed_at: indexedAt, languages });
      return meta;
    }
    writer.setMeta({
      repo: this.#source.repo,
      owner: meta.owner,
      name: meta.name,
      display_name: meta.display_name,
      source_root: meta.source_root,
      indexed_at: indexedAt,
      git_head: meta.git_head,
      languages,
      discovery_skip_counts: this.#discovery!.skipCounts,
      extractor_version: EXTRACTOR_VERSION,
      ...meta.extra,
    });
    return meta;
  }
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
    imports_resolved: false,
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
