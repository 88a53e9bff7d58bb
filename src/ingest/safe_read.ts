/**
 * Reading a file of an indexed folder so that the check and the read are about the same file:
 * open first (never through a final symlink unless asked, never blocking on a FIFO), then verify
 * what was opened — a regular file, whose identity (device and inode) is that of the path's real
 * location inside the root — and read at most a bounded number of bytes from that handle. A file
 * swapped for a symlink (or its folder for a symlinked one) between the walk and the read is
 * refused, not followed out of the root.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
} from "node:fs";
import { isInside } from "./walk.ts";

/** Why a file was not read. */
export type UnsafeRead = "symlink" | "symlink_escape" | "not_regular" | "too_large";

/** Options of {@linkcode readFileInside}. */
export interface SafeReadOptions {
  /** Most bytes read; a larger file is `too_large`. */
  maxBytes: number;
  /**
   * Accept a symlink as the last path component (its target must still be inside the root).
   * @default false
   */
  followSymlinks?: boolean;
  /**
   * {@linkcode openFileInside} only: a file at most this long is read whole when opened, and
   * `readAt` hands out views of it.
   * @default never
   */
  wholeBelow?: number;
}

// Not every platform has these flags (Windows): 0 leaves the open as it was.
const _NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const _NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * The bytes of the regular file at `path` (absolute), when it really is inside `root` (absolute
 * and real); otherwise why not. Errors other than these (not found, permission) are thrown.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { readFileInside } from "./safe_read.ts";
 * const root = Deno.realPathSync(Deno.makeTempDirSync());
 * Deno.writeTextFileSync(`${root}/a.txt`, "hi");
 * Deno.symlinkSync("/etc/hostname", `${root}/b.txt`);
 * equal((readFileInside(`${root}/a.txt`, root, { maxBytes: 10 }) as Uint8Array).length, 2);
 * // Refused: "symlink" (O_NOFOLLOW), or "symlink_escape" where the permission layer resolves links.
 * equal(typeof readFileInside(`${root}/b.txt`, root, { maxBytes: 10 }), "string");
 * equal(readFileInside(`${root}/b.txt`, root, { maxBytes: 10, followSymlinks: true }), "symlink_escape");
 * Deno.removeSync(root, { recursive: true });
 * ```
 */
export function readFileInside(
  path: string,
  root: string,
  options: SafeReadOptions,
): Uint8Array | UnsafeRead {
  const file = openFileInside(path, root, options);
  if (typeof file === "string") return file;
  try {
    // Read from the handle, at most maxBytes + 1 (a file that grew since the stat is too large).
    const buffer = new Uint8Array(Math.min(options.maxBytes + 1, file.size + 1));
    let got = 0;
    while (got < buffer.length) {
      const n = readSync(file.fd, buffer, got, buffer.length - got, null);
      if (n === 0) break;
      got += n;
    }
    if (got > options.maxBytes) return "too_large";
    return buffer.subarray(0, got);
  } finally {
    file.close();
  }
}

/** A verified open file of {@linkcode openFileInside}: read it by position, then close it. */
export interface FileInside {
  /** The open descriptor (read-only, non-blocking). */
  readonly fd: number;
  /** Its size when it was verified. */
  readonly size: number;
  /** Up to `length` bytes at `position` (fewer at the end of the file). */
  readAt(position: number, length: number): Uint8Array;
  close(): void;
}

/**
 * Open the regular file at `path` (absolute) for reading by position, when it really is inside
 * `root` and at most `maxBytes` long — the same checks as {@linkcode readFileInside}, for files
 * too large to read whole (git pack files). The caller closes it.
 */
export function openFileInside(
  path: string,
  root: string,
  options: SafeReadOptions,
): FileInside | UnsafeRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | _NONBLOCK | (options.followSymlinks ? 0 : _NOFOLLOW));
  } catch (e) {
    if ((e as { code?: string }).code === "ELOOP") return "symlink";
    // Under narrow read permissions Deno resolves the path before opening it: a symlink (or a
    // folder swapped for one) out of the readable roots fails here, before any read.
    if (_denied(e)) {
      try {
        if (Deno.lstatSync(path).isSymlink) return "symlink_escape";
      } catch { /* the path itself is out of reach: report the original error */ }
      try {
        if (!isInside(root, realpathSync(path))) return "symlink_escape";
      } catch (again) {
        if (_denied(again)) return "symlink_escape";
      }
    }
    throw e;
  }
  const refused = _verify(fd, path, root, options.maxBytes);
  if (typeof refused === "string") {
    closeSync(fd);
    return refused;
  }
  const size = refused;
  // A file that fits the budget is read once; positional reads then cost nothing.
  let whole: Uint8Array | null = null;
  if (options.wholeBelow !== undefined && size <= options.wholeBelow) {
    whole = new Uint8Array(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, whole, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    whole = whole.subarray(0, got);
  }
  return {
    fd,
    size,
    readAt(position: number, length: number): Uint8Array {
      if (whole !== null) return whole.subarray(position, position + length);
      const buffer = new Uint8Array(Math.max(0, Math.min(length, size - position)));
      let got = 0;
      while (got < buffer.length) {
        const n = readSync(fd, buffer, got, buffer.length - got, position + got);
        if (n === 0) break;
        got += n;
      }
      return buffer.subarray(0, got);
    },
    close: () => closeSync(fd),
  };
}

/**
 * The bytes of the regular file `name` in `folder`, a folder the caller has verified once to be
 * inside its root (its real path) and that is still no symlink now — the per-file part of
 * {@linkcode readFileInside} for the many files of one folder (git's loose objects: a realpath per
 * file was most of their cost). Opened without following a final symlink and never blocking,
 * then checked to be a regular file of at most `maxBytes` and the very file at that path (its
 * device and inode); null when there is no such file.
 */
export function readFileInVerifiedFolder(
  folder: string,
  name: string,
  maxBytes: number,
): Uint8Array | UnsafeRead | null {
  let fd: number;
  try {
    if (lstatSync(folder).isSymbolicLink()) return "symlink_escape";
    fd = openSync(`${folder}/${name}`, constants.O_RDONLY | _NONBLOCK | _NOFOLLOW);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR" || e instanceof Deno.errors.NotFound) return null;
    if (code === "ELOOP") return "symlink";
    if (_denied(e)) return "symlink_escape";
    throw e;
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return "not_regular";
    // What was opened must be the file at the path itself, not a link's target (Deno may resolve
    // a link before the open, so O_NOFOLLOW alone does not refuse it).
    const at = lstatSync(`${folder}/${name}`);
    if (at.isSymbolicLink()) return "symlink";
    if (at.ino !== opened.ino || at.dev !== opened.dev) return "symlink_escape";
    if (opened.size > maxBytes) return "too_large";
    const buffer = new Uint8Array(Math.min(maxBytes + 1, opened.size + 1));
    let got = 0;
    while (got < buffer.length) {
      const n = readSync(fd, buffer, got, buffer.length - got, null);
      if (n === 0) break;
      got += n;
    }
    return got > maxBytes ? "too_large" : buffer.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** The size of the open file when it is the regular file at `path`'s real location in `root`. */
function _verify(fd: number, path: string, root: string, maxBytes: number): number | UnsafeRead {
  const opened = fstatSync(fd);
  if (!opened.isFile()) return "not_regular";
  // The path's real location now must be inside the root and be the very file we opened.
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return "symlink_escape";
  }
  if (!isInside(root, real)) return "symlink_escape";
  const there = statSync(real);
  if (there.ino !== opened.ino || there.dev !== opened.dev) return "symlink_escape";
  if (opened.size > maxBytes) return "too_large";
  return opened.size;
}

function _denied(e: unknown): boolean {
  return e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied;
}
