/**
 * Read access to one repo's index: the queries the read tools use. Every path a caller passes is
 * looked up in the index (`files.path`), never joined onto a disk path, and every byte returned
 * comes from the stored copy, so answers stay consistent with the index even when the folder
 * on disk has changed since.
 */
import type {
  CallRecord,
  ImportRecord,
  ParseStatus,
  SymbolKind,
  SymbolRecord,
} from "../parser/types.ts";
import { ToolError } from "../errors.ts";
import {
  databaseFileProblem,
  type DatabaseSync,
  openDatabase,
  unusableDatabase,
} from "./sqlite.ts";
import { SCHEMA_VERSION, schemaState } from "./schema.ts";
import { symbolMatchExpression } from "./fts_text.ts";
import { queryTrigrams } from "./trigrams.ts";
import { filesWithAll } from "./text_postings.ts";
import { SymbolSearch } from "./symbol_search.ts";
import { type EmbeddingModel, readEmbeddingModel, readEmbeddings } from "./embeddings.ts";

/** Per-repo facts stored in the `meta` table. */
export interface RepoMeta {
  /** Repo id, e.g. `local/app-1a2b3c4d` or `owner/name`. */
  repo: string;
  owner: string;
  name: string;
  display_name: string;
  /** Absolute folder path for local repos, `""` for remote ones. */
  source_root: string;
  /** ISO 8601 UTC time of the last completed index. */
  indexed_at: string;
  /** `HEAD` commit of a local git checkout at index time, or `""`. */
  git_head: string;
  index_version: number;
  /**
   * `EXTRACTOR_VERSION` of the parser that wrote the records (1: an index from before the key
   * existed; 0: no index yet).
   */
  extractor_version: number;
  /** Files per language. */
  languages: Record<string, number>;
  file_count: number;
  symbol_count: number;
  /** What the last index skipped and why (API.md §1.2 `discovery_skip_counts`). */
  discovery_skip_counts: Record<string, number>;
}

/** One indexed file, without its content. */
export interface FileEntry {
  path: string;
  language: string;
  /** Size in bytes. */
  size: number;
  /** SHA-256 hex of the content. */
  hash: string;
  status: ParseStatus;
  /** Why the parser skipped the file or what made it partial, else null. */
  reason: string | null;
  summary: string;
  symbol_count: number;
  line_count: number;
  /** Modification time of the file when it was indexed (ms since the epoch), for freshness. */
  mtime_ms: number;
}

/** An import with the path of the file it appears in. */
export interface StoredImport extends ImportRecord {
  file: string;
}

/** A call site with the path of the file it appears in. */
export interface StoredCall extends CallRecord {
  file: string;
}

/** A symbol search hit: the symbol and its FTS5 BM25 relevance (higher is better). */
export interface SymbolHit {
  symbol: SymbolRecord;
  bm25: number;
}

/**
 * The fields of a symbol a search ranks and filters on, without its text columns (signature,
 * docstring, summary, …): read the full record of the hits that are kept with
 * {@linkcode RepoIndex.symbol}.
 */
export type SymbolBriefRecord = Pick<
  SymbolRecord,
  "id" | "file" | "name" | "kind" | "language" | "decorators"
>;

/** A {@linkcode RepoIndex.searchSymbolBriefs} hit: brief fields and the FTS5 BM25 relevance. */
export interface SymbolBriefHit {
  symbol: SymbolBriefRecord;
  bm25: number;
}

/** Options for {@linkcode RepoIndex.searchSymbols}. */
export interface SymbolSearchOptions {
  /**
   * Maximum hits.
   * @default 50
   */
  limit?: number;
  /** Only these kinds. */
  kinds?: readonly SymbolKind[];
  /** Only this language id. */
  language?: string;
}

/**
 * A symbol's id from its row (alias `s`) and its file's (`f`): ids and parents are stored without
 * their `{path}::` (schema 6).
 */
const _ID = "(f.path || '::' || s.local_id)";
/** Symbols by id: their file's path and local id (a symbol id read at one of its `::`). */
const _BY_ID = "s.file_id = (SELECT id FROM files WHERE path = ?) AND s.local_id = ?";

const _SYMBOL_COLUMNS = `${_ID} AS id, f.path AS file, s.name, s.qualified_name, s.kind,
  s.language, s.signature, s.docstring, s.summary, s.decorators, s.keywords,
  f.path || '::' || s.parent AS parent, s.line, s.end_line,
  s.byte_offset, s.byte_length, lower(hex(s.content_hash)) AS content_hash, s.cyclomatic,
  s.max_nesting, s.param_count`;

const _BRIEF_COLUMNS = `${_ID} AS id, f.path AS file, s.name, s.kind, s.language, s.decorators`;

const _FILE_COLUMNS =
  "path, language, size, hash, status, reason, summary, symbol_count, line_count, mtime_ms";

/** A measured symbol as {@linkcode RepoIndex.symbolMetrics} reads it. */
export interface SymbolMetricsRow {
  id: string;
  file: string;
  name: string;
  qualified_name: string;
  kind: SymbolKind;
  language: string;
  line: number;
  end_line: number;
  cyclomatic: number;
  max_nesting: number;
  param_count: number;
}

/** Options of {@linkcode RepoIndex.open}. */
export interface RepoIndexOptions {
  /** Bytes of the file to memory-map (`PRAGMA mmap_size`); default 0. */
  mmapBytes?: number;
}

