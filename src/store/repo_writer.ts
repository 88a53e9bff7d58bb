/**
 * Write access to one repo's index. A writer holds SQLite's write lock (`BEGIN IMMEDIATE`) for
 * the whole re-index, so one re-index is one transaction: readers keep seeing the previous index
 * until `commit()`, a crash or kill before it leaves the previous index intact (WAL rollback),
 * and a second writer waits for the lock or gets `ToolError("index_busy")`.
 */
import { mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { ParseResult, SymbolRecord } from "../parser/types.ts";
import { ToolError } from "../errors.ts";
import { beginImmediate, type DatabaseSync, openDatabase, rollbackQuietly } from "./sqlite.ts";
import { ensureSchema, SECONDARY_INDEXES } from "./schema.ts";
import { nameTokens } from "./fts_text.ts";
import { TextPostingsWriter } from "./text_postings.ts";
import { type SymbolTermsInput, SymbolTermsWriter } from "./symbol_terms.ts";
import { readMeta, type RepoMeta } from "./repo_index.ts";
import { REDACTION_RULES, redactStoredFields, searchField } from "./search_inputs.ts";
import { fillTextPostings } from "./text_postings.ts";

/**
 * WAL size above which closing a writer checkpoints and truncates the WAL. Below it, SQLite's
 * automatic checkpoint (at 1,000 pages, about 4 MB) keeps it small.
 */
const _CHECKPOINT_WAL_BYTES = 4 * 1024 * 1024;
/**
 * Page cache of a writer's connection, in KiB (readers keep the default 32 MB). A full rebuild
 * writes one large transaction: its cache fills with dirty pages that SQLite spills to the WAL
 * anyway, so a larger cache only holds memory (~30 MB of the peak RSS of indexing the Go
 * standard library) without making the index faster; a one-file re-index touches few pages.
 */
const _WRITER_CACHE_KIB = 8000;
/** Rows per multi-row insert, largest first (see `RepoWriter.#insertFlat`). */
const _INSERT_BATCHES = [32, 8, 2, 1] as const;

function _fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** What the writer remembers about a stored file, for change detection. */
export interface StoredFileState {
  id: number;
  hash: string;
  size: number;
  mtime_ms: number;
  ctime_ms: number;
  /** Wall-clock time at which this stat was taken. */
  checked_ms: number;
}

/** A file to store: its bytes, stat and derived facts. */
export interface FileToStore {
  path: string;
  language: string;
  content: Uint8Array;
  hash: string;
  mtime_ms: number;
  ctime_ms: number;
  checked_ms: number;
  summary: string;
  line_count: number;
}

/** An import row as stored, for re-resolution after files were added or removed. */
export interface ImportRow {
  file: string;
  language: string;
  file_id: number;
  seq: number;
  specifier: string;
  names: string[];
  line: number;
  resolved: string | null;
}

/** Options for {@linkcode RepoWriter.open}. */
export interface WriterOptions {
  /**
   * How long to wait for another writer to finish before failing with `index_busy`, in ms.
   * @default 30000
   */
  waitMs?: number;
  /** Called once when the writer commits or rolls back (the store's per-repo write queue). */
  onClose?: () => void;
}

/**
 * An index whose search inputs were derived under other redaction rules (or before there were
 * any) has them derived again, inside the open transaction: stored signatures, docstrings and
 * summaries redacted, the FTS5 index, the symbol terms and the text postings rebuilt.
 */
function _ensureRedactedInputs(db: DatabaseSync): void {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'redaction_rules'").get() as
    | { value: string }
    | undefined;
  if (row?.value === REDACTION_RULES) return;
  const files = (db.prepare("SELECT count(*) AS n FROM files").get() as { n: number }).n;
  if (files > 0) {
    redactStoredFields(db);
    new SymbolTermsWriter(db).fillAll();
    fillTextPostings(db);
  }
  db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('redaction_rules', ?)").run(
    REDACTION_RULES,
  );
}

