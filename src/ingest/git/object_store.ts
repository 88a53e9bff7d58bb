/**
 * The object database of a repository, read in process: loose objects (`objects/xx/…`, zlib)
 * and packs (see `pack.ts`), with delta chains resolved, inflated objects cached by id (objects
 * are immutable) within a byte budget, and alternates (`objects/info/alternates`) followed only
 * into the allowed roots. Every failure names the object: `git_object_missing`,
 * `git_object_invalid` (damaged), `git_object_too_large` (over the size setting).
 */
import { isAbsolute, join, resolve } from "node:path";
import { existsSync } from "node:fs";
import { constants as zlibConstants, inflateSync } from "node:zlib";
import { ToolError } from "../../errors.ts";
import { type FileInside, readFileInVerifiedFolder, type UnsafeRead } from "../safe_read.ts";
import { fromHex, type GitObjectType } from "../../parser/git/objects.ts";
import { isInside } from "../walk.ts";
import { openGitFile, readGitFile, readGitText } from "./git_dir.ts";
import type { HistoryLimits } from "./limits.ts";
import { METADATA_CAPS } from "./limits.ts";
import { applyDelta, inflateExact, packedSize, PackIndex, readPackEntry } from "./pack.ts";

/** An inflated object. */
export interface GitObject {
  type: GitObjectType;
  data: Uint8Array;
}

interface _Pack {
  name: string;
  /** A number of its own among the store's packs, for keys by position. */
  serial: number;
  index: PackIndex;
  path: string;
  dir: string;
  file: FileInside | null;
}

/** One objects folder: the repository's own, or an alternate. */
interface _ObjectsDir {
  dir: string;
  packs: _Pack[] | null;
  /** Its real path, once needed. */
  realDir?: string;
  /** Fan-out folders (`ab` of `objects/ab/…`) verified to be inside it. */
  fanOut: Set<string>;
}

const _decoder = new TextDecoder();
/** Pack positions are below 2^40 (1 TB); a key is `serial × 2^40 + position`. */
const _PACK_SPAN = 2 ** 40;
const _MAX_SERIAL = 2 ** 13;

/** The key of a pack position (-1: none, past 8,192 packs, which are then not cached by position). */
function _at(p: _Pack, offset: number): number {
  return p.serial < _MAX_SERIAL ? p.serial * _PACK_SPAN + offset : -1;
}
const _HEADER = /^(commit|tree|blob|tag) (\d+)$/;

/** The object database of one repository. */
export class ObjectStore {
  readonly #hashBytes: number;
  readonly #limits: HistoryLimits;
  readonly #dirs: _ObjectsDir[];
  /** Alternates that were not followed, for the error of a missing object. */
  readonly refusedAlternates: string[] = [];
  readonly #cache = new Map<string, GitObject>();
  #cacheBytes = 0;
  readonly #byOffset: _ByOffset;
  #packsSeen = 0;

  constructor(
    objectsDir: string,
    hashBytes: number,
    limits: HistoryLimits,
    allowed: readonly string[] | null,
  ) {
    this.#hashBytes = hashBytes;
    this.#limits = limits;
    // Delta bases by pack position: half the object cache's budget (git keeps a delta base
    // cache of 96 MB beside its object cache).
    this.#byOffset = new _ByOffset(Math.max(1024 * 1024, limits.cacheBytes / 2));
    this.#dirs = [{ dir: objectsDir, packs: null, fanOut: new Set() }];
    const text = readGitText(
      join(objectsDir, "info", "alternates"),
      objectsDir,
      METADATA_CAPS.small * 16,
    );
    for (const line of (text ?? "").split("\n")) {
      const t = line.trim();
      if (t === "" || t.startsWith("#")) continue;
      const target = isAbsolute(t) ? t : resolve(objectsDir, t);
      let real: string;
      try {
        real = Deno.realPathSync(target);
      } catch {
        this.refusedAlternates.push(`${t} (missing)`);
        continue;
      }
      if (allowed !== null && !allowed.some((r) => isInside(r, real))) {
        this.refusedAlternates.push(`${t} (outside the allowed roots)`);
        continue;
      }
      this.#dirs.push({ dir: real, packs: null, fanOut: new Set() });
    }
  }

  /** The object with this id (lower-case hex). */
  read(id: string): GitObject {
    const hit = this.#cache.get(id);
    if (hit !== undefined) {
      // Most recently used last.
      this.#cache.delete(id);
      this.#cache.set(id, hit);
      return hit;
    }
    const found = this.#find(id, 0);
    this.#remember(id, found);
    return found;
  }

