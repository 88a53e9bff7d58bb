/**
 * Stored embedding vectors (semantic search). One row per distinct embedded text, keyed by a
 * 16-byte hash of the provider's identity and the text (computed by the caller), holding the
 * unit-length vector as float32 bytes: a re-index keeps the vectors of symbols whose text did not
 * change (the table is not touched by the index writer), and only new or changed texts are
 * embedded again. The provider identity and dimension live in `meta`; vectors of another
 * identity are dropped before new ones are written.
 */
import { ToolError } from "../errors.ts";
import { beginImmediate, type DatabaseSync, openDatabase, rollbackQuietly } from "./sqlite.ts";
import { SCHEMA_VERSION, schemaState } from "./schema.ts";

/** What made the stored vectors. */
export interface EmbeddingModel {
  /** The provider identity (`openai:<model>`, `onnx:<folder>:<size>`, …). */
  identity: string;
  dim: number;
}

type _Prepare = (sql: string) => { get(...p: unknown[]): unknown; all(...p: unknown[]): unknown[] };

/** The stored model, or null when no vector is stored. */
export function readEmbeddingModel(prepare: _Prepare): EmbeddingModel | null {
  const rows = prepare(
    "SELECT key, value FROM meta WHERE key IN ('embedding_identity', 'embedding_dim')",
  ).all() as { key: string; value: string }[];
  const m = new Map(rows.map((r) => [r.key, r.value]));
  const identity = m.get("embedding_identity");
  const dim = Number(m.get("embedding_dim"));
  return identity === undefined || !(dim > 0) ? null : { identity, dim };
}

/** Every stored vector by its hash (hex). */
export function readEmbeddings(prepare: _Prepare, dim: number): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  const rows = prepare("SELECT lower(hex(text_hash)) AS h, vector FROM symbol_embeddings")
    .all() as {
      h: string;
      vector: Uint8Array;
    }[];
  for (const r of rows) {
    if (r.vector.byteLength !== dim * 4) continue;
    // A copy: the row's bytes may not be aligned for a float view.
    out.set(r.h, new Float32Array(r.vector.slice().buffer));
  }
  return out;
}

/** A write connection for one repo's vectors (`embed_repo`). */
export class EmbeddingWriter {
  readonly #db: DatabaseSync;

  private constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Open a repo's database for writing vectors; an index of another schema is refused. */
  static open(dbPath: string): EmbeddingWriter {
    const db = openDatabase(dbPath);
    const { state, version } = schemaState(db);
    if (state !== "current") {
      db.close();
      throw new ToolError(
        "index_incompatible",
        `The index at "${dbPath}" has schema ${version}, this build writes ${SCHEMA_VERSION}: run index_folder (or index_repo) again first`,
      );
    }
    return new EmbeddingWriter(db);
  }

  /** The stored model, or null. */
  model(): EmbeddingModel | null {
    return readEmbeddingModel((sql) => this.#db.prepare(sql));
  }

  /** Hashes (hex) of every stored vector. */
  hashes(): Set<string> {
    const rows = this.#db.prepare("SELECT lower(hex(text_hash)) AS h FROM symbol_embeddings")
      .all() as { h: string }[];
    return new Set(rows.map((r) => r.h));
  }

  /**
   * Write vectors (hash hex → vector) of `model` in one transaction, first dropping every vector
   * of another model, and dropping the stored vectors whose hash is not in `keep` when given.
   * Waits up to `waitMs` for another writer. Returns how many old vectors were dropped.
   */
  async write(
    model: EmbeddingModel,
    vectors: ReadonlyMap<string, Float32Array>,
    keep: ReadonlySet<string> | null,
    waitMs = 30_000,
  ): Promise<number> {
    const db = this.#db;
    if (!(await beginImmediate(db, waitMs))) {
      throw new ToolError(
        "index_busy",
        "The index is being written by another call or process; try embed_repo again when it finishes",
      );
    }
    try {
      let dropped = 0;
      const stored = this.model();
      if (stored !== null && (stored.identity !== model.identity || stored.dim !== model.dim)) {
        dropped += Number(db.prepare("DELETE FROM symbol_embeddings").run().changes);
      }
      const meta = db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)");
      meta.run("embedding_identity", model.identity);
      meta.run("embedding_dim", String(model.dim));
      const put = db.prepare(
        "INSERT OR REPLACE INTO symbol_embeddings(text_hash, vector) VALUES (?, ?)",
      );
      for (const [hash, v] of vectors) {
        if (v.length !== model.dim) throw new RangeError(`vector of ${v.length} dimensions`);
        put.run(_bytes(hash), new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      }
      if (keep !== null) dropped += this.#prune(keep);
      db.exec("COMMIT");
      return dropped;
    } catch (e) {
      rollbackQuietly(db);
      throw e;
    }
  }

  #prune(keep: ReadonlySet<string>): number {
    const del = this.#db.prepare("DELETE FROM symbol_embeddings WHERE text_hash = ?");
    let n = 0;
    for (const h of this.hashes()) if (!keep.has(h)) n += Number(del.run(_bytes(h)).changes);
    return n;
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}

function _bytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
