/**
 * The AI summary cache: one SQLite database in the index directory (`_summaries.db`), shared by
 * every repo, keyed by the SHA-256 of exactly what a request sends for a symbol (kind and
 * signature). An unchanged symbol is summarized once — across re-indexes, full rebuilds, and
 * between a local folder and a GitHub index of the same code.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type DatabaseSync, openDatabase } from "../store/sqlite.ts";

/** File name of the cache in the index directory (not a repo index: no `/` in its id). */
export const SUMMARY_CACHE_FILE = "_summaries.db";

/** The cache key of a symbol as sent. */
export function summaryKey(kind: string, signature: string): string {
  return createHash("sha256").update(`${kind}\0${signature}`).digest("hex");
}

/** Cached summaries on disk. */
export class SummaryCache {
  readonly #db: DatabaseSync;

  private constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Open (creating) the cache in `indexDir`. */
  static open(indexDir: string): SummaryCache {
    mkdirSync(indexDir, { recursive: true });
    const db = openDatabase(join(indexDir, SUMMARY_CACHE_FILE));
    db.exec(`CREATE TABLE IF NOT EXISTS summaries(
      key TEXT PRIMARY KEY,
      summary TEXT NOT NULL,
      model TEXT NOT NULL,
      created_at TEXT NOT NULL
    ) WITHOUT ROWID`);
    return new SummaryCache(db);
  }

  /** The cached summaries of these keys. */
  getMany(keys: readonly string[]): Map<string, string> {
    const out = new Map<string, string>();
    const stmt = this.#db.prepare("SELECT summary FROM summaries WHERE key = ?");
    for (const k of keys) {
      const row = stmt.get(k) as { summary: string } | undefined;
      if (row !== undefined) out.set(k, row.summary);
    }
    return out;
  }

  /** Store summaries (one small transaction). */
  putMany(entries: readonly { key: string; summary: string }[], model: string): void {
    if (entries.length === 0) return;
    const now = new Date().toISOString();
    const stmt = this.#db.prepare(
      "INSERT OR REPLACE INTO summaries(key, summary, model, created_at) VALUES (?, ?, ?, ?)",
    );
    this.#db.exec("BEGIN");
    try {
      for (const e of entries) stmt.run(e.key, e.summary, model, now);
      this.#db.exec("COMMIT");
    } catch (e) {
      this.#db.exec("ROLLBACK");
      throw e;
    }
  }

  /** Number of cached summaries. */
  size(): number {
    return (this.#db.prepare("SELECT count(*) AS n FROM summaries").get() as { n: number }).n;
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}