  /** The object with this id, which must be of `type`. */
  readTyped(id: string, type: GitObjectType): Uint8Array {
    const o = this.read(id);
    if (o.type !== type) {
      throw new ToolError(
        "git_object_invalid",
        `Git object ${id} is a ${o.type}, expected a ${type}`,
      );
    }
    return o.data;
  }

  /** The size of an object without inflating it when it is packed whole. */
  size(id: string): number {
    const hit = this.#cache.get(id);
    if (hit !== undefined) return hit.data.length;
    const bin = fromHex(id);
    for (const d of this.#dirs) {
      for (const p of this.#packs(d)) {
        const offset = p.index.find(bin);
        if (offset === -1) continue;
        p.file ??= openGitFile(p.path, p.dir);
        try {
          return packedSize(p.file, p.index, offset, this.#hashBytes, this.#limits.maxObjectBytes);
        } catch (e) {
          throw _objectError(id, e);
        }
      }
    }
    for (const d of this.#dirs) {
      let size: number | null;
      try {
        size = this.#looseSize(d, id);
      } catch (e) {
        throw _objectError(id, e);
      }
      if (size !== null) return size;
    }
    try {
      return this.read(id).data.length;
    } catch (e) {
      // Over the size setting: larger than anything that is read.
      if (e instanceof ToolError && e.code === "git_object_too_large") {
        return Number.MAX_SAFE_INTEGER;
      }
      throw e;
    }
  }

  /** Whether the object exists (without reading it when packed). */
  has(id: string): boolean {
    if (this.#cache.has(id)) return true;
    for (const d of this.#dirs) {
      if (this.#loosePath(d, id) !== null) return true;
      if (this.#packs(d).some((p) => p.index.find(fromHex(id)) !== -1)) return true;
    }
    return false;
  }

  /** Ids starting with a hex prefix (at most `limit`), for abbreviated ids. */
  withPrefix(prefix: string, limit: number): string[] {
    const out = new Set<string>();
    for (const d of this.#dirs) {
      try {
        for (const e of Deno.readDirSync(join(d.dir, prefix.slice(0, 2)))) {
          const id = prefix.slice(0, 2) + e.name;
          if (e.isFile && id.startsWith(prefix)) out.add(id);
        }
      } catch { /* no such folder */ }
      for (const p of this.#packs(d)) {
        for (const id of p.index.withPrefix(prefix, limit)) out.add(id);
      }
    }
    return [...out].slice(0, limit);
  }

  /** Close the pack files. */
  close(): void {
    for (const d of this.#dirs) for (const p of d.packs ?? []) p.file?.close();
  }

  #remember(id: string, o: GitObject): void {
    this.#cache.set(id, o);
    this.#cacheBytes += o.data.length;
    for (const [k, v] of this.#cache) {
      if (this.#cacheBytes <= this.#limits.cacheBytes) break;
      this.#cache.delete(k);
      this.#cacheBytes -= v.data.length;
    }
  }

  #find(id: string, depth: number): GitObject {
    if (depth > this.#limits.maxDeltaDepth) {
      throw new ToolError(
        "git_object_invalid",
        `Git object ${id}: delta chain deeper than ${this.#limits.maxDeltaDepth}`,
      );
    }
    try {
      const bin = fromHex(id);
      // The packs of every objects folder first (alternates included): most objects are there, and
      // a failed lookup costs no system call; then loose objects; and only for an object found
      // nowhere, the pack folders again (a repack since they were listed moves loose objects into
      // a new pack).
      for (const d of this.#dirs) {
        const found = this.#inPacks(d, bin, depth);
        if (found !== null) return found;
      }
      for (const d of this.#dirs) {
        const loose = this.#loose(d, id);
        if (loose !== null) return loose;
      }
      for (const d of this.#dirs) {
        const found = this.#rescan(d) ? this.#inPacks(d, bin, depth) : null;
        if (found !== null) return found;
      }
    } catch (e) {
      throw _objectError(id, e);
    }
    const alt = this.refusedAlternates.length === 0
      ? ""
      : `; the repository borrows objects from alternates that were not followed: ${
        this.refusedAlternates.join(", ")
      }`;
    throw new ToolError(
      "git_object_missing",
      `Git object ${id} is not in the repository (a shallow or partial clone, or a damaged one)${alt}. Fetch the missing history (git fetch --unshallow) or pick refs that are present`,
    );
  }

  /**
   * A fan-out folder of loose objects (`objects/ab`) once its real path is known to be inside
   * the objects folder (checked on first use; a folder that is a link out is refused), or null
   * when it does not exist (not remembered: objects may be written later).
   */
  #fanOut(d: _ObjectsDir, prefix: string): string | null {
    const folder = join(d.dir, prefix);
    if (d.fanOut.has(prefix)) return folder;
    let real: string;
    try {
      real = Deno.realPathSync(folder);
    } catch {
      return null;
    }
    d.realDir ??= Deno.realPathSync(d.dir);
    if (!isInside(d.realDir, real) || !Deno.statSync(real).isDirectory) {
      throw new ToolError(
        "git_unsafe",
        `Refused to read ${folder}: it is a symbolic link out of the git directory`,
      );
    }
    d.fanOut.add(prefix);
    return folder;
  }

  #inPacks(d: _ObjectsDir, bin: Uint8Array, depth: number): GitObject | null {
    for (const p of this.#packs(d)) {
      const offset = p.index.find(bin);
      if (offset !== -1) return this.#fromPack(p, offset, depth);
    }
    return null;
  }

  #loosePath(d: _ObjectsDir, id: string): string | null {
    const path = join(d.dir, id.slice(0, 2), id.slice(2));
    return existsSync(path) ? path : null;
  }

  /** The compressed bytes of a loose object, or null when it is not loose here. */
  #looseFile(d: _ObjectsDir, id: string): Uint8Array | null {
    const folder = this.#fanOut(d, id.slice(0, 2));
    if (folder === null) return null;
    const read = readFileInVerifiedFolder(folder, id.slice(2), this.#limits.maxObjectBytes + 1024);
    if (typeof read === "string") throw _refusedLoose(join(folder, id.slice(2)), read);
    return read;
  }

  #loose(d: _ObjectsDir, id: string): GitObject | null {
    const compressed = this.#looseFile(d, id);
    if (compressed === null) return null;
    const { type, size, start } = _looseHeader(_looseHead(compressed), this.#limits.maxObjectBytes);
    const raw = inflateExact(compressed, start + size, "loose object");
    return { type, data: raw.subarray(start) };
  }

  /** A loose object's size from its header (its stream's first bytes), or null when not loose. */
  #looseSize(d: _ObjectsDir, id: string): number | null {
    const compressed = this.#looseFile(d, id);
    if (compressed === null) return null;
    return _looseHeader(_looseHead(compressed), Number.MAX_SAFE_INTEGER).size;
  }

