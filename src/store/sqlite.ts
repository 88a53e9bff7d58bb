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
    _retryBusySync(() => db.exec("PRAGMA journal_mode=WAL"));
    db.exec("PRAGMA synchronous=NORMAL");
    // Keep a WAL that grew during a large re-index from staying large on disk.
    db.exec("PRAGMA journal_size_limit=16777216");
  }
  db.exec(`PRAGMA cache_size=-${Math.max(1, Math.round(options.cacheKiB ?? 32000))}`);
  return db;
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

function _retryBusySync(fn: () => void): void {
  for (let attempt = 0;; attempt++) {
    try {
      fn();
      return;
    } catch (e) {
      if (!isBusyError(e) || attempt >= 50) throw e;
      const until = Date.now() + 20;
      while (Date.now() < until) { /* brief spin: this happens once per open, rarely */ }
    }
  }
}
