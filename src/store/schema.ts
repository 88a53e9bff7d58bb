/**
 * The per-repo database schema, its version, and forward migration.
 *
 * The version lives in `PRAGMA user_version`. An index written by an older schema is migrated
 * step by step when a migration exists; otherwise the writer rebuilds it from scratch (and says
 * so in a warning) and readers refuse it with a clear message — it is never misread.
 */
import type { DatabaseSync } from "./sqlite.ts";
import { addSymbolTerms, SYMBOL_TERMS_DDL } from "./symbol_terms.ts";
import { fillTextPostings, TEXT_POSTINGS_DDL } from "./text_postings.ts";

/** The schema version this build writes and reads. */
export const SCHEMA_VERSION = 6;

/**
 * Embedding vectors of symbols (schema 5; semantic search, `embeddings.ts`): one row per distinct
 * embedded text, keyed by a hash of the provider identity and the text.
 */
export const EMBEDDINGS_DDL = `
CREATE TABLE IF NOT EXISTS symbol_embeddings(
  text_hash BLOB PRIMARY KEY,
  vector BLOB NOT NULL
) WITHOUT ROWID;`;

/**
 * The tables. Text is stored once: `contents.content` holds each file's exact bytes (apart from
 * `files`, so that scanning file metadata never reads content pages); the symbol
 * search index is an external-content FTS5 table over `symbols`, and the text-search index is
 * a posting list of file ids per trigram (see `text_postings.ts`).
 */
const _DDL = `
CREATE TABLE meta(
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE files(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  language TEXT NOT NULL,
  size INTEGER NOT NULL,
  hash TEXT NOT NULL,
  mtime_ms REAL NOT NULL,
  ctime_ms REAL NOT NULL,
  checked_ms REAL NOT NULL,
  status TEXT NOT NULL,
  reason TEXT,
  summary TEXT NOT NULL,
  symbol_count INTEGER NOT NULL,
  line_count INTEGER NOT NULL
);

CREATE TABLE contents(
  file_id INTEGER PRIMARY KEY,
  content BLOB NOT NULL
);

-- A symbol's id is \`{file path}::{local_id}\` (src/parser/ids.ts): the path is not stored again
-- per symbol (schema 6), nor in \`parent\`, the local id of the enclosing symbol of the same file.
CREATE TABLE symbols(
  rowid INTEGER PRIMARY KEY,
  local_id TEXT NOT NULL,
  file_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  name TEXT NOT NULL,
  qualified_name TEXT NOT NULL,
  kind TEXT NOT NULL,
  language TEXT NOT NULL,
  signature TEXT NOT NULL,
  docstring TEXT NOT NULL,
  summary TEXT NOT NULL,
  decorators TEXT NOT NULL,
  keywords TEXT NOT NULL,
  parent TEXT,
  line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  byte_offset INTEGER NOT NULL,
  byte_length INTEGER NOT NULL,
  content_hash BLOB NOT NULL,
  name_tokens TEXT NOT NULL,
  -- Complexity of a function or method (src/parser/complexity/); NULL for other symbols, for
  -- languages without rules, and for symbols indexed before schema 4 (until re-indexed).
  cyclomatic INTEGER,
  max_nesting INTEGER,
  param_count INTEGER
);
CREATE UNIQUE INDEX symbols_by_id ON symbols(file_id, local_id);
CREATE INDEX symbols_by_file ON symbols(file_id, seq);
CREATE INDEX symbols_by_name ON symbols(name COLLATE NOCASE);

CREATE TABLE imports(
  file_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  specifier TEXT NOT NULL,
  names TEXT NOT NULL,
  line INTEGER NOT NULL,
  resolved TEXT,
  PRIMARY KEY(file_id, seq)
) WITHOUT ROWID;
CREATE INDEX imports_by_resolved ON imports(resolved) WHERE resolved IS NOT NULL;

-- A file's call sites, in source order, as one JSON array of [callee, receiver, caller, line]
-- (caller = the seq of the enclosing symbol in the same file, or null): one row per file instead
-- of one per call keeps writes cheap. callee_files indexes each file's distinct callee names
-- (rowid = file id) so that "who calls X" reads only the files that do.
CREATE TABLE call_sites(
  file_id INTEGER PRIMARY KEY,
  calls TEXT NOT NULL
);
CREATE VIRTUAL TABLE callee_files USING fts5(
  callees,
  content='', contentless_delete=1, detail=none,
  tokenize="unicode61 remove_diacritics 0 tokenchars '_$'"
);

CREATE VIRTUAL TABLE symbols_fts USING fts5(
  name_tokens, signature, docstring, summary, keywords,
  content='symbols', content_rowid='rowid',
  tokenize='porter unicode61 remove_diacritics 2'
);

${TEXT_POSTINGS_DDL}
${SYMBOL_TERMS_DDL}
${EMBEDDINGS_DDL}`;

/**
 * Secondary indexes, by name, with their definitions. A full rebuild drops them first and
 * creates them again at the end: sorting once is far cheaper than inserting at random positions
 * of a large b-tree row by row.
 */
export const SECONDARY_INDEXES: Record<string, string> = {
  symbols_by_id: "CREATE UNIQUE INDEX symbols_by_id ON symbols(file_id, local_id)",
  symbols_by_file: "CREATE INDEX symbols_by_file ON symbols(file_id, seq)",
  symbols_by_name: "CREATE INDEX symbols_by_name ON symbols(name COLLATE NOCASE)",
  imports_by_resolved:
    "CREATE INDEX imports_by_resolved ON imports(resolved) WHERE resolved IS NOT NULL",
};