  #packs(d: _ObjectsDir): _Pack[] {
    if (d.packs === null) this.#rescan(d);
    return d.packs!;
  }

  /** List a folder's packs (again); true when the list changed. */
  #rescan(d: _ObjectsDir): boolean {
    const dir = join(d.dir, "pack");
    const names: string[] = [];
    try {
      // The pack folder must be a real folder of the objects folder, not a link out of it.
      const real = Deno.realPathSync(dir);
      if (!isInside(d.dir, real) && !isInside(Deno.realPathSync(d.dir), real)) {
        throw new ToolError(
          "git_unsafe",
          `Refused to read ${dir}: it is a symbolic link out of the git directory`,
        );
      }
      for (const e of Deno.readDirSync(dir)) {
        if (e.name.endsWith(".idx") && e.name.startsWith("pack-")) names.push(e.name.slice(0, -4));
      }
    } catch (e) {
      if (e instanceof ToolError) throw e;
    }
    names.sort();
    const known = new Map((d.packs ?? []).map((p) => [p.name, p]));
    if (d.packs !== null && names.length === known.size && names.every((n) => known.has(n))) {
      return false;
    }
    const packs: _Pack[] = [];
    for (const name of names) {
      const old = known.get(name);
      if (old !== undefined) {
        packs.push(old);
        continue;
      }
      const bytes = readGitFile(join(dir, `${name}.idx`), d.dir, METADATA_CAPS.packIndex);
      if (bytes === null) continue;
      try {
        packs.push({
          name,
          serial: this.#packsSeen++,
          index: new PackIndex(bytes, this.#hashBytes, `${name}.idx`),
          path: join(dir, `${name}.pack`),
          dir: d.dir,
          file: null,
        });
      } catch (e) {
        throw new ToolError(
          "git_object_invalid",
          `The pack index ${join(dir, name)}.idx is damaged: ${
            (e as Error).message
          }. Run "git fsck" in the repository`,
        );
      }
    }
    d.packs = packs;
    return true;
  }

  #fromPack(p: _Pack, offset: number, depth: number): GitObject {
    const hit = this.#byOffset.get(_at(p, offset));
    if (hit !== undefined) return hit;
    p.file ??= openGitFile(p.path, p.dir);
    // Walk the chain down to a whole object (or one resolved before), then apply the deltas back
    // up, keeping every object of the chain: walking a history reads the neighbours of a chain
    // next, and without them each read would inflate the chain below it again (quadratic in the
    // chain's depth, as git's delta base cache avoids).
    const chain: { at: number; delta: Uint8Array }[] = [];
    let base: GitObject | undefined;
    let at = offset;
    for (let d = depth; base === undefined; d++) {
      if (d > this.#limits.maxDeltaDepth) {
        throw new SyntaxError(`delta chain deeper than ${this.#limits.maxDeltaDepth}`);
      }
      const cached = chain.length > 0 ? this.#byOffset.get(_at(p, at)) : undefined;
      if (cached !== undefined) {
        base = cached;
        break;
      }
      const entry = readPackEntry(
        p.file,
        p.index,
        at,
        this.#hashBytes,
        this.#limits.maxObjectBytes,
      );
      if (entry.kind === "object") {
        base = { type: entry.type as GitObjectType, data: entry.data };
        if (chain.length > 0) this.#byOffset.put(_at(p, at), base);
      } else if (entry.kind === "ofs_delta") {
        chain.push({ at, delta: entry.delta });
        at = entry.base;
      } else {
        chain.push({ at, delta: entry.delta });
        base = this.#find(entry.base, d + 1);
      }
    }
    let object = base;
    for (let i = chain.length - 1; i >= 0; i--) {
      const link = chain[i]!;
      object = {
        type: base.type,
        data: applyDelta(object.data, link.delta, this.#limits.maxObjectBytes),
      };
      this.#byOffset.put(_at(p, link.at), object);
    }
    return object;
  }
}

