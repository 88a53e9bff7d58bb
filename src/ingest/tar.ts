/**
 * A small reader of gzipped tar archives, as `git archive` (and so GitHub's tarball endpoint)
 * writes them: ustar headers with a `prefix` field, pax extended headers (`x`: per-entry `path`,
 * `linkpath`, `size`; `g`: global, whose `comment` is the commit id), and GNU long names (`L`,
 * `K`). Decompression is node:zlib's (see `_gunzip`); entries are read as a stream,
 * each kept file's bytes handed on chunk by chunk, and the whole is bounded (decompressed bytes,
 * entries, header sizes): a small hostile archive cannot make the reader hold or unpack much.
 */
import { once } from "node:events";
import { createGunzip } from "node:zlib";

/** One archive entry. */
export interface TarEntry {
  /** Path inside the archive, as stored (no leading `./`). */
  path: string;
  type: "file" | "dir" | "symlink" | "other";
  size: number;
  /** Symlink target. */
  linkTarget: string;
  /** The bytes, when the caller's `keep` said so; else undefined. */
  content?: Uint8Array;
}

/** What the reader found besides the entries. */
export interface TarArchive {
  entries: TarEntry[];
  /** The pax global header's `comment` (the commit id in `git archive` output), or "". */
  comment: string;
}

/** Bounds on what an archive may make the reader do (a hostile archive is small and expands). */
export interface TarLimits {
  /** Most bytes decompressed in all (headers, kept and skipped contents). */
  maxUnpackedBytes: number;
  /** Most entries (headers of any kind). */
  maxEntries: number;
  /**
   * Most bytes of one pax or GNU long-name header's data (read into memory).
   * @default 1048576
   */
  maxHeaderBytes?: number;
}

/** Where a kept entry's bytes go, chunk by chunk, as they are decompressed. */
export interface TarEntrySink {
  data(chunk: Uint8Array): void;
  end(): void;
}

/** No limit (for archives the caller made itself). */
const _UNBOUNDED: TarLimits = { maxUnpackedBytes: Infinity, maxEntries: Infinity };
const _MAX_HEADER_BYTES = 1 << 20;

/**
 * Read a gzipped tar archive as it arrives: each entry's header is given to `onEntry`, whose
 * sink (or null: skip it) receives a regular file's bytes chunk by chunk as they are
 * decompressed, so memory does not grow with the archive. Decompression pauses while the caller
 * is busy (the stream's backpressure) and every chunk is an await, so the event loop stays free.
 * Throws `SyntaxError` on a malformed archive and `RangeError` when a limit is passed (the
 * message names it).
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { streamTarGz } from "./tar.ts";
 * const gz = new Blob([new Uint8Array(1024)]).stream().pipeThrough(new CompressionStream("gzip"));
 * const r = await streamTarGz(gz, () => null, { maxUnpackedBytes: 1 << 20, maxEntries: 10 });
 * equal(r.entries, 0);
 * ```
 */
export async function streamTarGz(
  gzipped: ReadableStream<Uint8Array>,
  onEntry: (entry: TarEntry) => TarEntrySink | null,
  limits: TarLimits,
): Promise<{ entries: number; comment: string }> {
  const queue = new _ByteQueue(_gunzip(gzipped).getReader(), limits.maxUnpackedBytes);
  const maxHeader = limits.maxHeaderBytes ?? _MAX_HEADER_BYTES;
  let entries = 0;
  let comment = "";
  let pax: Map<string, string> = new Map();
  let longName: string | null = null;
  let longLink: string | null = null;
  try {
    for (;;) {
      const header = await queue.take(512);
      if (header === null) break; // no end-of-archive blocks: accept (some writers omit them)
      if (header.every((b) => b === 0)) break;
      if (!_checksumOk(header)) {
        throw new SyntaxError("Cannot read archive: bad tar header checksum");
      }
      if (++entries > limits.maxEntries) {
        throw new RangeError(`the archive has more than ${limits.maxEntries} entries`);
      }
      const typeflag = String.fromCharCode(header[156]!);
      let size = _number(header.subarray(124, 136));
      if (pax.has("size")) size = Number(pax.get("size"));
      if (!Number.isSafeInteger(size) || size < 0) {
        throw new SyntaxError("Cannot read archive: bad entry size");
      }
      const padded = Math.ceil(size / 512) * 512;
      if (typeflag === "x" || typeflag === "g" || typeflag === "L" || typeflag === "K") {
        if (size > maxHeader) {
          throw new RangeError(
            `an extended header of ${size} bytes is over the ${maxHeader}-byte limit`,
          );
        }
        const data = await queue.take(padded);
        if (data === null) throw new SyntaxError("Cannot read archive: it ends inside a header");
        const body = data.subarray(0, size);
        if (typeflag === "x") pax = _paxRecords(body);
        else if (typeflag === "g") comment = _paxRecords(body).get("comment") ?? comment;
        else if (typeflag === "L") longName = _cString(body);
        else longLink = _cString(body);
        continue;
      }
      const entry = _entry(header, size, pax, longName, longLink);
      pax = new Map();
      longName = null;
      longLink = null;
      const sink = entry.type === "file" ? onEntry(entry) : (onEntry(entry), null);
      if (sink !== null) {
        if (!(await queue.pipe(size, sink))) {
          throw new SyntaxError(`Cannot read archive: it ends inside ${entry.path}`);
        }
        sink.end();
        if (!(await queue.skip(padded - size))) {
          throw new SyntaxError(`Cannot read archive: it ends inside ${entry.path}`);
        }
      } else if (!(await queue.skip(padded))) {
        throw new SyntaxError(`Cannot read archive: it ends inside ${entry.path}`);
      }
    }
  } finally {
    await queue.cancel();
  }
  return { entries, comment };
}

