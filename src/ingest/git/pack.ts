/**
 * Pack files (`objects/pack/pack-*.pack` with their version 2 `.idx`): find an object by id in
 * the index (fan-out table, binary search), read its entry by position from the pack, inflate it
 * (`node:zlib`, output capped) and resolve offset and reference deltas. Every length and offset is
 * checked against the file; a damaged entry is a `SyntaxError` the object store turns into an
 * error naming the object.
 *
 * Inflating: most objects a history walk reads are small (commits, trees, deltas of a few hundred
 * bytes), where a `node:zlib` call costs ~20 µs of set-up and garbage around microseconds of work;
 * a stream of at most `_SMALL_STREAM` compressed bytes is inflated by fflate (pure JS, ~3x faster
 * there) and its Adler-32 checked here. fflate cannot stop at an output cap, so it gets only
 * streams whose worst case (deflate expands at most ~1032:1) is a few MB of work; larger streams
 * go to `node:zlib` with its output capped at the announced size.
 */
import { inflateSync } from "node:zlib";
import { unzlibSync } from "fflate";
import type { FileInside } from "../safe_read.ts";
import { toHex } from "../../parser/git/objects.ts";

/** Pack entry types by number. */
export const PACK_TYPES = ["", "commit", "tree", "blob", "tag", "", "ofs_delta", "ref_delta"];

/** A raw pack entry: a whole object, or a delta against a base. */
export type PackEntry =
  | { kind: "object"; type: string; data: Uint8Array }
  | { kind: "ofs_delta"; base: number; delta: Uint8Array }
  | { kind: "ref_delta"; base: string; delta: Uint8Array };

/** A version 2 pack index. */
export class PackIndex {
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  readonly #hash: number;
  readonly count: number;
  readonly #names: number;
  readonly #offsets: number;
  readonly #large: number;
  #sorted: Float64Array | null = null;

