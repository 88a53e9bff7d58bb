/**
 * The text-search index as posting lists: one row per trigram (see `trigrams.ts`) holding the
 * ids of the files that contain it, ascending, as delta varints. It replaces a contentless FTS5
 * table fed one document of base-36 trigram tokens per file: building those strings and FTS5's
 * tokenizing and merging them was the largest main-thread cost of a full index (gostd: ~4.4
 * million trigram occurrences); here a full build appends `(trigram, file)` pairs to one typed
 * array, sorts it once at the end and writes ~120k rows, and a query reads one row per query
 * trigram and intersects the lists.
 *
 * Incremental runs change only the rows of the trigrams a file gained or lost: a changed file's
 * old trigrams (from its stored bytes) are compared with its new ones, so a small edit rewrites
 * a handful of rows.
 *
 * A file's trigrams are those of its text as served, secrets redacted (`search_inputs.ts`): a
 * query for a secret's characters selects no file by them.
 */
import type { DatabaseSync } from "./sqlite.ts";
import { TrigramSet } from "./trigrams.ts";
import { searchBytes } from "./search_inputs.ts";

/** The table (schema 3). */
export const TEXT_POSTINGS_DDL = `
CREATE TABLE text_postings(
  gram INTEGER PRIMARY KEY,
  files BLOB NOT NULL
);
`;

/** File ids are packed under the trigram in one float64: `gram * 2^28 + id` (exact below 2^53). */
const _ID_SPACE = 2 ** 28;
/** Pairs per chunk of a full rebuild (4 MB). */
const _CHUNK = 1 << 19;

/** Encode ascending ids as delta varints. */
export function encodePostings(ids: ArrayLike<number>, scratch?: { buf: Uint8Array }): Uint8Array {
  let buf = scratch?.buf ?? new Uint8Array(5 * ids.length);
  if (buf.length < 5 * ids.length) {
    buf = new Uint8Array(5 * ids.length);
    if (scratch !== undefined) scratch.buf = buf;
  }
  let n = 0;
  let prev = 0;
  for (let i = 0; i < ids.length; i++) {
    let v = ids[i]! - prev;
    prev = ids[i]!;
    while (v >= 0x80) {
      buf[n++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    buf[n++] = v;
  }
  return buf.slice(0, n);
}

/** Decode delta varints into ascending ids. */
export function decodePostings(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let prev = 0;
  let v = 0;
  let shift = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    v |= (b & 0x7f) << shift;
    if (b & 0x80) {
      shift += 7;
      continue;
    }
    prev += v;
    out.push(prev);
    v = 0;
    shift = 0;
  }
  return out;
}

/** Ids in both ascending lists. */
function _intersect(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out.push(a[i]!);
      i++;
      j++;
    }
  }
  return out;
}

/**
 * Ids of the files that contain every trigram of `grams` (ascending), given each trigram's
 * stored list (`postings`: the `files` of its row). Every row is read first (a missing one ends
 * the search), then decoded shortest first until the intersection is empty.
 */
export function filesWithAll(
  postings: (gram: number) => Uint8Array | undefined,
  grams: readonly number[],
): number[] {
  const lists: Uint8Array[] = [];
  for (const g of grams) {
    const list = postings(g);
    if (list === undefined) return [];
    lists.push(list);
  }
  lists.sort((a, b) => a.length - b.length);
  let ids: number[] | undefined;
  for (const l of lists) {
    ids = ids === undefined ? decodePostings(l) : _intersect(ids, decodePostings(l));
    if (ids.length === 0) break;
  }
  return ids ?? [];
}

/**
 * Keeps `text_postings` in step with the stored files, inside the writer's transaction. After
 * {@linkcode clear} (a full rebuild) files are only collected and every row is written by
 * {@linkcode finish}; otherwise each file's change is recorded as trigrams gained and lost and
 * the touched rows are rewritten by {@linkcode finish}.
 */
export class TextPostingsWriter {
  readonly #db: DatabaseSync;
  readonly #grams = new TrigramSet();
  /**
   * A full rebuild's `(trigram, file)` pairs, packed (see `_ID_SPACE`), in fixed-size chunks:
   * one growing array would, when doubled, hold its old and new copies at once (gostd: ~5
   * million pairs, a 67 MB array and a 100 MB spike at the last doubling).
   */
  #bulk: Float64Array[] | null = null;
  #bulkLength = 0;
  /** Incremental changes: per trigram, file ids to add (true) or remove (false). */
  #changes = new Map<number, Map<number, boolean>>();
  /** Milliseconds spent collecting trigrams and writing rows. */
  ms = 0;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Forget every row: the files that follow are a full rebuild, written at the end. */
  clear(): void {
    this.#db.exec("DELETE FROM text_postings");
    this.#bulk = [];
    this.#bulkLength = _CHUNK;
    this.#changes.clear();
  }