/** Writes one re-index of a repo as a single transaction. */
export class RepoWriter {
  readonly #db: DatabaseSync;
  readonly #textIndex: TextPostingsWriter;
  #symbolTerms: SymbolTermsWriter | undefined;
  #stmts = new Map<string, ReturnType<DatabaseSync["prepare"]>>();
  /** Set by a full rebuild: the indexes over all rows are built once, by `finish()`. */
  #deferIndexes = false;
  #nextSymbolRowid: number | undefined;
  /**
   * Milliseconds spent so far inserting rows, building the text index (trigram postings), the
   * symbol search index (FTS5 rows and symbol terms) and the secondary indexes.
   */
  readonly timings = { rows_ms: 0, text_index_ms: 0, symbol_index_ms: 0, secondary_index_ms: 0 };
  /** Set when an existing index had to be migrated or rebuilt. */
  schemaWarning: string | null;

  readonly #walPath: string;
  #onClose: (() => void) | undefined;

  private constructor(
    db: DatabaseSync,
    dbPath: string,
    schemaWarning: string | null,
    onClose: (() => void) | undefined,
  ) {
    this.#db = db;
    this.#textIndex = new TextPostingsWriter(db);
    this.#walPath = `${dbPath}-wal`;
    this.schemaWarning = schemaWarning;
    this.#onClose = onClose;
  }

  /**
   * Open (creating it if needed) the index at `dbPath` and take its write lock. The schema is
   * created, migrated, or — for an index from an older schema that cannot be migrated —
   * rebuilt empty, all inside the transaction.
   */
  static async open(dbPath: string, options: WriterOptions = {}): Promise<RepoWriter> {
    mkdirSync(dirname(dbPath), { recursive: true });
    const db = openDatabase(dbPath, { cacheKiB: _WRITER_CACHE_KIB });
    try {
      const locked = await beginImmediate(db, options.waitMs ?? 30_000);
      if (!locked) {
        throw new ToolError(
          "index_busy",
          `The index at "${dbPath}" is being written by another process; try again when it finishes`,
        );
      }
      let warning: string | null;
      try {
        warning = ensureSchema(db);
      } catch (e) {
        if (e instanceof RangeError) throw new ToolError("index_incompatible", e.message);
        throw e;
      }
      _ensureRedactedInputs(db);
      return new RepoWriter(db, dbPath, warning, options.onClose);
    } catch (e) {
      rollbackQuietly(db);
      db.close();
      throw e;
    }
  }

