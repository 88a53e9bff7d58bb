/**
 * What the indexing pipeline (`pipeline.ts`) needs from where code comes from — a local folder
 * (`local_source.ts`) or a GitHub repository (`github.ts`): which files to index (selected with
 * the shared rules of `selection.ts`), which of them are known unchanged without reading, their
 * bytes, and the repo's metadata. Everything else (change detection by content hash, parsing,
 * summaries, storing in one transaction, import resolution, the outcome) is the pipeline's, once.
 */
import type { ParseResult, SymbolRecord } from "../parser/types.ts";
import type { RepoMeta } from "../store/repo_index.ts";
import type { StoredFileState } from "../store/repo_writer.ts";
import type { SelectionResult } from "./selection.ts";
import type { UnsafeRead } from "./safe_read.ts";

/** Something that parses files: a `ParserPool` or an in-thread adapter over `parseSource`. */
export interface FileParser {
  /** Parse a file (`symbolsOnly`: no imports and calls; `complexity: false`: none measured). */
  parse(
    file: string,
    bytes: Uint8Array,
    language?: string,
    options?: { symbolsOnly?: boolean; complexity?: boolean },
  ): Promise<ParseResult>;
  /** Get ready to parse files of these languages soon (start a worker, load grammars). */
  prewarm?(languages: readonly string[]): void;
}

/** Progress callback: `done` of `total` steps, `path` the last file or what is happening. */
/**
 * Indexing progress: steps `done` of `total`, the last file (or what is happening), and the
 * symbols extracted so far in this run (unchanged files count none).
 */
export type ProgressFn = (done: number, total: number, path: string, symbols?: number) => void;

/**
 * The AI tier of symbol summaries, as the pipeline sees it: given a file's symbols, it may
 * replace the `summary` of those without a docstring; it never throws (a failure leaves the
 * docstring/signature summary the parser made). Implemented in src/summarize.
 */
export interface SymbolSummarizer {
  summarize(symbols: SymbolRecord[], note: (message: string) => void): Promise<void>;
  /** Notes for the outcome's warnings (e.g. the provider failed and was stopped). */
  warnings(): string[];
}

/** A file a source selected for indexing. */
export interface SourceFile {
  /** Repo-relative POSIX path. */
  path: string;
  /** Language id. */
  language: string;
  size: number;
}

/** What the pipeline tells a source before discovery. */
export interface DiscoveryContext {
  /** The stored index's facts (file_count 0 when there is none). */
  prior: RepoMeta;
  /** Whether changes are applied to the stored index (false: rebuilt in full). */
  incremental: boolean;
  /** A raw meta value of the stored index (sources keep their own bookkeeping there). */
  priorMetaValue(key: string): string | undefined;
  /** Report progress of a source-specific step (downloads, waits). */
  note(message: string): void;
  /** Whether the stored index holds this path now. */
  isStored(path: string): boolean;
}

/** Metadata of the repo, written after a successful run. */
export interface SourceMeta {
  owner: string;
  name: string;
  display_name: string;
  /** Absolute folder of a local repo, `""` for a remote one. */
  source_root: string;
  /** The commit the index reflects, or `""`. */
  git_head: string;
  /** Source-specific meta keys (stored as JSON unless strings). */
  extra?: Record<string, string | number | object>;
}

/** One source of files for the pipeline. */
export interface IndexSource<F extends SourceFile> {
  /** The repo id the index is stored under. */
  readonly repo: string;
  /** Where the code comes from, for messages (a folder path, `owner/repo`). */
  readonly label: string;
  /**
   * The paths of a run that re-indexes some files of a stored index (index_file, a watch
   * batch, a stale file found by a query): stored files outside it stay as they are, and the
   * index's folder-wide facts (source root, git head, skip counts) are kept. Absent: the run
   * covers the whole source (stored files it does not select are removed).
   */
  readonly scope?: ReadonlySet<string>;
  /**
   * Select the files to index, or say `"unchanged"` when the source knows nothing changed
   * since the stored index (then nothing is read or written).
   */
  discover(context: DiscoveryContext): Promise<SelectionResult<F> | "unchanged">;
  /** Whether a stored file is certainly unchanged without reading it (else it is read). */
  isUnchanged(file: F, stored: StoredFileState, storedBytes: () => Uint8Array | undefined): boolean;
  /**
   * Whether a file not in the index is known to be binary by content without reading it (the
   * source remembers the exact content it skipped before). Optional.
   */
  knownBinary?(file: F): boolean;
  /** The pipeline skipped a file as binary by content (a source may remember it). */
  noteBinary?(file: F): void;
  /** Fetch what `read` will need for these files (a download happens here, all or nothing). */
  load(files: readonly F[], context: DiscoveryContext): Promise<void>;
  /**
   * A file's bytes; null when it cannot be read (counted as unreadable); or why it was refused
   * (a file swapped for a symlink since discovery, a special file, one grown past the size cap).
   */
  read(file: F): Uint8Array | UnsafeRead | null;
  /** The modification and change times stored with a file (0 when the source has none). */
  times(file: F): { mtime_ms: number; ctime_ms: number };
  /** Text of a non-indexed file the import resolvers read (`go.mod`, `composer.json`, …). */
  readOther(path: string): string | undefined;
  /**
   * Every path of the repo the import resolvers may look for (indexed files and other files),
   * asked only when imports must be resolved. Absent: the discovery's files and other files.
   */
  repoPaths?(): Set<string>;
  /** Notes to add once the files are known (e.g. a missing root `.gitignore`). */
  closingWarnings(selected: readonly F[]): string[];
  /** The repo's metadata. */
  meta(): SourceMeta;
}
