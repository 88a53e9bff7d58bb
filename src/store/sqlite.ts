/**
 * The one place that talks to `node:sqlite` directly: opening a database with our pragmas,
 * taking the write lock without blocking the event loop, and recognising "busy" errors.
 */
import { DatabaseSync } from "node:sqlite";

export { DatabaseSync };

/** Options for {@linkcode openDatabase}. */
export interface OpenOptions {
  /**
   * Open without write access (readers of an index).
   * @default false
   */
  readOnly?: boolean;
  /**
   * How long one SQLite call may wait for a lock held by another connection, in milliseconds.
   * @default 2000
   */
  busyTimeoutMs?: number;
  /**
   * Most memory SQLite keeps for this connection's page cache, in KiB.
   * @default 32000
   */
  cacheKiB?: number;
}

/**
 * Open (or create) a SQLite database file with the pragmas every index uses: WAL journal, normal
 * sync (WAL makes that crash-safe: a transaction is either in the log or not), foreign keys on.
 */
export function openDatabase(path: string, options: OpenOptions = {}): DatabaseSync {
  const readOnly = options.readOnly ?? false;
  const db = new DatabaseSync(path, {
    readOnly,
    timeout: options.busyTimeoutMs ?? 2000,
    enableForeignKeyConstraints: true,
  });
  if (!readOnly) {
    // Switching to WAL needs a moment of exclusive access; another process may hold it briefly.
    _retryBusySync(db, () => db.exec("PRAGMA journal_mode=WAL"));
    db.exec("PRAGMA synchronous=NORMAL");
    // Keep a WAL that grew during a large re-index from staying large on disk.
    db.exec("PRAGMA journal_size_limit=16777216");
  }
  db.exec(`PRAGMA cache_size=-${Math.max(1, Math.round(options.cacheKiB ?? 32000))}`);
  return db;
}

/**
 * The problem, in words, when an error from `node:sqlite` (or a file check) means the database
 * file itself is unusable — not a database, damaged, truncated, not a file — rather than busy or
 * missing; else null.
 */
export function unusableDatabase(e: unknown): string | null {
  const message = e instanceof Error ? e.message : String(e);
  if (/file is not a database|SQLITE_NOTADB/i.test(message)) return "not a SQLite database";
  if (/malformed|SQLITE_CORRUPT|corrupt/i.test(message)) return "damaged or truncated";
  if (/unable to open database|SQLITE_CANTOPEN/i.test(message)) return "cannot be opened as a file";
  return null;
}

/**
 * Why the file at `path` cannot be an index database, checked without SQLite (its type and its
 * 16-byte header), or null when it may be one (or does not exist). A zero-length file is an
 * empty database.
 */
export function databaseFileProblem(path: string): string | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch {
    return null;
  }
  if (!info.isFile) return info.isDirectory ? "a directory, not a file" : "not a regular file";
  if (info.size === 0) return null;
  if (info.size < 100) return "truncated (shorter than a database header)";
  const head = new Uint8Array(16);
  try {
    const f = Deno.openSync(path, { read: true });
    try {
      f.readSync(head);
    } finally {
      f.close();
    }
  } catch {
    return null; // unreadable now: SQLite will say why
  }
  return new TextDecoder().decode(head) === "SQLite format 3\0" ? null : "not a SQLite database";
}

/** True when an error from `node:sqlite` means another connection holds the lock. */
export function isBusyError(e: unknown): boolean {
  return e instanceof Error && /database is (locked|busy)|SQLITE_BUSY/i.test(e.message);
}

/**
 * Start a write transaction (`BEGIN IMMEDIATE`), waiting asynchronously — so the event loop keeps
 * running — while another writer holds the lock. Returns false when the lock was not free within
 * `waitMs`.
 */
export async function beginImmediate(db: DatabaseSync, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  let pause = 10;
  const previous = (db.prepare("PRAGMA busy_timeout").get() as { timeout: number }).timeout;
  // Poll without SQLite's own (blocking) wait, so that waiting never freezes the event loop.
  db.exec("PRAGMA busy_timeout=0");
  try {
    for (;;) {
      try {
        db.exec("BEGIN IMMEDIATE");
        return true;
      } catch (e) {
        if (!isBusyError(e)) throw e;
        if (Date.now() >= deadline) return false;
        await new Promise((r) => setTimeout(r, pause));
        pause = Math.min(pause * 2, 200);
      }
    }
  } finally {
    db.exec(`PRAGMA busy_timeout=${Number(previous) || 0}`);
  }
}

/** Roll back the open transaction, if any, ignoring errors from a connection already broken. */
export function rollbackQuietly(db: DatabaseSync): void {
  try {
    if (db.isTransaction) db.exec("ROLLBACK");
  } catch {
    // The connection is unusable; closing it discards the transaction anyway.
  }
}

/** Longest a synchronous open waits for a lock, in ms: the event loop stalls meanwhile. */
const _SYNC_WAIT_MS = 500;

/**
 * Run `fn` (which needs a lock) with SQLite's own wait turned off, retrying briefly: the whole
 * wait is bounded by {@linkcode _SYNC_WAIT_MS} (not 50 tries of the connection's busy timeout,
 * which kept the event loop blocked for 100 s when a database was truncated under a reader).
 */
function _retryBusySync(db: DatabaseSync, fn: () => void): void {
  const previous = Number(
    (db.prepare("PRAGMA busy_timeout").get() as { timeout: number }).timeout,
  ) || 0;
  db.exec("PRAGMA busy_timeout=0");
  const deadline = Date.now() + _SYNC_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  try {
    for (;;) {
      try {
        fn();
        return;
      } catch (e) {
        if (!isBusyError(e) || Date.now() >= deadline) throw e;
        Atomics.wait(pause, 0, 0, 10); // a short sleep, not a spin
      }
    }
  } finally {
    db.exec(`PRAGMA busy_timeout=${previous}`);
  }
}