  #stmt(sql: string) {
    let s = this.#stmts.get(sql);
    if (s === undefined) {
      s = this.#db.prepare(sql);
      this.#stmts.set(sql, s);
    }
    return s;
  }

  /** The stored state of every file, by path. */
  fileStates(): Map<string, StoredFileState> {
    const out = new Map<string, StoredFileState>();
    const rows = this.#db.prepare(
      "SELECT id, path, hash, size, mtime_ms, ctime_ms, checked_ms FROM files",
    ).all() as unknown as (StoredFileState & { path: string })[];
    // The row objects themselves are the states (no copy per file).
    for (const r of rows) out.set(r.path, r);
    return out;
  }

  /** The stored state of one file, or undefined (a re-index of a few files needs no more). */
  fileState(path: string): StoredFileState | undefined {
    return this.#stmt(
      "SELECT id, hash, size, mtime_ms, ctime_ms, checked_ms FROM files WHERE path = ?",
    ).get(path) as unknown as StoredFileState | undefined;
  }

  /** The stored content of a file, or undefined. */
  fileBytes(path: string): Uint8Array | undefined {
    const row = this.#stmt(
      "SELECT c.content FROM files f JOIN contents c ON c.file_id = f.id WHERE f.path = ?",
    ).get(path) as
      | { content: Uint8Array }
      | undefined;
    return row?.content;
  }

  /** One raw meta value of the stored index, or undefined. */
  metaValue(key: string): string | undefined {
    const row = this.#stmt("SELECT value FROM meta WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  /** The stored facts of the repo. */
  meta(): RepoMeta {
    return readMeta(this.#db);
  }

  /**
   * Remove every file, symbol, import and call (a full rebuild starts here). The secondary
   * indexes, the symbols' FTS5 index and terms and the text index's rows are then built in one
   * pass by `finish()` (called by `commit()`) instead of row by row.
   */
  clear(): void {
    this.#deferIndexes = true;
    for (const name of Object.keys(SECONDARY_INDEXES)) {
      this.#db.exec(`DROP INDEX IF EXISTS ${name}`);
    }
    this.#db.exec(`
      INSERT INTO symbols_fts(symbols_fts) VALUES('delete-all');
      INSERT INTO callee_files(callee_files) VALUES('delete-all');
      DELETE FROM call_sites; DELETE FROM imports; DELETE FROM symbols; DELETE FROM contents;
      DELETE FROM files;`);
    this.#terms().clear();
    this.#textIndex.clear();
  }

  #terms(): SymbolTermsWriter {
    return this.#symbolTerms ??= new SymbolTermsWriter(this.#db);
  }

  /**
   * Store a new or changed file with its parse result, replacing what was stored for it: the
   * file row and its bytes, its trigrams (see `text_postings.ts`), its symbols and their search
   * rows (FTS5 and symbol terms, unless a full rebuild defers them), its imports (multi-row
   * inserts) and its call sites (one JSON row plus one callee-index row).
   */
  putFile(file: FileToStore, result: ParseResult): void {
    const t0 = performance.now();
    const { fileId, previous } = this.#putFileRow(file, result);
    const tg = performance.now();
    this.#textIndex.put(fileId, file.content, previous);
    const textMs = performance.now() - tg;
    let termsMs = 0;
    let ftsMs = 0;
    if (result.symbols.length > 0) {
      const terms = this.#putSymbols(fileId, file.path, result.symbols);
      // A full rebuild writes every file's symbol terms at the end (finish()), in one pass.
      // Written here as each file arrived, they saved no main-thread CPU in any benchmark run
      // and raised gostd's peak RSS by ~50 MB (docs/index_performance.md).
      if (!this.#deferIndexes) {
        const tt = performance.now();
        this.#terms().put(fileId, terms);
        termsMs = performance.now() - tt;
        const tf = performance.now();
        this.#putSymbolSearch(terms);
        ftsMs = performance.now() - tf;
      }
    }
    if (result.imports.length > 0) this.#putImports(fileId, result);
    if (result.calls.length > 0) this.#putCalls(fileId, result);
    this.timings.text_index_ms += textMs;
    this.timings.symbol_index_ms += ftsMs + termsMs;
    this.timings.rows_ms += performance.now() - t0 - textMs - ftsMs - termsMs;
  }

  /**
   * The file's row and content, updated in place (its children deleted) or inserted: its id, and
   * the content it replaces.
   */
  #putFileRow(
    file: FileToStore,
    result: ParseResult,
  ): { fileId: number; previous: Uint8Array | undefined } {
    const existing = this.#stmt("SELECT id FROM files WHERE path = ?").get(file.path) as
      | { id: number }
      | undefined;
    const values = [
      file.language,
      file.content.length,
      file.hash,
      file.mtime_ms,
      file.ctime_ms,
      file.checked_ms,
      result.status,
      result.reason,
      searchField(file.summary),
      result.symbols.length,
      file.line_count,
    ] as const;
    if (existing !== undefined) {
      const fileId = existing.id;
      const previous = this.#contentOf(fileId);
      this.#deleteChildren(fileId);
      this.#stmt(
        `UPDATE files SET language = ?, size = ?, hash = ?, mtime_ms = ?, ctime_ms = ?,
         checked_ms = ?, status = ?, reason = ?, summary = ?, symbol_count = ?, line_count = ?
         WHERE id = ?`,
      ).run(...values, fileId);
      this.#stmt("UPDATE contents SET content = ? WHERE file_id = ?").run(file.content, fileId);
      return { fileId, previous };
    }
    const r = this.#stmt(
      `INSERT INTO files(path, language, size, hash, mtime_ms, ctime_ms, checked_ms, status,
       reason, summary, symbol_count, line_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(file.path, ...values);
    const fileId = Number(r.lastInsertRowid);
    this.#stmt("INSERT INTO contents(file_id, content) VALUES (?, ?)").run(fileId, file.content);
    return { fileId, previous: undefined };
  }

  /** The file's symbol rows; their search terms. */
  #putSymbols(fileId: number, path: string, symbols: readonly SymbolRecord[]): SymbolTermsInput[] {
    // Row numbers are assigned here: multi-row inserts, no lookups of the new rows.
    this.#nextSymbolRowid ??= (this.#db.prepare(
      "SELECT coalesce(max(rowid), 0) + 1 AS n FROM symbols",
    ).get() as { n: number }).n;
    const base = this.#nextSymbolRowid;
    this.#nextSymbolRowid += symbols.length;
    const { flat, terms } = _symbolRows(symbols, base, fileId, path);
    this.#insertFlat(
      `symbols(rowid, local_id, file_id, seq, name, qualified_name, kind, language, signature,
       docstring, summary, decorators, keywords, parent, line, end_line, byte_offset,
       byte_length, content_hash, name_tokens, cyclomatic, max_nesting, param_count)`,
      23,
      flat,
      "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,unhex(?),?,?,?,?)",
    );
    return terms;
  }

  /**
   * The symbols' FTS5 rows from the texts at hand, 32 rows a statement. A full rebuild leaves
   * this to FTS5's 'rebuild' at the end instead: measured on gostd's 142k symbols, one 'rebuild'
   * takes 0.5 s, the same rows inserted file by file 1.8 s.
   */
  #putSymbolSearch(terms: readonly SymbolTermsInput[]): void {
    const flat: (string | number)[] = [];
    for (const t of terms) flat.push(t.rowid, ...t.texts);
    this.#insertFlat(
      "symbols_fts(rowid, name_tokens, signature, docstring, summary, keywords)",
      6,
      flat,
    );
  }

  /** The file's import rows, in order. */
  #putImports(fileId: number, result: ParseResult): void {
    const flat: (string | number | null)[] = [];
    let seq = 0;
    for (const i of result.imports) {
      flat.push(fileId, seq++, i.specifier, JSON.stringify(i.names), i.line, i.resolved);
    }
    this.#insertFlat("imports(file_id, seq, specifier, names, line, resolved)", 6, flat);
  }

  /** The file's call sites (one JSON row) and the names it calls. */
  #putCalls(fileId: number, result: ParseResult): void {
    // The caller is a symbol of the same file: store its position there, not its long id.
    const seqOf = new Map<string, number>();
    result.symbols.forEach((s, i) => seqOf.set(s.id, i));
    const sites = result.calls.map((c) => [
      c.callee,
      c.receiver,
      c.caller === null ? null : seqOf.get(c.caller) ?? null,
      c.line,
    ]);
    this.#stmt("INSERT INTO call_sites(file_id, calls) VALUES (?, ?)").run(
      fileId,
      JSON.stringify(sites),
    );
    this.#stmt("INSERT INTO callee_files(rowid, callees) VALUES (?, ?)").run(
      fileId,
      [...new Set(result.calls.map((c) => c.callee))].join(" "),
    );
  }

  /**
   * Insert many rows (given flat, `width` values per row) with multi-row VALUES statements, 32,
   * then 8, then 2 rows at a time before single rows: far fewer calls into SQLite than one
   * statement per row (`node:sqlite` costs about as much per call as SQLite's insert itself:
   * 60k rows of 20 values took 1.2-1.8 s one by one, 0.75 s 16 at a time). `row` is the
   * VALUES tuple of one row (default: `width` plain parameters).
   */
  #insertFlat(
    target: string,
    width: number,
    flat: readonly (string | number | null)[],
    row = "(" + Array(width).fill("?").join(",") + ")",
  ): void {
    const rows = flat.length / width;
    let i = 0;
    for (const batch of _INSERT_BATCHES) {
      if (rows - i < batch) continue;
      const stmt = this.#multiInsert(target, row, batch);
      for (; i + batch <= rows; i += batch) {
        stmt.run(...flat.slice(i * width, (i + batch) * width));
      }
    }
  }

  #multiInsert(target: string, row: string, rows: number) {
    const key = `${target}*${row}*${rows}`;
    let s = this.#stmts.get(key);
    if (s === undefined) {
      s = this.#db.prepare(`INSERT INTO ${target} VALUES ` + Array(rows).fill(row).join(","));
      this.#stmts.set(key, s);
    }
    return s;
  }

  /** Record a fresh stat for a file whose content did not change. */
  touchFile(path: string, mtimeMs: number, ctimeMs: number, checkedMs: number): void {
    this.#stmt("UPDATE files SET mtime_ms = ?, ctime_ms = ?, checked_ms = ? WHERE path = ?")
      .run(mtimeMs, ctimeMs, checkedMs, path);
  }

  /** Remove a file with its symbols, imports and calls. */
  deleteFile(path: string): void {
    const row = this.#stmt("SELECT id FROM files WHERE path = ?").get(path) as
      | { id: number }
      | undefined;
    if (row === undefined) return;
    const content = this.#contentOf(row.id);
    if (content !== undefined) this.#textIndex.remove(row.id, content);
    this.#deleteChildren(row.id);
    this.#stmt("DELETE FROM contents WHERE file_id = ?").run(row.id);
    this.#stmt("DELETE FROM files WHERE id = ?").run(row.id);
  }

  #deleteChildren(fileId: number): void {
    // External-content FTS5 needs the old values to remove a row's terms.
    this.#stmt(
      `INSERT INTO symbols_fts(symbols_fts, rowid, name_tokens, signature, docstring, summary, keywords)
       SELECT 'delete', rowid, name_tokens, signature, docstring, summary, keywords
       FROM symbols WHERE file_id = ?`,
    ).run(fileId);
    this.#stmt("DELETE FROM symbols WHERE file_id = ?").run(fileId);
    this.#stmt("DELETE FROM imports WHERE file_id = ?").run(fileId);
    this.#stmt("DELETE FROM call_sites WHERE file_id = ?").run(fileId);
    this.#stmt("DELETE FROM callee_files WHERE rowid = ?").run(fileId);
    this.#terms().deleteFile(fileId);
  }

  /**
   * Stored imports with their file's path and language (for re-resolution): those of `paths`,
   * or every import when `paths` is null.
   */
  imports(paths: readonly string[] | null): ImportRow[] {
    const sql = `SELECT f.path AS file, f.language, i.file_id, i.seq, i.specifier, i.names, i.line,
       i.resolved FROM imports i JOIN files f ON f.id = i.file_id`;
    type Row = Omit<ImportRow, "names"> & { names: string };
    let rows: Row[];
    if (paths === null) {
      rows = this.#db.prepare(sql + " ORDER BY f.path, i.seq").all() as unknown as Row[];
    } else {
      rows = [];
      const one = this.#stmt(sql + " WHERE f.path = ? ORDER BY i.seq");
      for (const p of paths) rows.push(...(one.all(p) as unknown as Row[]));
    }
    return rows.map((r) => ({ ...r, names: JSON.parse(r.names) as string[] }));
  }

  /** Change the resolved target of one stored import. */
  setResolved(fileId: number, seq: number, resolved: string | null): void {
    this.#stmt("UPDATE imports SET resolved = ? WHERE file_id = ? AND seq = ?")
      .run(resolved, fileId, seq);
  }

  /** Files per language over the whole stored index. */
  languageCounts(): Record<string, number> {
    const out: Record<string, number> = {};
    const rows = this.#db.prepare(
      "SELECT language, count(*) AS n FROM files GROUP BY language ORDER BY language",
    ).all() as { language: string; n: number }[];
    for (const r of rows) out[r.language] = r.n;
    return out;
  }

  /** The first `limit` stored paths, sorted. */
  paths(limit: number): string[] {
    return (this.#db.prepare("SELECT path FROM files ORDER BY path LIMIT ?").all(limit) as {
      path: string;
    }[]).map((r) => r.path);
  }

  /** Number of files with a non-empty summary. */
  fileSummaryCount(): number {
    return (this.#db.prepare("SELECT count(*) AS n FROM files WHERE summary <> ''").get() as {
      n: number;
    }).n;
  }

  /** Set meta keys (objects are stored as JSON). */
  setMeta(values: Record<string, string | number | object>): void {
    const stmt = this.#stmt("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)");
    for (const [k, v] of Object.entries(values)) {
      stmt.run(k, typeof v === "string" ? v : JSON.stringify(v));
    }
  }

  /** The stored bytes of a file, by id. */
  #contentOf(fileId: number): Uint8Array | undefined {
    return (this.#stmt("SELECT content FROM contents WHERE file_id = ?").get(fileId) as
      | { content: Uint8Array }
      | undefined)?.content;
  }

  /**
   * Build what was deferred: the text index's rows, and the secondary indexes, the symbols'
   * FTS5 index and their search terms of a full rebuild.
   */
  finish(): void {
    const tt = performance.now();
    this.#textIndex.finish();
    this.timings.text_index_ms += performance.now() - tt;
    if (this.#deferIndexes) {
      const ti = performance.now();
      for (const sql of Object.values(SECONDARY_INDEXES)) this.#db.exec(sql);
      this.timings.secondary_index_ms += performance.now() - ti;
      const tf = performance.now();
      this.#db.exec("INSERT INTO symbols_fts(symbols_fts) VALUES('rebuild')");
      this.#terms().fillAll();
      this.timings.symbol_index_ms += performance.now() - tf;
      this.#deferIndexes = false;
    }
  }

  /** Make the re-index visible to readers, atomically, and release the lock. */
  commit(): void {
    this.finish();
    this.#db.exec("COMMIT");
    this.#close();
  }

  /** Discard everything written since `open` and release the lock. */
  rollback(): void {
    rollbackQuietly(this.#db);
    this.#close();
  }

  #close(): void {
    this.#stmts.clear();
    if (this.#db.isOpen) {
      // Fold a large WAL back into the database and truncate it, unless a reader is using it
      // (never waits: without a busy timeout a busy checkpoint just stops). A small one is left
      // to SQLite's automatic checkpoints: checkpointing syncs the database file, which is most
      // of the commit time of a one-file re-index.
      if (_fileSize(this.#walPath) > _CHECKPOINT_WAL_BYTES) {
        try {
          this.#db.exec("PRAGMA busy_timeout=0");
          this.#db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        } catch {
          // A checkpoint is an optimisation; a busy one is retried on the next write.
        }
      }
      this.#db.close();
    }
    const onClose = this.#onClose;
    this.#onClose = undefined;
    onClose?.();
  }
}