  /**
   * Index a stored file's new content; `previous` is the content stored before (undefined for a
   * new file).
   */
  put(fileId: number, content: Uint8Array, previous: Uint8Array | undefined): void {
    const t = performance.now();
    const keys = this.#grams.collect(searchBytes(content));
    if (this.#bulk !== null) {
      this.#append(fileId, keys);
    } else {
      const before = previous === undefined ? [] : this.#grams.collect(searchBytes(previous));
      const old = new Set(before);
      for (const k of keys) {
        if (!old.delete(k)) this.#change(k, fileId, true);
      }
      for (const k of old) this.#change(k, fileId, false);
    }
    this.ms += performance.now() - t;
  }

  /** Remove a stored file (its stored content gives its trigrams). */
  remove(fileId: number, content: Uint8Array): void {
    const t = performance.now();
    for (const k of this.#grams.collect(searchBytes(content))) this.#change(k, fileId, false);
    this.ms += performance.now() - t;
  }

  #change(gram: number, fileId: number, add: boolean): void {
    let m = this.#changes.get(gram);
    if (m === undefined) this.#changes.set(gram, m = new Map());
    m.set(fileId, add);
  }

  #append(fileId: number, keys: readonly number[]): void {
    if (fileId >= _ID_SPACE) throw new RangeError(`file id ${fileId} out of range`);
    const chunks = this.#bulk!;
    let n = this.#bulkLength;
    let chunk = chunks.at(-1);
    for (const k of keys) {
      if (n === _CHUNK) {
        chunks.push(chunk = new Float64Array(_CHUNK));
        n = 0;
      }
      chunk![n++] = k * _ID_SPACE + fileId;
    }
    this.#bulkLength = n;
  }

  /** Write what was collected: every row after a rebuild, else the rows of changed trigrams. */
  finish(): void {
    const t = performance.now();
    if (this.#bulk !== null) this.#writeBulk();
    else this.#writeChanges();
    this.ms += performance.now() - t;
  }

  /** Sort each chunk, then merge them in order, writing one row per trigram. */
  #writeBulk(): void {
    const chunks = this.#bulk!;
    this.#bulk = null;
    if (chunks.length > 0) chunks[chunks.length - 1] = chunks.at(-1)!.subarray(0, this.#bulkLength);
    for (const c of chunks) c.sort();
    const insert = this.#db.prepare("INSERT INTO text_postings(gram, files) VALUES (?, ?)");
    const scratch = { buf: new Uint8Array(1 << 16) };
    // The head pair of each chunk (Infinity once it is used up), and where each chunk is.
    const heads = new Float64Array(chunks.length);
    const at = new Uint32Array(chunks.length);
    for (let c = 0; c < chunks.length; c++) {
      heads[c] = chunks[c]!.length > 0 ? chunks[c]![0]! : Infinity;
    }
    let ids = new Float64Array(1024);
    let count = 0;
    let gram = -1;
    for (;;) {
      // The smallest head (few chunks: a linear scan).
      let best = 0;
      for (let c = 1; c < heads.length; c++) if (heads[c]! < heads[best]!) best = c;
      const min = heads.length === 0 ? Infinity : heads[best]!;
      const g = min === Infinity ? -2 : Math.floor(min / _ID_SPACE);
      if (g !== gram) {
        if (count > 0) insert.run(gram, encodePostings(ids.subarray(0, count), scratch));
        count = 0;
        gram = g;
      }
      if (min === Infinity) break;
      const chunk = chunks[best]!;
      const next = ++at[best]!;
      heads[best] = next < chunk.length ? chunk[next]! : Infinity;
      if (count === ids.length) {
        const grown = new Float64Array(2 * count);
        grown.set(ids);
        ids = grown;
      }
      ids[count++] = min - g * _ID_SPACE;
    }
  }

  #writeChanges(): void {
    if (this.#changes.size === 0) return;
    const read = this.#db.prepare("SELECT files FROM text_postings WHERE gram = ?");
    const write = this.#db.prepare(
      "INSERT OR REPLACE INTO text_postings(gram, files) VALUES (?, ?)",
    );
    const remove = this.#db.prepare("DELETE FROM text_postings WHERE gram = ?");
    for (const [gram, change] of this.#changes) {
      const row = read.get(gram) as { files: Uint8Array } | undefined;
      const ids = new Set(row === undefined ? [] : decodePostings(row.files));
      for (const [id, add] of change) {
        if (add) ids.add(id);
        else ids.delete(id);
      }
      if (ids.size === 0) {
        if (row !== undefined) remove.run(gram);
      } else {
        write.run(gram, encodePostings([...ids].sort((a, b) => a - b)));
      }
    }
    this.#changes.clear();
  }
}

/**
 * Fill `text_postings` from every stored file's content (schema migration 2 → 3, inside the
 * caller's transaction).
 */
export function fillTextPostings(db: DatabaseSync): void {
  const writer = new TextPostingsWriter(db);
  writer.clear();
  for (
    const r of db.prepare("SELECT file_id, content FROM contents ORDER BY file_id")
      .iterate() as Iterable<{ file_id: number; content: Uint8Array }>
  ) {
    writer.put(r.file_id, r.content, undefined);
  }
  writer.finish();
}