/** Objects by pack position, least recently used out first, within a byte budget. */
class _ByOffset {
  readonly #map = new Map<number, GitObject>();
  readonly #budget: number;
  #bytes = 0;

  constructor(budget: number) {
    this.#budget = budget;
  }

  get(key: number): GitObject | undefined {
    const hit = this.#map.get(key);
    if (hit !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, hit);
    }
    return hit;
  }

  put(key: number, o: GitObject): void {
    // One object larger than a quarter of the budget would push out all its neighbours.
    if (key === -1 || o.data.length > this.#budget / 4 || this.#map.has(key)) return;
    this.#map.set(key, o);
    this.#bytes += o.data.length;
    for (const [k, v] of this.#map) {
      if (this.#bytes <= this.#budget) break;
      this.#map.delete(k);
      this.#bytes -= v.data.length;
    }
  }
}

/**
 * The first bytes of a loose object's stream, enough for its header: an object over the size
 * setting is refused before it is inflated.
 */
function _looseHead(compressed: Uint8Array): Uint8Array {
  let head: Uint8Array = new Uint8Array(0);
  for (let take = 256;; take *= 8) {
    try {
      head = inflateSync(compressed.subarray(0, take), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    } catch (e) {
      throw new SyntaxError(
        `cannot inflate the loose object (${(e as Error).message.split("\n")[0]})`,
      );
    }
    if (head.subarray(0, 64).indexOf(0) !== -1 || head.length >= 64 || take >= compressed.length) {
      return head;
    }
  }
}

/** A loose object's `<type> <size>\0` header: its type, size and where its data starts. */
function _looseHeader(
  raw: Uint8Array,
  maxBytes: number,
): { type: GitObjectType; size: number; start: number } {
  const nul = raw.subarray(0, 64).indexOf(0);
  const header = nul === -1 ? null : _HEADER.exec(_decoder.decode(raw.subarray(0, nul)));
  if (header === null) throw new SyntaxError("loose object has no valid header");
  const size = Number(header[2]);
  if (size > maxBytes) throw new RangeError(`it is ${size} bytes`);
  return { type: header[1] as GitObjectType, size, start: nul + 1 };
}

function _refusedLoose(path: string, why: UnsafeRead): ToolError {
  const reason = why === "too_large"
    ? "it is larger than the size setting"
    : why === "not_regular"
    ? "it is not a regular file (a FIFO, device or folder)"
    : "it is a symbolic link";
  return new ToolError("git_unsafe", `Refused to read ${path}: ${reason}`);
}

function _objectError(id: string, e: unknown): ToolError {
  if (e instanceof ToolError) return e;
  if (e instanceof RangeError) {
    return new ToolError(
      "git_object_too_large",
      `Git object ${id} is too large to read: ${e.message}. Raise CODEMUNCH_HISTORY_MAX_OBJECT_BYTES to read it`,
    );
  }
  const why = e instanceof Error ? e.message : String(e);
  return new ToolError(
    "git_object_invalid",
    `Git object ${id} is damaged: ${why}. Run "git fsck" in the repository, or re-clone it`,
  );
}