/**
 * The symbol rows of a file, flat for a multi-row insert, and each symbol's search texts (name
 * tokens, keywords as stored), made once for its row and for the symbol terms. What is stored is
 * what is searched: no secret in a signature, docstring or summary. Ids and parents are stored
 * without their `{path}::` (the file's, as every symbol id of the file begins).
 */
function _symbolRows(
  symbols: readonly SymbolRecord[],
  base: number,
  fileId: number,
  path: string,
): { flat: (string | number | null)[]; terms: SymbolTermsInput[] } {
  const terms: SymbolTermsInput[] = new Array(symbols.length);
  const flat: (string | number | null)[] = [];
  let seq = 0;
  for (const s of symbols) {
    const signature = searchField(s.signature);
    const docstring = searchField(s.docstring);
    const summary = searchField(s.summary);
    const tokens = nameTokens(s.name, s.qualified_name);
    const keywords = s.keywords.length === 0 ? "[]" : JSON.stringify(s.keywords);
    terms[seq] = {
      rowid: base + seq,
      kind: s.kind,
      language: s.language,
      texts: [tokens, signature, docstring, summary, keywords],
    };
    flat.push(
      base + seq,
      _localId(s.id, path),
      fileId,
      seq++,
      s.name,
      s.qualified_name,
      s.kind,
      s.language,
      signature,
      docstring,
      summary,
      s.decorators.length === 0 ? "[]" : JSON.stringify(s.decorators),
      keywords,
      s.parent === null ? null : _localId(s.parent, path),
      s.line,
      s.end_line,
      s.byte_offset,
      s.byte_length,
      s.content_hash,
      tokens,
      s.complexity?.cyclomatic ?? null,
      s.complexity?.max_nesting ?? null,
      s.complexity?.param_count ?? null,
    );
  }
  return { flat, terms };
}

/** A symbol id of the file at `path` without its `{path}::` (the id as stored, schema 6). */
function _localId(id: string, path: string): string {
  if (id.length > path.length + 1 && id.startsWith(path) && id.startsWith("::", path.length)) {
    return id.slice(path.length + 2);
  }
  throw new RangeError(`Symbol id ${JSON.stringify(id)} does not begin with its file's path`);
}