/**
 * The decompressed stream of a gzip stream, in chunks of at most 64 KB, with backpressure.
 * node:zlib rather than `DecompressionStream`: the web stream turns each input chunk into all of
 * its output at once, synchronously — one 64 KB chunk of a zero bomb (deflate reaches ~1000:1)
 * was 64 MB in one step and seconds without an answer to anything — and it unpacked 256 MB of
 * zeros in 4.5 s where zlib takes 0.3 s, never holding the event loop for more than a chunk.
 */
function _gunzip(gzipped: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const gunzip = createGunzip({ chunkSize: 64 * 1024 });
  const input = gzipped.getReader();
  (async () => {
    try {
      for (;;) {
        const { done, value } = await input.read();
        if (done) break;
        if (!gunzip.write(value)) await once(gunzip, "drain");
      }
      gunzip.end();
    } catch (e) {
      gunzip.destroy(e instanceof Error ? e : new Error(String(e)));
    }
  })();
  let open = true;
  const stop = () => {
    open = false;
    gunzip.destroy();
    input.cancel().catch(() => {});
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      gunzip.pause();
      gunzip.on("data", (chunk: Uint8Array) => {
        if (!open) return;
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) gunzip.pause();
      });
      gunzip.once("end", () => {
        if (open) controller.close();
        open = false;
      });
      gunzip.once("error", (e) => {
        if (open) controller.error(e);
        stop();
      });
    },
    pull() {
      gunzip.resume();
    },
    cancel: stop,
  }, { highWaterMark: 4 });
}

/** Longest run of decompression without yielding to the event loop, in ms. */
const _YIELD_MS = 20;

