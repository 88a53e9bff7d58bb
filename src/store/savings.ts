/**
 * The persistent savings counter shared by every repo: running totals of tokens saved (response
 * vs. raw file bytes) and of tokens saved by the compact encoding. Stored in `_savings.db` in the
 * index directory; each update is one atomic `UPDATE ... RETURNING`, so concurrent servers add up
 * correctly. A damaged `_savings.db` never takes a tool down: the counter is reset (with a
 * warning on stderr), and when it cannot be written at all the totals are kept in memory.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import {
  databaseFileProblem,
  type DatabaseSync,
  openDatabase,
  unusableDatabase,
} from "./sqlite.ts";

/** The running totals. */
export interface SavingsTotals {
  total_tokens_saved: number;
  total_encoding_tokens_saved: number;
}

/** Running totals of tokens saved, persisted in the index directory. */
export class SavingsCounter {
  #db: DatabaseSync | null = null;
  readonly #path: string;
  readonly #warn: (message: string) => void;
  /** Totals kept in memory while the file cannot be used. */
  #memory: SavingsTotals = { total_tokens_saved: 0, total_encoding_tokens_saved: 0 };

  /** A counter stored in `<indexDir>/_savings.db` (created on first use). */
  constructor(indexDir: string, warn: (message: string) => void = (m) => console.error(m)) {
    this.#path = join(indexDir, "_savings.db");
    this.#warn = warn;
  }

  #open(): DatabaseSync {
    if (this.#db !== null) return this.#db;
    mkdirSync(join(this.#path, ".."), { recursive: true });
    const problem = databaseFileProblem(this.#path);
    if (problem !== null) throw new Error(`file is not a database (${problem})`);
    const db = openDatabase(this.#path);
    try {
      db.exec(`CREATE TABLE IF NOT EXISTS savings(key TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT OR IGNORE INTO savings VALUES ('tokens_saved', 0), ('encoding_tokens_saved', 0);`);
    } catch (e) {
      db.close();
      throw e;
    }
    this.#db = db;
    return db;
  }

  #bump(tokensSaved: number, encodingTokensSaved: number): SavingsTotals {
    const db = this.#open();
    const bump = db.prepare("UPDATE savings SET value = value + ? WHERE key = ? RETURNING value");
    const t = bump.get(_amount(tokensSaved), "tokens_saved") as { value: number } | undefined;
    const e = bump.get(_amount(encodingTokensSaved), "encoding_tokens_saved") as
      | { value: number }
      | undefined;
    if (t === undefined || e === undefined) throw new Error("file is not a database (no totals)");
    return { total_tokens_saved: t.value, total_encoding_tokens_saved: e.value };
  }

  /**
   * Add to the totals (negative or fractional amounts are ignored) and return the new totals.
   */
  add(tokensSaved: number, encodingTokensSaved = 0): SavingsTotals {
    try {
      return this.#bump(tokensSaved, encodingTokensSaved);
    } catch (e) {
      const problem = unusableDatabase(e);
      if (problem !== null) {
        this.#warn(
          `codemunch: the savings counter "${this.#path}" was unreadable (${problem}); it was reset to 0`,
        );
        this.close();
        for (const suffix of ["", "-wal", "-shm"]) {
          try {
            Deno.removeSync(this.#path + suffix, { recursive: true });
          } catch { /* already gone */ }
        }
        try {
          return this.#bump(tokensSaved, encodingTokensSaved);
        } catch { /* fall through: keep counting in memory */ }
      }
      this.close();
      this.#memory = {
        total_tokens_saved: this.#memory.total_tokens_saved + _amount(tokensSaved),
        total_encoding_tokens_saved: this.#memory.total_encoding_tokens_saved +
          _amount(encodingTokensSaved),
      };
      return { ...this.#memory };
    }
  }

  /** The current totals. */
  totals(): SavingsTotals {
    return this.add(0, 0);
  }

  /** Close the database connection. */
  close(): void {
    try {
      this.#db?.close();
    } catch { /* already unusable */ }
    this.#db = null;
  }
}

function _amount(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}
