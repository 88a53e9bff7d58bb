/**
 * The persistent savings counter shared by every repo: running totals of tokens saved (response
 * vs. raw file bytes) and of tokens saved by the compact encoding. Stored in `_savings.db` in the
 * index directory; each update is one atomic `UPDATE ... RETURNING`, so concurrent servers add up
 * correctly.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type DatabaseSync, openDatabase } from "./sqlite.ts";

/** The running totals. */
export interface SavingsTotals {
  total_tokens_saved: number;
  total_encoding_tokens_saved: number;
}

/** Running totals of tokens saved, persisted in the index directory. */
export class SavingsCounter {
  #db: DatabaseSync | null = null;
  readonly #path: string;

  /** A counter stored in `<indexDir>/_savings.db` (created on first use). */
  constructor(indexDir: string) {
    this.#path = join(indexDir, "_savings.db");
  }

  #open(): DatabaseSync {
    if (this.#db !== null) return this.#db;
    mkdirSync(join(this.#path, ".."), { recursive: true });
    const db = openDatabase(this.#path);
    db.exec(`CREATE TABLE IF NOT EXISTS savings(key TEXT PRIMARY KEY, value INTEGER NOT NULL);
      INSERT OR IGNORE INTO savings VALUES ('tokens_saved', 0), ('encoding_tokens_saved', 0);`);
    this.#db = db;
    return db;
  }

  /**
   * Add to the totals (negative or fractional amounts are ignored) and return the new totals.
   */
  add(tokensSaved: number, encodingTokensSaved = 0): SavingsTotals {
    const db = this.#open();
    const bump = db.prepare("UPDATE savings SET value = value + ? WHERE key = ? RETURNING value");
    const t = bump.get(_amount(tokensSaved), "tokens_saved") as { value: number };
    const e = bump.get(_amount(encodingTokensSaved), "encoding_tokens_saved") as { value: number };
    return { total_tokens_saved: t.value, total_encoding_tokens_saved: e.value };
  }

  /** The current totals. */
  totals(): SavingsTotals {
    return this.add(0, 0);
  }

  /** Close the database connection. */
  close(): void {
    this.#db?.close();
    this.#db = null;
  }
}

function _amount(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}