/** An entry from its ustar header and the pax / GNU long-name records before it. */
function _entry(
  header: Uint8Array,
  size: number,
  pax: Map<string, string>,
  longName: string | null,
  longLink: string | null,
): TarEntry {
  const typeflag = String.fromCharCode(header[156]!);
  const prefix = _cString(header.subarray(345, 500));
  const name = _cString(header.subarray(0, 100));
  const path = (pax.get("path") ?? longName ?? (prefix !== "" ? `${prefix}/${name}` : name))
    .replace(/^\.\//, "");
  const linkTarget = pax.get("linkpath") ?? longLink ?? _cString(header.subarray(157, 257));
  const type = typeflag === "0" || typeflag === "\0" || typeflag === "7"
    ? "file"
    : typeflag === "5"
    ? "dir"
    : typeflag === "2"
    ? "symlink"
    : "other";
  return { path: path.replace(/\/$/, ""), type, size, linkTarget };
}

/**
 * Read a gzipped tar archive held in memory (given whole or as chunks), keeping the contents of
 * the regular files `keep(path, size)` accepts. For archives the caller made or trusts: a
 * download goes through {@linkcode streamTarGz} with limits. Throws `SyntaxError` on a
 * malformed archive.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { readTarGz } from "./tar.ts";
 * // An empty archive: two zero blocks, gzipped.
 * const gz = await new Response(
 *   new Blob([new Uint8Array(1024)]).stream().pipeThrough(new CompressionStream("gzip")),
 * ).bytes();
 * equal((await readTarGz(gz, () => true)).entries.length, 0);
 * ```
 */
export async function readTarGz(
  gzipped: Uint8Array | readonly Uint8Array[],
  keep: (path: string, size: number) => boolean,
  limits: TarLimits = _UNBOUNDED,
): Promise<TarArchive> {
  const parts = gzipped instanceof Uint8Array ? [gzipped] : gzipped;
  const entries: TarEntry[] = [];
  const { comment } = await streamTarGz(
    ReadableStream.from(parts as Uint8Array<ArrayBuffer>[]),
    (entry) => {
      entries.push(entry);
      if (entry.type !== "file" || !keep(entry.path, entry.size)) return null;
      const content = new Uint8Array(entry.size);
      let at = 0;
      return {
        data: (chunk) => {
          content.set(chunk, at);
          at += chunk.length;
        },
        end: () => {
          entry.content = content;
        },
      };
    },
    limits,
  );
  return { entries, comment };
}

/** Bytes from a stream reader, taken in exact amounts. */
class _ByteQueue {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #maxBytes: number;
  #chunks: Uint8Array[] = [];
  #length = 0;
  #read = 0;
  #done = false;
  #yielded = performance.now();

  constructor(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number) {
    this.#reader = reader;
    this.#maxBytes = maxBytes;
  }

  async #fill(n: number): Promise<boolean> {
    while (this.#length < n && !this.#done) {
      // Data that is already there arrives as microtasks, which never let timers or I/O run:
      // yield to the event loop now and then, so the server answers other calls (ping).
      if (performance.now() - this.#yielded > _YIELD_MS) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        this.#yielded = performance.now();
      }
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await this.#reader.read();
      } catch (e) {
        if (e instanceof RangeError) throw e;
        throw new SyntaxError(
          `Cannot read archive: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      const { done, value } = next;
      if (done) this.#done = true;
      else if (value.length > 0) {
        this.#read += value.length;
        if (this.#read > this.#maxBytes) {
          throw new RangeError(`the archive unpacks to more than ${this.#maxBytes} bytes`);
        }
        this.#chunks.push(value);
        this.#length += value.length;
      }
    }
    return this.#length >= n;
  }

  /** Hand the next `n` bytes to `sink` chunk by chunk; false when the stream ends first. */
  async pipe(n: number, sink: TarEntrySink): Promise<boolean> {
    let left = n;
    while (left > 0) {
      if (this.#length === 0 && !(await this.#fill(1))) return false;
      const c = this.#chunks[0]!;
      const k = Math.min(c.length, left);
      sink.data(c.subarray(0, k));
      left -= k;
      this.#length -= k;
      if (k === c.length) this.#chunks.shift();
      else this.#chunks[0] = c.subarray(k);
    }
    return true;
  }

  /** The next `n` bytes, or null when the stream ends first. */
  async take(n: number): Promise<Uint8Array | null> {
    if (!(await this.#fill(n))) return null;
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const c = this.#chunks[0]!;
      const k = Math.min(c.length, n - at);
      out.set(c.subarray(0, k), at);
      at += k;
      if (k === c.length) this.#chunks.shift();
      else this.#chunks[0] = c.subarray(k);
    }
    this.#length -= n;
    return out;
  }

  /** Drop the next `n` bytes; false when the stream ends first. */
  async skip(n: number): Promise<boolean> {
    let left = n;
    while (left > 0) {
      if (this.#length === 0 && !(await this.#fill(1))) return false;
      const c = this.#chunks[0]!;
      const k = Math.min(c.length, left);
      left -= k;
      this.#length -= k;
      if (k === c.length) this.#chunks.shift();
      else this.#chunks[0] = c.subarray(k);
    }
    return true;
  }

  async cancel(): Promise<void> {
    if (!this.#done) await this.#reader.cancel().catch(() => {});
  }
}

const _decoder = new TextDecoder();

function _cString(bytes: Uint8Array): string {
  const nul = bytes.indexOf(0);
  return _decoder.decode(nul === -1 ? bytes : bytes.subarray(0, nul));
}

/** A numeric header field: octal text, or base-256 when the high bit of the first byte is set. */
function _number(field: Uint8Array): number {
  if ((field[0]! & 0x80) !== 0) {
    let n = field[0]! & 0x7f;
    for (let i = 1; i < field.length; i++) n = n * 256 + field[i]!;
    return n;
  }
  const text = _cString(field).trim();
  return text === "" ? 0 : parseInt(text, 8);
}

function _checksumOk(header: Uint8Array): boolean {
  const stored = _number(header.subarray(148, 156));
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  return sum === stored;
}

/** Pax records: `"<len> <key>=<value>\n"` repeated. */
function _paxRecords(body: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    if (space === -1) break;
    const len = Number(_decoder.decode(body.subarray(at, space)));
    if (!Number.isInteger(len) || len <= 0) break;
    const record = _decoder.decode(body.subarray(space + 1, at + len - 1));
    const eq = record.indexOf("=");
    if (eq !== -1) out.set(record.slice(0, eq), record.slice(eq + 1));
    at += len;
  }
  return out;
}