/**
 * Forward migrations: `MIGRATIONS[n]` upgrades a database at version `n` to `n + 1` inside the
 * caller's transaction. A version with no entry cannot be migrated and is rebuilt.
 */
const _MIGRATIONS: Record<number, (db: DatabaseSync) => void> = {
  // 2: per-file symbol terms for in-memory symbol ranking (symbol_terms.ts).
  1: addSymbolTerms,
  // 3: the text index as trigram posting lists instead of a contentless FTS5 table.
  2: _textPostings,
  // 4: complexity metrics per symbol, NULL until the next index measures them (the parser
  // version changed with them, so that index re-parses every file).
  3: _complexityColumns,
  // 5: embedding vectors for semantic search (embeddings.ts), empty until embed_repo runs.
  4: (db) => db.exec(EMBEDDINGS_DDL),
  // 6: symbol ids and parents without their file's path (the id index keyed by file and local id).
  5: _localIds,
};

function _localIds(db: DatabaseSync): void {
  if (!_symbolColumns(db).has("id")) return;
  const cut = "length((SELECT path FROM files WHERE files.id = symbols.file_id)) + 3";
  db.exec(`DROP INDEX IF EXISTS symbols_by_id;
    ALTER TABLE symbols ADD COLUMN local_id TEXT NOT NULL DEFAULT '';
    UPDATE symbols SET local_id = substr(id, ${cut}), parent = substr(parent, ${cut});
    ALTER TABLE symbols DROP COLUMN id;
    ${SECONDARY_INDEXES.symbols_by_id};`);
}

function _complexityColumns(db: DatabaseSync): void {
  const have = _symbolColumns(db);
  for (const column of ["cyclomatic", "max_nesting", "param_count"]) {
    if (!have.has(column)) db.exec(`ALTER TABLE symbols ADD COLUMN ${column} INTEGER`);
  }
}

/** The columns the symbols table has (what a migration already applied). */
function _symbolColumns(db: DatabaseSync): Set<string> {
  return new Set(
    (db.prepare("SELECT name FROM pragma_table_info('symbols')").all() as { name: string }[])
      .map((r) => r.name),
  );
}

function _textPostings(db: DatabaseSync): void {
  db.exec("DROP TABLE IF EXISTS text_grams; DROP TABLE IF EXISTS text_postings");
  db.exec(TEXT_POSTINGS_DDL);
  fillTextPostings(db);
}

/** The schema state of an opened database. */
export type SchemaState = "current" | "empty" | "older" | "newer";

/** Classify a database by its `user_version` (and whether it has any tables at all). */
export function schemaState(db: DatabaseSync): { state: SchemaState; version: number } {
  const version = Number(
    (db.prepare("PRAGMA user_version").get() as { user_version: number })
      .user_version,
  );
  if (version === SCHEMA_VERSION) return { state: "current", version };
  if (version > SCHEMA_VERSION) return { state: "newer", version };
  const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master").get() as { n: number };
  return { state: version === 0 && tables.n === 0 ? "empty" : "older", version };
}

/** Whether every step from `version` to the current one has a migration. */
export function canMigrate(version: number): boolean {
  if (version < 1) return false;
  for (let v = version; v < SCHEMA_VERSION; v++) if (_MIGRATIONS[v] === undefined) return false;
  return true;
}

/**
 * Bring a database (inside the caller's write transaction) to the current schema: create it
 * when empty, migrate it when possible, otherwise drop everything and recreate. Returns a warning
 * when an existing index was migrated or discarded, else null.
 */
export function ensureSchema(db: DatabaseSync): string | null {
  const { state, version } = schemaState(db);
  if (state === "current") return null;
  if (state === "newer") {
    throw new RangeError(
      `Cannot use index: it was written by a newer codemunch (schema ${version}, this build reads ${SCHEMA_VERSION})`,
    );
  }
  if (state === "empty") {
    _create(db);
    return null;
  }
  if (canMigrate(version)) {
    for (let v = version; v < SCHEMA_VERSION; v++) _MIGRATIONS[v]!(db);
    db.exec(`PRAGMA user_version=${SCHEMA_VERSION}`);
    return `Index migrated from schema ${version} to ${SCHEMA_VERSION}`;
  }
  _dropAll(db);
  _create(db);
  return `Index was written by an older codemunch (schema ${version}); it was discarded and rebuilt`;
}

function _create(db: DatabaseSync): void {
  db.exec(_DDL);
  db.exec(`PRAGMA user_version=${SCHEMA_VERSION}`);
}

function _dropAll(db: DatabaseSync): void {
  const rows = db.prepare(
    "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'",
  ).all() as { type: string; name: string }[];
  // Virtual tables first: dropping one also drops its shadow tables.
  const ordered = [
    ...rows.filter((r) => /^\s*CREATE VIRTUAL/i.test(_sql(db, r.name))),
    ...rows.filter((r) => !/^\s*CREATE VIRTUAL/i.test(_sql(db, r.name))),
  ];
  for (const r of ordered) {
    const still = db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(r.name);
    if (still) db.exec(`DROP ${r.type.toUpperCase()} "${r.name.replaceAll('"', '""')}"`);
  }
}

function _sql(db: DatabaseSync, name: string): string {
  const row = db.prepare("SELECT sql FROM sqlite_master WHERE name = ?").get(name) as
    | { sql: string | null }
    | undefined;
  return row?.sql ?? "";
}