/**
 * Most bytes of an index file a connection that scans stored file contents (the search_text and
 * search_ast workers) maps into memory: no copy per page of the megabytes a scan reads.
 */
export const SCAN_MMAP_BYTES = 256 * 1024 * 1024;
/** Page cache of a reader connection, in KiB. */
const _CACHE_KIB = 32 * 1024;

/** Decode stored bytes to text; invalid UTF-8 becomes U+FFFD (the stored bytes stay exact). */
const _decoder = new TextDecoder();

/**
 * The error for an index file that cannot be used (not a database, damaged, truncated, not a
 * file): it names the problem and both fixes.
 */
export function corruptIndexError(dbPath: string, problem: string): ToolError {
  return new ToolError(
    "index_corrupt",
    `The index at "${dbPath}" cannot be read: ${problem}. Run index_folder on the folder again to rebuild it, or invalidate_cache to remove it`,
  );
}

/** Read queries over one repo's SQLite index. Open with {@linkcode RepoIndex.open}. */
export class RepoIndex {
  readonly #db: DatabaseSync;
  /** Path of the database file. */
  readonly dbPath: string;

  /** Prepared statements by SQL text, reused across calls (preparing is much of a fast query). */
  readonly #statements = new Map<string, _Statement>();

  private constructor(db: DatabaseSync, dbPath: string) {
    this.#db = db;
    this.dbPath = dbPath;
  }