  constructor(bytes: Uint8Array, hashBytes: number, name: string) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#hash = hashBytes;
    if (bytes.length < 8 + 1024 || this.#view.getUint32(0) !== 0xff744f63) {
      throw new SyntaxError(`${name} is not a version 2 pack index`);
    }
    if (this.#view.getUint32(4) !== 2) {
      throw new SyntaxError(`${name} has index version ${this.#view.getUint32(4)}; only 2 is read`);
    }
    this.count = this.#view.getUint32(8 + 255 * 4);
    this.#names = 8 + 1024;
    this.#offsets = this.#names + this.count * (hashBytes + 4);
    this.#large = this.#offsets + this.count * 4;
    if (this.#large + 2 * hashBytes > bytes.length) {
      throw new SyntaxError(`${name} is truncated (${this.count} objects announced)`);
    }
  }

  /** The pack offset of an object (id as bytes), or -1. */
  find(id: Uint8Array): number {
    const first = id[0]!;
    let lo = first === 0 ? 0 : this.#view.getUint32(8 + (first - 1) * 4);
    let hi = this.#view.getUint32(8 + first * 4);
    const h = this.#hash;
    const b = this.#bytes;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.#names + mid * h;
      let cmp = 0;
      for (let k = 0; k < h; k++) {
        cmp = b[at + k]! - id[k]!;
        if (cmp !== 0) break;
      }
      if (cmp === 0) return this.offsetAt(mid);
      if (cmp < 0) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  /** Ids in this index starting with a hex prefix (at most `limit`). */
  withPrefix(prefix: string, limit: number): string[] {
    const first = parseInt(prefix.slice(0, 2), 16);
    const lo = first === 0 ? 0 : this.#view.getUint32(8 + (first - 1) * 4);
    const hi = this.#view.getUint32(8 + first * 4);
    const out: string[] = [];
    for (let i = lo; i < hi && out.length < limit; i++) {
      const id = toHex(
        this.#bytes,
        this.#names + i * this.#hash,
        this.#names + (i + 1) * this.#hash,
      );
      if (id.startsWith(prefix)) out.push(id);
    }
    return out;
  }

  /** The offset of the i-th object (by id order). */
  offsetAt(i: number): number {
    const v = this.#view.getUint32(this.#offsets + i * 4);
    if ((v & 0x80000000) === 0) return v;
    const at = this.#large + (v & 0x7fffffff) * 8;
    if (at + 8 > this.#bytes.length - 2 * this.#hash) {
      throw new SyntaxError(`pack index has a bad large offset for entry ${i}`);
    }
    return Number(this.#view.getBigUint64(at));
  }

  /** Where the entry at `offset` ends: the next entry's offset, or the pack's checksum. */
  endOf(offset: number, packSize: number): number {
    if (this.#sorted === null) {
      const all = new Float64Array(this.count + 1);
      for (let i = 0; i < this.count; i++) all[i] = this.offsetAt(i);
      all[this.count] = packSize - this.#hash;
      all.sort();
      this.#sorted = all;
    }
    const s = this.#sorted;
    let lo = 0, hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s[mid]! <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo < s.length ? s[lo]! : packSize - this.#hash;
  }
}

/** Compressed streams up to this many bytes are inflated by fflate (see the module doc). */
const _SMALL_STREAM = 4096;

/** Inflate a zlib stream of exactly `size` bytes (a longer or shorter one is damaged). */
export function inflateExact(compressed: Uint8Array, size: number, what: string): Uint8Array {
  if (compressed.length <= _SMALL_STREAM) return _inflateSmall(compressed, size, what);
  let out: Uint8Array;
  try {
    // One output chunk of the known size: no growing and copying of buffers.
    out = inflateSync(compressed, {
      maxOutputLength: Math.max(size, 1),
      chunkSize: Math.max(64, size + 1),
    });
  } catch (e) {
    throw new SyntaxError(
      `${what}: cannot inflate (${e instanceof Error ? e.message.split("\n")[0] : String(e)})`,
    );
  }
  if (out.length !== size) {
    throw new SyntaxError(`${what}: inflated to ${out.length} bytes, header says ${size}`);
  }
  return out;
}

/**
 * A small zlib stream (2-byte header, deflate data, Adler-32 in its last 4 bytes: a pack entry's
 * bytes run to the next entry, a loose object's to the end of its file) inflated by fflate into a
 * buffer one byte larger than announced (a longer stream shows as that byte), its checksum
 * verified (fflate does not).
 */
function _inflateSmall(compressed: Uint8Array, size: number, what: string): Uint8Array {
  const n = compressed.length;
  let out: Uint8Array;
  try {
    out = unzlibSync(compressed, { out: new Uint8Array(size + 1) });
  } catch (e) {
    throw new SyntaxError(
      `${what}: cannot inflate (${e instanceof Error ? e.message.split("\n")[0] : String(e)})`,
    );
  }
  if (out.length !== size) {
    throw new SyntaxError(`${what}: inflated to ${out.length} bytes or more, header says ${size}`);
  }
  const stored = n < 6 ? -1 : ((compressed[n - 4]! << 24) | (compressed[n - 3]! << 16) |
    (compressed[n - 2]! << 8) | compressed[n - 1]!) >>> 0;
  if (stored !== adler32(out)) throw new SyntaxError(`${what}: cannot inflate (bad checksum)`);
  return out;
}

/** Adler-32 of bytes (zlib's checksum). */
export function adler32(bytes: Uint8Array): number {
  let a = 1, b = 0;
  for (let i = 0; i < bytes.length;) {
    // 5552 bytes is the most that cannot overflow before the modulo (zlib's NMAX).
    const stop = Math.min(bytes.length, i + 5552);
    for (; i < stop; i++) {
      a += bytes[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * Read the entry at `offset` of a pack: its header (type, size, delta base) and its inflated
 * data. `maxBytes` caps the announced size.
 */
export function readPackEntry(
  pack: FileInside,
  index: PackIndex,
  offset: number,
  hashBytes: number,
  maxBytes: number,
): PackEntry {
  const end = index.endOf(offset, pack.size);
  if (offset < 12 || end <= offset || end > pack.size) {
    throw new SyntaxError(`pack entry at offset ${offset} is outside the pack`);
  }
  // The header first; then no more compressed bytes than the announced size can need (a damaged
  // index cannot make us read a whole pack for one entry).
  let raw = pack.readAt(offset, Math.min(end - offset, 64));
  let i = 0;
  let c = raw[i++]!;
  const type = (c >> 4) & 7;
  let size = c & 15;
  for (let shift = 4; c & 0x80; shift += 7) {
    if (i >= raw.length || shift > 49) throw new SyntaxError(`pack entry at ${offset}: bad size`);
    c = raw[i++]!;
    size += (c & 0x7f) * 2 ** shift;
  }
  if (size > maxBytes) {
    throw new RangeError(`pack entry at ${offset} is ${size} bytes (limit ${maxBytes})`);
  }
  const what = `pack entry at offset ${offset}`;
  const need = Math.min(end - offset, 64 + size + Math.ceil(size / 8) + 1024);
  if (need > raw.length) raw = pack.readAt(offset, need);
  if (type === 6) {
    c = raw[i++]!;
    let rel = c & 0x7f;
    while (c & 0x80) {
      if (i >= raw.length) throw new SyntaxError(`${what}: bad delta offset`);
      c = raw[i++]!;
      rel = (rel + 1) * 128 + (c & 0x7f);
    }
    if (rel <= 0 || rel > offset - 12) {
      throw new SyntaxError(`${what}: delta base outside the pack`);
    }
    return {
      kind: "ofs_delta",
      base: offset - rel,
      delta: inflateExact(raw.subarray(i), size, what),
    };
  }
  if (type === 7) {
    if (i + hashBytes > raw.length) throw new SyntaxError(`${what}: truncated delta base`);
    const base = toHex(raw, i, i + hashBytes);
    return {
      kind: "ref_delta",
      base,
      delta: inflateExact(raw.subarray(i + hashBytes), size, what),
    };
  }
  const name = PACK_TYPES[type];
  if (name === undefined || name === "") throw new SyntaxError(`${what}: unknown type ${type}`);
  return { kind: "object", type: name, data: inflateExact(raw.subarray(i), size, what) };
}

/** Apply a git delta to its base. */
export function applyDelta(base: Uint8Array, delta: Uint8Array, maxBytes: number): Uint8Array {
  let i = 0;
  const varint = () => {
    let v = 0;
    let shift = 0;
    let c: number;
    do {
      if (i >= delta.length || shift > 49) throw new SyntaxError("delta header is truncated");
      c = delta[i++]!;
      v += (c & 0x7f) * 2 ** shift;
      shift += 7;
    } while (c & 0x80);
    return v;
  };
  const sourceSize = varint();
  const targetSize = varint();
  if (sourceSize !== base.length) {
    throw new SyntaxError(`delta expects a ${sourceSize}-byte base, got ${base.length}`);
  }
  if (targetSize > maxBytes) {
    throw new RangeError(`delta result is ${targetSize} bytes (limit ${maxBytes})`);
  }
  const out = new Uint8Array(targetSize);
  let o = 0;
  while (i < delta.length) {
    const op = delta[i++]!;
    if (op & 0x80) {
      let off = 0;
      let len = 0;
      for (let b = 0; b < 4; b++) if (op & (1 << b)) off += delta[i++]! * 2 ** (8 * b);
      for (let b = 0; b < 3; b++) if (op & (16 << b)) len += delta[i++]! << (8 * b);
      if (len === 0) len = 0x10000;
      if (off + len > base.length || o + len > targetSize || i > delta.length) {
        throw new SyntaxError("delta copies outside its base or result");
      }
      out.set(base.subarray(off, off + len), o);
      o += len;
    } else if (op !== 0) {
      if (i + op > delta.length || o + op > targetSize) {
        throw new SyntaxError("delta insert overflows");
      }
      out.set(delta.subarray(i, i + op), o);
      i += op;
      o += op;
    } else {
      throw new SyntaxError("delta has a reserved opcode 0");
    }
  }
  if (o !== targetSize) {
    throw new SyntaxError(`delta produced ${o} bytes, header says ${targetSize}`);
  }
  return out;
}

/** The size of the object at `offset`: its header's, or for a delta the result size it declares. */
export function packedSize(
  pack: FileInside,
  index: PackIndex,
  offset: number,
  hashBytes: number,
  maxBytes: number,
): number {
  const head = pack.readAt(offset, 1);
  const type = (head[0]! >> 4) & 7;
  if (type !== 6 && type !== 7) {
    const raw = pack.readAt(offset, 16);
    let c = raw[0]!;
    let size = c & 15;
    for (let i = 1, shift = 4; c & 0x80 && i < raw.length; i++, shift += 7) {
      c = raw[i]!;
      size += (c & 0x7f) * 2 ** shift;
    }
    return size;
  }
  const entry = readPackEntry(pack, index, offset, hashBytes, maxBytes);
  if (entry.kind === "object") return entry.data.length;
  const d = entry.delta;
  let i = 0;
  for (; i < d.length && d[i]! & 0x80; i++);
  let v = 0;
  for (let k = i + 1, shift = 0; k < d.length; k++, shift += 7) {
    v += (d[k]! & 0x7f) * 2 ** shift;
    if (!(d[k]! & 0x80)) break;
  }
  return v;
}
