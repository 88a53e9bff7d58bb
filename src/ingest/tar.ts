/**
 * A small reader of gzipped tar archives, as `git archive` (and so GitHub's tarball endpoint)
 * writes them: ustar headers with a `prefix` field, pax extended headers (`x`: per-entry `path`,
 * `linkpath`, `size`; `g`: global, whose `comment` is the commit id), and GNU long names (`L`,
 * `K`). Decompression is the web-standard `DecompressionStream`; entries are read as a stream and
 * only the contents a caller keeps are held in memory.
 */

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

/**
 * Read a gzipped tar archive, given whole or as the chunks it was downloaded in (decompressed
 * as a stream, never copied into one buffer). `keep(path, size)` decides which regular files' contents are
 * held (others are skipped as they stream past). Throws `SyntaxError` on a malformed archive.
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
): Promise<TarArchive> {
  const parts = gzipped instanceof Uint8Array ? [gzipped] : gzipped;
  const stream = ReadableStream.from(parts as Uint8Array<ArrayBuffer>[]).pipeThrough(
    new DecompressionStream("gzip"),
  );
  const queue = new _ByteQueue(stream.getReader());
  const entries: TarEntry[] = [];
  let comment = "";
  let pax: Map<string, string> = new Map();
  let longName: string | null = null;
  let longLink: string | null = null;
  for (;;) {
    const header = await queue.take(512);
    if (header === null) break; // no end-of-archive blocks: accept (some writers omit them)
    if (header.every((b) => b === 0)) break;
    if (!_checksumOk(header)) throw new SyntaxError("Cannot read archive: bad tar header checksum");
    const typeflag = String.fromCharCode(header[156]!);
    let size = _number(header.subarray(124, 136));
    if (pax.has("size")) size = Number(pax.get("size"));
    const padded = Math.ceil(size / 512) * 512;
    if (typeflag === "x" || typeflag === "g" || typeflag === "L" || typeflag === "K") {
      const data = await queue.take(padded);
      if (data === null) throw new SyntaxError("Cannot read archive: it ends inside a header");
      const body = data.subarray(0, size);
      if (typeflag === "x") pax = _paxRecords(body);
      else if (typeflag === "g") comment = _paxRecords(body).get("comment") ?? comment;
      else if (typeflag === "L") longName = _cString(body);
      else longLink = _cString(body);
      continue;
    }
    const prefix = _cString(header.subarray(345, 500));
    const name = _cString(header.subarray(0, 100));
    let path = pax.get("path") ?? longName ?? (prefix !== "" ? `${prefix}/${name}` : name);
    const linkTarget = pax.get("linkpath") ?? longLink ?? _cString(header.subarray(157, 257));
    pax = new Map();
    longName = null;
    longLink = null;
    path = path.replace(/^\.\//, "");
    const type = typeflag === "0" || typeflag === "\0" || typeflag === "7"
      ? "file"
      : typeflag === "5"
      ? "dir"
      : typeflag === "2"
      ? "symlink"
      : "other";
    const entry: TarEntry = { path: path.replace(/\/$/, ""), type, size, linkTarget };
    if (type === "file" && keep(entry.path, size)) {
      const data = await queue.take(padded);
      if (data === null) throw new SyntaxError(`Cannot read archive: it ends inside ${path}`);
      entry.content = data.slice(0, size);
    } else if (!(await queue.skip(padded))) {
      throw new SyntaxError(`Cannot read archive: it ends inside ${path}`);
    }
    entries.push(entry);
  }
  await queue.cancel();
  return { entries, comment };
}

/** Bytes from a stream reader, taken in exact amounts. */
class _ByteQueue {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #chunks: Uint8Array[] = [];
  #length = 0;
  #done = false;

  constructor(reader: ReadableStreamDefaultReader<Uint8Array>) {
    this.#reader = reader;
  }

  async #fill(n: number): Promise<boolean> {
    while (this.#length < n && !this.#done) {
      const { done, value } = await this.#reader.read();
      if (done) this.#done = true;
      else if (value.length > 0) {
        this.#chunks.push(value);
        this.#length += value.length;
      }
    }
    return this.#length >= n;
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