  #prepare(sql: string): _Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * The first row of `sql` (whose parameters are a path and a local id, {@linkcode _BY_ID}) for
   * the symbol `id`, read at each `::` in turn: the first is the path's end unless the path has
   * one itself.
   */
  #byId(sql: string, id: string): Record<string, unknown> | undefined {
    const statement = this.#prepare(sql);
    for (let at = id.indexOf("::"); at > 0; at = id.indexOf("::", at + 1)) {
      const row = statement.get(id.slice(0, at), id.slice(at + 2));
      if (row !== undefined) return row as Record<string, unknown>;
    }
    return undefined;
  }

  /**
   * Open an index for reading. Throws `ToolError("index_incompatible")` when the database was
   * written by another schema version (run `index_folder` again to rebuild it).
   */
  static open(dbPath: string, options: RepoIndexOptions = {}): RepoIndex {
    const problem = databaseFileProblem(dbPath);
    if (problem !== null) throw corruptIndexError(dbPath, problem);
    let db: DatabaseSync;
    try {
      db = openDatabase(dbPath, { readOnly: true });
    } catch (e) {
      const unusable = unusableDatabase(e);
      if (unusable !== null) throw corruptIndexError(dbPath, unusable);
      throw e;
    }
    try {
      const { state, version } = schemaState(db);
      if (state === "empty") {
        throw new ToolError(
          "repo_not_found",
          `No index in "${dbPath}" yet. Run index_folder first`,
        );
      }
      if (state !== "current") {
        const which = state === "newer" ? "a newer" : "an older";
        throw new ToolError(
          "index_incompatible",
          `The index at "${dbPath}" was written by ${which} codemunch (schema ${version}, this build uses ${SCHEMA_VERSION}). Run index_folder (or index_repo) again to rebuild it`,
        );
      }
    } catch (e) {
      db.close();
      const unusable = e instanceof ToolError ? null : unusableDatabase(e);
      if (unusable !== null) throw corruptIndexError(dbPath, unusable);
      throw e;
    }
    // Reads only: keep more pages cached, so the data a large repo's queries touch stays in memory
    // between calls. No memory map by default: the pages a map touches count in the process's
    // RSS for as long as it lives (building the ranking facets of the Go standard library once
    // read the whole call table: +79 MB of mapped pages; +5 MB and a 32 MB page cache without),
    // and a query reads a few pages. Scans of file contents ask for one (SCAN_MMAP_BYTES).
    db.exec(`PRAGMA mmap_size=${options.mmapBytes ?? 0}`);
    db.exec(`PRAGMA cache_size=-${_CACHE_KIB}`);
    return new RepoIndex(db, dbPath);
  }

  /**
   * Give back the memory SQLite holds for this connection (its page cache, up to 32 MB, and
   * unused lookaside): an idle server keeps no cached pages; the next query reads them again from
   * the operating system's file cache (`PRAGMA shrink_memory`). Prepared statements stay.
   */
  releaseMemory(): void {
    if (this.#db.isOpen) this.#db.exec("PRAGMA shrink_memory");
  }

  /** Close the database connection. */
  close(): void {
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }

  /** The repo's stored facts, with live file and symbol counts. */
  meta(): RepoMeta {
    return readMeta(this.#db);
  }

  /** One raw meta value (a source's own bookkeeping, e.g. `folder_options`), or undefined. */
  metaValue(key: string): string | undefined {
    const row = this.#prepare("SELECT value FROM meta WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  /** What made the stored embedding vectors, or null when none are stored (`embed_repo`). */
  embeddingModel(): EmbeddingModel | null {
    return readEmbeddingModel((sql) => this.#prepare(sql));
  }

  /** The stored embedding vectors by text hash (hex), each `dim` long. */
  embeddingVectors(dim: number): Map<string, Float32Array> {
    return readEmbeddings((sql) => this.#prepare(sql), dim);
  }

  /** Number of indexed files. */
  fileCount(): number {
    return (this.#prepare("SELECT count(*) AS n FROM files").get() as { n: number }).n;
  }

  /** Number of indexed symbols. */
  symbolCount(): number {
    return (this.#prepare("SELECT count(*) AS n FROM symbols").get() as { n: number }).n;
  }

  /** Every indexed file, sorted by path. */
  listFiles(): FileEntry[] {
    return this.#prepare(`SELECT ${_FILE_COLUMNS} FROM files ORDER BY path`).all()
      .map(_fileEntry);
  }

  /** One file by its repo-relative path exactly as indexed, or undefined. */
  file(path: string): FileEntry | undefined {
    const row = this.#prepare(`SELECT ${_FILE_COLUMNS} FROM files WHERE path = ?`).get(path);
    return row === undefined ? undefined : _fileEntry(row);
  }

  /** The stored bytes of a file, exactly as read at index time, or undefined when not indexed. */
  fileBytes(path: string): Uint8Array | undefined {
    const row = this.#prepare(
      "SELECT c.content FROM files f JOIN contents c ON c.file_id = f.id WHERE f.path = ?",
    ).get(path) as
      | { content: Uint8Array }
      | undefined;
    return row?.content;
  }

  /** The stored text of a file (invalid UTF-8 shown as U+FFFD), or undefined. */
  fileText(path: string): string | undefined {
    const bytes = this.fileBytes(path);
    return bytes === undefined ? undefined : _decoder.decode(bytes);
  }

  /**
   * The first `bytes` bytes of every file's stored text that a language of code holds (its header
   * comment: a vendoring note), by path, of `paths` only when given; a cut UTF-8 sequence at the
   * end reads as U+FFFD.
   */
  fileHeads(
    bytes: number,
    languages: readonly string[],
    paths?: readonly string[],
  ): Map<string, string> {
    const out = new Map<string, string>();
    if (languages.length === 0) return out;
    const onlyPaths = paths === undefined ? "" : " AND f.path IN (SELECT value FROM json_each(?))";
    const rows = this.#prepare(
      `SELECT f.path AS path, substr(c.content, 1, ?) AS head FROM files f
       JOIN contents c ON c.file_id = f.id
       WHERE f.language IN (SELECT value FROM json_each(?))${onlyPaths}`,
    ).all(
      bytes,
      JSON.stringify(languages),
      ...(paths === undefined ? [] : [JSON.stringify(paths)]),
    ) as { path: string; head: Uint8Array | string | null }[];
    for (const r of rows) {
      if (r.head === null) continue;
      out.set(r.path, typeof r.head === "string" ? r.head : _decoder.decode(r.head));
    }
    return out;
  }

  /** The symbols of a file in source order (empty when the file is unknown). */
  symbolsOfFile(path: string): SymbolRecord[] {
    return this.#prepare(
      `SELECT ${_SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE f.path = ? ORDER BY s.seq`,
    ).all(path).map(_symbol);
  }

  /**
   * Id and line range of every symbol of a file, in source order: what finding the symbol that
   * encloses a line needs (a file of hundreds of symbols reads in a fraction of the time of
   * {@linkcode symbolsOfFile}).
   */
  symbolSpans(path: string): { id: string; line: number; end_line: number }[] {
    return this.#prepare(
      `SELECT ${_ID} AS id, s.line, s.end_line FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE f.path = ? ORDER BY s.seq`,
    ).all(path) as { id: string; line: number; end_line: number }[];
  }

  /** One symbol by id, or undefined. */
  symbol(id: string): SymbolRecord | undefined {
    const row = this.#byId(
      `SELECT ${_SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE ${_BY_ID}`,
      id,
    );
    return row === undefined ? undefined : _symbol(row);
  }

  /** Symbols whose `name` equals `name` (case-insensitively), in file and source order. */
  symbolsByName(name: string): SymbolRecord[] {
    return this.#prepare(
      `SELECT ${_SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE s.name = ? COLLATE NOCASE ORDER BY f.path, s.seq`,
    ).all(name).map(_symbol);
  }

  /** {@linkcode symbolsByName} with the brief fields only. */
  symbolBriefsByName(name: string): SymbolBriefRecord[] {
    return this.#prepare(
      `SELECT ${_BRIEF_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE s.name = ? COLLATE NOCASE ORDER BY f.path, s.seq`,
    ).all(name).map(_brief);
  }

  /**
   * Every measured function and method (complexity stored at index time), in file and source
   * order, without the text columns.
   */
  symbolMetrics(): SymbolMetricsRow[] {
    return this.#prepare(
      `SELECT ${_ID} AS id, f.path AS file, s.name, s.qualified_name, s.kind, s.language, s.line,
       s.end_line, s.cyclomatic, s.max_nesting, s.param_count
       FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.cyclomatic IS NOT NULL
       ORDER BY f.path, s.seq`,
    ).all() as unknown as SymbolMetricsRow[];
  }

  /** Every symbol of the repo, in file and source order. */
  allSymbols(): SymbolRecord[] {
    return this.#prepare(
      `SELECT ${_SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
       ORDER BY f.path, s.seq`,
    ).all().map(_symbol);
  }

  /**
   * Each file with at least one symbol, and its longest function or method in lines (0: none),
   * counted by SQLite: `search_ast` picks its files from it, and reading every symbol for it
   * held the main thread for 0.1 s on 6,000 symbols, seconds on a large repo.
   */
  longestFunctionByFile(): Map<string, number> {
    const rows = this.#prepare(
      `SELECT f.path AS file, MAX(CASE WHEN s.kind IN ('function', 'method')
         THEN s.end_line - s.line + 1 ELSE 0 END) AS longest
       FROM symbols s JOIN files f ON f.id = s.file_id GROUP BY f.id`,
    ).all() as { file: string; longest: number }[];
    return new Map(rows.map((r) => [r.file, r.longest]));
  }

  /**
   * Every symbol of the repo in brief (no text columns), in file and source order: what whole-repo
   * name indexes and graphs need, read several times faster than {@linkcode allSymbols}.
   */
  allSymbolBriefs(): (Omit<SymbolBriefRecord, "decorators"> & { byte_length: number })[] {
    return (this.#prepare(
      `SELECT ${_ID} AS id, f.path AS file, s.name, s.kind, s.language, s.byte_length
       FROM symbols s JOIN files f ON f.id = s.file_id ORDER BY f.path, s.seq`,
    ).all() as Record<string, unknown>[]).map((r) => ({
      id: r.id as string,
      file: r.file as string,
      name: r.name as string,
      kind: r.kind as SymbolKind,
      language: r.language as string,
      byte_length: r.byte_length as number,
    }));
  }

  /** Every symbol that has an enclosing symbol, with its parent's id (for whole-repo graphs). */
  symbolParents(): { id: string; parent: string }[] {
    return this.#prepare(
      `SELECT ${_ID} AS id, f.path || '::' || s.parent AS parent
       FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.parent IS NOT NULL ORDER BY s.rowid`,
    ).all() as { id: string; parent: string }[];
  }

  /**
   * The exact source bytes of a symbol: a slice of the stored file content by the symbol's byte
   * offset and length (no re-reading of the disk), or undefined when the id is unknown.
   */
  symbolBytes(id: string): Uint8Array | undefined {
    const row = this.#byId(
      `SELECT substr(c.content, s.byte_offset + 1, s.byte_length) AS source
       FROM symbols s JOIN contents c ON c.file_id = s.file_id WHERE ${_BY_ID}`,
      id,
    ) as { source: Uint8Array } | undefined;
    return row?.source;
  }

  /** The source text of a symbol (invalid UTF-8 shown as U+FFFD), or undefined. */
  symbolSource(id: string): string | undefined {
    const bytes = this.symbolBytes(id);
    return bytes === undefined ? undefined : _decoder.decode(bytes);
  }

  /**
   * Full-text symbol search (FTS5 BM25 over name parts ×10, signature ×3, docstring ×1,
   * summary ×1, keywords ×2), best first, ties by id. Query words and their camelCase/snake_case
   * parts are matched as prefixes and OR-ed. Returns `[]` for a query with no searchable
   * characters.
   */
  searchSymbols(query: string, options: SymbolSearchOptions = {}): SymbolHit[] {
    const match = symbolMatchExpression(query);
    if (match === null) return [];
    return this.#ranked(match, options, _SYMBOL_COLUMNS)
      .map((r) => ({ symbol: _symbol(r), bm25: Number(r.score) }));
  }

  /**
   * {@linkcode searchSymbols} with the brief fields of each hit only (same hits, same order):
   * for callers that rank many candidates and keep a few.
   */
  searchSymbolBriefs(query: string, options: SymbolSearchOptions = {}): SymbolBriefHit[] {
    const match = symbolMatchExpression(query);
    if (match === null) return [];
    return this.#ranked(match, options, _BRIEF_COLUMNS)
      .map((r) => ({ symbol: _brief(r), bm25: Number(r.score) }));
  }

  /**
   * The in-memory symbol ranking index of this repo's current state (see `symbol_search.ts`):
   * build it once per index state; the query layer scores its postings (`src/query/bm25.ts`).
   */
  symbolSearch(): SymbolSearch {
    // The build reads the rows twice (a count, then the arrays): one read transaction keeps both
    // reads, and the dictionary, on the same index state.
    const rows = () =>
      this.#prepare("SELECT file_id, labels, data FROM symbol_terms ORDER BY rowid")
        .iterate() as Iterable<{ file_id: number; labels: string; data: Uint8Array }>;
    this.#db.exec("BEGIN");
    try {
      const search = SymbolSearch.build(rows);
      // The term dictionary too (in term order), so that a search runs no query for its terms;
      // read as two joined strings (terms never contain a space), far cheaper than a row each.
      const dict = this.#prepare(
        `SELECT group_concat(term, ' ') AS terms, group_concat(id, ' ') AS ids
         FROM (SELECT term, id FROM symbol_term_ids ORDER BY term)`,
      ).get() as { terms: string | null; ids: string | null };
      const terms = dict.terms === null ? [] : dict.terms.split(" ");
      const ids = dict.ids === null ? [] : dict.ids.split(" ").map(Number);
      search.setDictionary(terms, Int32Array.from(ids));
      return search;
    } finally {
      this.#db.exec("COMMIT");
    }
  }

  /**
   * {@linkcode symbolSearch} of this state from `old`, the index of a state before some files'
   * symbols were written again with no file added or removed: only those files' rows and the
   * terms added since are read (`SymbolSearch.updated`).
   */
  symbolSearchAfter(old: SymbolSearch, paths: readonly string[]): SymbolSearch {
    this.#db.exec("BEGIN");
    try {
      const ids = (this.#prepare(
        "SELECT id FROM files WHERE path IN (SELECT value FROM json_each(?)) ORDER BY id",
      ).all(JSON.stringify(paths)) as { id: number }[]).map((r) => r.id);
      const rows = this.#prepare(
        `SELECT file_id, labels, data FROM symbol_terms
         WHERE file_id IN (SELECT value FROM json_each(?)) ORDER BY file_id`,
      ).all(JSON.stringify(ids)) as { file_id: number; labels: string; data: Uint8Array }[];
      return SymbolSearch.updated(old, new Set(ids), rows, (fromId) => {
        const found = this.#prepare(
          "SELECT term, id FROM symbol_term_ids WHERE id >= ? ORDER BY term",
        ).all(fromId) as { term: string; id: number }[];
        return { terms: found.map((r) => r.term), ids: found.map((r) => r.id) };
      });
    } finally {
      this.#db.exec("COMMIT");
    }
  }

  /** The brief fields of symbols by rowid (unknown rowids are left out). */
  symbolBriefsByRowid(rowids: readonly number[]): Map<number, SymbolBriefRecord> {
    return this.#byRowid(_BRIEF_COLUMNS, rowids, _brief);
  }

  /** `columns` of the symbols (alias `s`, their file `f`) with these rowids, made into records. */
  #byRowid<T>(
    columns: string,
    rowids: readonly number[],
    make: (row: Record<string, unknown>) => T,
  ): Map<number, T> {
    const out = new Map<number, T>();
    if (rowids.length === 0) return out;
    const rows = this.#prepare(
      `SELECT s.rowid AS rowid, ${columns} FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE s.rowid IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(rowids)) as Record<string, unknown>[];
    for (const r of rows) out.set(r.rowid as number, make(r));
    return out;
  }

  /**
   * Symbols named `name` (case-insensitively, like {@linkcode symbolBriefsByName}) with their
   * rowids, leaving out the rowids in `exclude` and other kinds or languages. With `limit`, only
   * the first `limit` by (exact-case name first, id) are read; `count` is always the number of
   * such symbols.
   */
  namedSymbolBriefs(
    name: string,
    options: { exclude?: readonly number[]; kind?: string; language?: string; limit?: number } = {},
  ): { count: number; hits: { rowid: number; symbol: SymbolBriefRecord }[] } {
    const where = `s.name = ?1 COLLATE NOCASE
       AND (?2 = '[]' OR s.rowid NOT IN (SELECT value FROM json_each(?2)))
       AND (?3 = '' OR s.kind = ?3) AND (?4 = '' OR s.language = ?4)`;
    const params = [
      name,
      JSON.stringify(options.exclude ?? []),
      options.kind ?? "",
      options.language ?? "",
    ];
    const rows = this.#prepare(
      `SELECT s.rowid AS rowid, ${_BRIEF_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE ${where} ORDER BY s.name = ?1 DESC, ${_ID} LIMIT ?5`,
    ).all(...params, options.limit ?? -1) as Record<string, unknown>[];
    const hits = rows.map((r) => ({ rowid: r.rowid as number, symbol: _brief(r) }));
    const count = options.limit === undefined || hits.length < options.limit
      ? hits.length
      : (this.#prepare(`SELECT count(*) AS n FROM symbols s WHERE ${where}`).get(...params) as {
        n: number;
      }).n;
    return { count, hits };
  }

  /** Ids and names of symbols by rowid (unknown rowids are left out). */
  symbolNamesByRowid(rowids: readonly number[]): Map<number, { id: string; name: string }> {
    return this.#byRowid(`${_ID} AS id, s.name AS name`, rowids, (r) => ({
      id: r.id as string,
      name: r.name as string,
    }));
  }

  /** Full symbol records by rowid (unknown rowids are left out). */
  symbolsByRowid(rowids: readonly number[]): Map<number, SymbolRecord> {
    return this.#byRowid(_SYMBOL_COLUMNS, rowids, _symbol);
  }

  /** Paths of the indexed files by file id (for the ranking's file filter). */
  filePathsById(): Map<number, string> {
    const out = new Map<number, string>();
    for (
      const r of this.#prepare("SELECT id, path FROM files").all() as { id: number; path: string }[]
    ) {
      out.set(r.id, r.path);
    }
    return out;
  }

  /**
   * The hits of one MATCH expression. BM25 is computed over the FTS index alone (plus the kind
   * and language columns when filtering); only the rows that can make the top `limit` — those
   * scoring at least the `limit`-th best score, so ties at the cut are all there for the id
   * order — are joined with the symbol and file tables. Same hits and order as sorting the whole
   * joined result by (score desc, id), at a fraction of the cost on large repos.
   */
  #ranked(
    match: string,
    options: SymbolSearchOptions,
    columns: string,
  ): Record<string, unknown>[] {
    const limit = Math.max(1, Math.floor(options.limit ?? 50));
    const params: (string | number)[] = [match];
    let filter = "";
    if (options.kinds !== undefined && options.kinds.length > 0) {
      filter += ` AND s.kind IN (${options.kinds.map(() => "?").join(",")})`;
      params.push(...options.kinds);
    }
    if (options.language !== undefined) {
      filter += " AND s.language = ?";
      params.push(options.language);
    }
    const from = filter === ""
      ? "symbols_fts"
      : "symbols_fts JOIN symbols s ON s.rowid = symbols_fts.rowid";
    params.push(limit - 1, limit);
    return this.#prepare(
      `WITH h AS MATERIALIZED (
         SELECT symbols_fts.rowid AS rowid,
           -bm25(symbols_fts, 10.0, 3.0, 1.0, 1.0, 2.0) AS score
         FROM ${from} WHERE symbols_fts MATCH ?${filter}),
       cut AS (SELECT score FROM h ORDER BY score DESC LIMIT 1 OFFSET ?)
       SELECT ${columns}, h.score AS score
       FROM h JOIN symbols s ON s.rowid = h.rowid JOIN files f ON f.id = s.file_id
       WHERE h.score >= coalesce((SELECT score FROM cut), -1e308)
       ORDER BY h.score DESC, ${_ID} LIMIT ?`,
    ).all(...params) as Record<string, unknown>[];
  }

  /**
   * Paths (sorted) of the files that may contain every one of `literals` case-insensitively —
   * a superset chosen by the trigram index, for the caller to verify — or null when the literals
   * are too short for the index to narrow anything (then every file is a candidate).
   */
  textCandidates(literals: readonly string[]): string[] | null {
    const grams = queryTrigrams(literals);
    if (grams === null) return null;
    const read = this.#prepare("SELECT files FROM text_postings WHERE gram = ?");
    const ids = filesWithAll(
      (g) => (read.get(g) as { files: Uint8Array } | undefined)?.files,
      grams,
    );
    if (ids.length === 0) return [];
    return (this.#prepare(
      "SELECT path FROM files WHERE id IN (SELECT value FROM json_each(?)) ORDER BY path",
    ).all(JSON.stringify(ids)) as { path: string }[]).map((r) => r.path);
  }

  /**
   * Symbols whose signature contains `word` as a whole word (case-sensitive), in file and source
   * order: the FTS5 index narrows to signatures holding the word's tokens, then the exact word is
   * checked in each.
   */
  symbolsWithSignatureWord(word: string): SymbolRecord[] {
    const tokens = word.match(/[\p{L}\p{N}]+/gu) ?? [];
    if (tokens.length === 0) return [];
    const match = tokens.map((t) => `signature : "${t}"`).join(" AND ");
    const re = new RegExp(
      `(?<![\\p{L}\\p{N}_$])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}_$])`,
      "u",
    );
    return this.#prepare(
      `SELECT ${_SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE s.rowid IN (SELECT rowid FROM symbols_fts WHERE symbols_fts MATCH ?)
       ORDER BY f.path, s.seq`,
    ).all(match).map(_symbol).filter((s) => re.test(s.signature));
  }

  /** Every symbol of one of `kinds`, in file and source order. */
  symbolsOfKinds(kinds: readonly SymbolKind[]): SymbolRecord[] {
    if (kinds.length === 0) return [];
    return this.#prepare(
      `SELECT ${_SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE s.kind IN (${kinds.map(() => "?").join(", ")}) ORDER BY f.path, s.seq`,
    ).all(...kinds).map(_symbol);
  }

  /**
   * Every symbol of one of `kinds`, lean: its id, language and signature, and its source text when
   * one of `withSource` names its language and its signature contains one of that entry's `words`
   * (Go structs and interfaces, whose embedded types are in the body).
   */
  declarations(
    kinds: readonly SymbolKind[],
    withSource: readonly { language: string; words: readonly string[] }[],
  ): { id: string; language: string; signature: string; source: string | null }[] {
    if (kinds.length === 0) return [];
    const wants =
      withSource.filter((w) => w.words.length > 0).map((w) =>
        `(s.language = ? AND (${w.words.map(() => "s.signature LIKE ?").join(" OR ")}))`
      ).join(" OR ") || "0";
    const wantArgs = withSource.filter((w) => w.words.length > 0).flatMap((w) => [
      w.language,
      ...w.words.map((word) => `%${word}%`),
    ]);
    const rows = this.#prepare(
      `SELECT ${_ID} AS id, s.file_id, s.language, s.signature, s.byte_offset, s.byte_length,
         ${wants} AS wants_source
       FROM symbols s JOIN files f ON f.id = s.file_id
       WHERE s.kind IN (${kinds.map(() => "?").join(", ")}) ORDER BY s.rowid`,
    ).all(...wantArgs, ...kinds) as {
      id: string;
      file_id: number;
      language: string;
      signature: string;
      byte_offset: number;
      byte_length: number;
      wants_source: number;
    }[];
    // Each file's content is read once for all of its symbols that need their source.
    const sources = new Map<string, string>();
    const byFile = new Map<number, typeof rows>();
    for (const r of rows) {
      if (r.wants_source !== 1) continue;
      const list = byFile.get(r.file_id);
      if (list === undefined) byFile.set(r.file_id, [r]);
      else list.push(r);
    }
    const content = this.#prepare("SELECT content FROM contents WHERE file_id = ?");
    for (const [fileId, list] of byFile) {
      const bytes = (content.get(fileId) as { content: Uint8Array } | undefined)?.content;
      if (bytes === undefined) continue;
      for (const r of list) {
        const slice = bytes.subarray(r.byte_offset, r.byte_offset + r.byte_length);
        sources.set(r.id, _decoder.decode(slice));
      }
    }
    return rows.map((r) => ({
      id: r.id,
      language: r.language,
      signature: r.signature,
      source: sources.get(r.id) ?? null,
    }));
  }

  /** The imports of one file, in source order. */
  importsOf(path: string): StoredImport[] {
    return this.#prepare(
      `SELECT f.path AS file, i.specifier, i.names, i.line, i.resolved FROM imports i
       JOIN files f ON f.id = i.file_id WHERE f.path = ? ORDER BY i.seq`,
    ).all(path).map(_import);
  }

  /** The imports anywhere in the repo that resolve to `path`, by importing file and line. */
  importersOf(path: string): StoredImport[] {
    return this.#prepare(
      `SELECT f.path AS file, i.specifier, i.names, i.line, i.resolved FROM imports i
       JOIN files f ON f.id = i.file_id WHERE i.resolved = ? ORDER BY f.path, i.seq`,
    ).all(path).map(_import);
  }

  /** Every import of the repo, by file and source order (for dependency graphs). */
  allImports(): StoredImport[] {
    return this.#prepare(
      `SELECT f.path AS file, i.specifier, i.names, i.line, i.resolved FROM imports i
       JOIN files f ON f.id = i.file_id ORDER BY f.path, i.seq`,
    ).all().map(_import);
  }

  /** The calls made from inside the symbol `callerId`, in source order. */
  callsFrom(callerId: string): StoredCall[] {
    const row = this.#byId(
      `SELECT f.path, s.file_id, s.seq, cs.calls FROM symbols s JOIN files f ON f.id = s.file_id
       JOIN call_sites cs ON cs.file_id = s.file_id WHERE ${_BY_ID}`,
      callerId,
    ) as { path: string; file_id: number; seq: number; calls: string } | undefined;
    if (row === undefined) return [];
    return this.#sites(row.path, row.file_id, row.calls, (site) => site[2] === row.seq);
  }

  /** The call sites whose callee name is `name`, by file and source order. */
  callsTo(name: string): StoredCall[] {
    // The callee index narrows to the files that may call `name` (a superset: its tokenizer
    // folds case and splits at punctuation); the exact name is checked in each file's sites.
    const words = name.match(/[\p{L}\p{N}_$]+/gu) ?? [];
    const sql = `SELECT f.path, f.id AS file_id, cs.calls FROM call_sites cs
       JOIN files f ON f.id = cs.file_id`;
    const rows =
      (words.length === 0 ? this.#prepare(sql + " ORDER BY f.path").all() : this.#prepare(
        sql + ` WHERE cs.file_id IN (SELECT rowid FROM callee_files WHERE callee_files MATCH ?)
         ORDER BY f.path`,
      ).all(words.map((w) => `"${w}"`).join(" "))) as {
        path: string;
        file_id: number;
        calls: string;
      }[];
    return rows.flatMap((r) => this.#sites(r.path, r.file_id, r.calls, (site) => site[0] === name));
  }

  /**
   * The files that may call `name` (their call sites name a callee with the same words), by
   * path: a superset, to be checked against {@linkcode callsInFile}.
   */
  filesCalling(name: string): string[] {
    const words = name.match(/[\p{L}\p{N}_$]+/gu) ?? [];
    if (words.length === 0) {
      return (this.#prepare(
        "SELECT f.path FROM call_sites cs JOIN files f ON f.id = cs.file_id ORDER BY f.path",
      )
        .all() as { path: string }[]).map((r) => r.path);
    }
    return (this.#prepare(
      `SELECT f.path FROM files f WHERE f.id IN
       (SELECT rowid FROM callee_files WHERE callee_files MATCH ?) ORDER BY f.path`,
    ).all(words.map((w) => `"${w}"`).join(" ")) as { path: string }[]).map((r) => r.path);
  }

  /** The call sites of one file, in source order. */
  callsInFile(path: string): StoredCall[] {
    const row = this.#prepare(
      `SELECT f.id AS file_id, cs.calls FROM files f JOIN call_sites cs ON cs.file_id = f.id
       WHERE f.path = ?`,
    ).get(path) as { file_id: number; calls: string } | undefined;
    return row === undefined ? [] : this.#sites(path, row.file_id, row.calls, () => true);
  }

  /** Every call site of the repo, by file and source order (for call graphs). */
  allCalls(): StoredCall[] {
    const rows = this.#prepare(
      `SELECT f.path, f.id AS file_id, cs.calls FROM call_sites cs JOIN files f ON f.id = cs.file_id
       ORDER BY f.path`,
    ).all() as { path: string; file_id: number; calls: string }[];
    return rows.flatMap((r) => this.#sites(r.path, r.file_id, r.calls, () => true));
  }

  /**
   * Every call site's callee name and whether it has a receiver, by file: the part of
   * {@linkcode allCalls} that name-level graphs (centrality) need, without resolving callers.
   */
  *allCallees(): Generator<{ file: string; callee: string; receiver: boolean }> {
    // Row by row: a large repo has hundreds of thousands of call sites, and the caller only
    // aggregates them (a list of them all held ~70 MB at once for the Go standard library).
    const rows = this.#prepare(
      `SELECT f.path, cs.calls FROM call_sites cs JOIN files f ON f.id = cs.file_id ORDER BY f.path`,
    ).iterate() as Iterable<{ path: string; calls: string }>;
    for (const r of rows) {
      for (const site of JSON.parse(r.calls) as _Site[]) {
        yield { file: r.path, callee: site[0], receiver: site[1] !== null };
      }
    }
  }

  /**
   * How many definitions (symbols of any kind but `import`) bear each name, case-sensitive, in
   * one pass over the name index.
   */
  definitionNameCounts(): Map<string, number> {
    const out = new Map<string, number>();
    for (
      const r of this.#prepare(
        `SELECT name, count(*) AS n FROM symbols WHERE kind != 'import'
         GROUP BY name COLLATE BINARY`,
      ).all() as { name: string; n: number }[]
    ) out.set(r.name, r.n);
    return out;
  }

  /**
   * How many symbols bear each name (case matters: `Get` and `get` differ), in one pass over the
   * name index.
   */
  symbolNameCounts(): Map<string, number> {
    const out = new Map<string, number>();
    for (
      const r of this.#prepare(
        "SELECT name, count(*) AS n FROM symbols GROUP BY name COLLATE BINARY",
      ).all() as { name: string; n: number }[]
    ) out.set(r.name, r.n);
    return out;
  }

  #sites(
    path: string,
    fileId: number,
    json: string,
    keep: (site: _Site) => boolean,
  ): StoredCall[] {
    const sites = (JSON.parse(json) as _Site[]).filter(keep);
    if (sites.length === 0) return [];
    const ids = new Map<number, string>();
    if (sites.some((s) => s[2] !== null)) {
      const rows = this.#prepare("SELECT seq, local_id FROM symbols WHERE file_id = ?").all(
        fileId,
      ) as { seq: number; local_id: string }[];
      for (const r of rows) ids.set(r.seq, `${path}::${r.local_id}`);
    }
    return sites.map(([callee, receiver, caller, line]) => ({
      file: path,
      callee,
      receiver,
      caller: caller === null ? null : ids.get(caller) ?? null,
      line,
    }));
  }
}

type _Statement = ReturnType<DatabaseSync["prepare"]>;

/** One stored call site: callee, receiver, seq of the calling symbol in its file, line. */
type _Site = [string, string | null, number | null, number];

/** Read the meta table of an open index (shared with the writer). */
export function readMeta(db: DatabaseSync): RepoMeta {
  const values = new Map<string, string>();
  for (
    const row of db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[]
  ) {
    values.set(row.key, row.value);
  }
  const json = <T>(key: string, fallback: T): T => {
    const v = values.get(key);
    if (v === undefined) return fallback;
    try {
      return JSON.parse(v) as T;
    } catch {
      return fallback;
    }
  };
  const count = (table: string) =>
    (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  return {
    repo: values.get("repo") ?? "",
    owner: values.get("owner") ?? "",
    name: values.get("name") ?? "",
    display_name: values.get("display_name") ?? "",
    source_root: values.get("source_root") ?? "",
    indexed_at: values.get("indexed_at") ?? "",
    git_head: values.get("git_head") ?? "",
    index_version: SCHEMA_VERSION,
    extractor_version: json("extractor_version", values.has("repo") ? 1 : 0),
    languages: json("languages", {}),
    file_count: count("files"),
    symbol_count: count("symbols"),
    discovery_skip_counts: json("discovery_skip_counts", {}),
  };
}

function _fileEntry(row: unknown): FileEntry {
  const r = row as FileEntry;
  return {
    path: r.path,
    language: r.language,
    size: r.size,
    hash: r.hash,
    status: r.status,
    reason: r.reason,
    summary: r.summary,
    symbol_count: r.symbol_count,
    line_count: r.line_count,
    mtime_ms: r.mtime_ms,
  };
}

function _symbol(row: unknown): SymbolRecord {
  const r = row as Record<string, unknown>;
  const symbol: SymbolRecord = {
    id: r.id as string,
    file: r.file as string,
    name: r.name as string,
    qualified_name: r.qualified_name as string,
    kind: r.kind as SymbolKind,
    language: r.language as string,
    signature: r.signature as string,
    docstring: r.docstring as string,
    summary: r.summary as string,
    decorators: _stringList(r.decorators),
    keywords: _stringList(r.keywords),
    parent: (r.parent as string | null) ?? null,
    line: r.line as number,
    end_line: r.end_line as number,
    byte_offset: r.byte_offset as number,
    byte_length: r.byte_length as number,
    content_hash: r.content_hash as string,
  };
  if (r.cyclomatic !== null && r.cyclomatic !== undefined) {
    symbol.complexity = {
      cyclomatic: r.cyclomatic as number,
      max_nesting: r.max_nesting as number,
      param_count: r.param_count as number,
    };
  }
  return symbol;
}

/** A stored JSON list of strings (most are empty). */
function _stringList(text: unknown): string[] {
  return text === "[]" ? [] : JSON.parse(text as string) as string[];
}

function _brief(row: unknown): SymbolBriefRecord {
  const r = row as Record<string, unknown>;
  return {
    id: r.id as string,
    file: r.file as string,
    name: r.name as string,
    kind: r.kind as SymbolKind,
    language: r.language as string,
    decorators: _stringList(r.decorators),
  };
}

function _import(row: unknown): StoredImport {
  const r = row as Record<string, unknown>;
  return {
    file: r.file as string,
    specifier: r.specifier as string,
    names: JSON.parse(r.names as string) as string[],
    line: r.line as number,
    resolved: (r.resolved as string | null) ?? null,
  };
}
