/**
 * The working tree against `HEAD`: which files of the indexed folder differ from the commit,
 * as `git diff HEAD` sees them (tracked files; staged new files count as added). Files are
 * compared by blob id: a file whose stat matches its `.git/index` entry (and is not racily
 * clean) has the entry's id, any other is read (confined, size-capped) and hashed. Nothing of
 * git's configuration is read: no fsmonitor, no filters, no hooks.
 */
import { lstatSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { entryKind, toHex } from "../../parser/git/objects.ts";
import { readFileInside } from "../safe_read.ts";
import { readGitFile } from "./git_dir.ts";
import { METADATA_CAPS } from "./limits.ts";
import type { FileChange } from "../../parser/git/history.ts";
import type { GitRepository } from "./repository.ts";

/** One entry of `.git/index` (stage 0 only). */
interface _IndexEntry {
  mtimeSec: number;
  mtimeNsec: number;
  size: number;
  ino: number;
  mode: string;
  id: string;
}

/** The stage-0 entries of `.git/index` (versions 2, 3, 4) and the file's own mtime (ms). */
export function readIndex(
  repo: GitRepository,
): { entries: Map<string, _IndexEntry>; mtimeMs: number } {
  const dir = repo.location.gitDir;
  const path = join(dir, "index");
  const bytes = readGitFile(path, dir, METADATA_CAPS.index);
  const entries = new Map<string, _IndexEntry>();
  if (bytes === null) return { entries, mtimeMs: 0 };
  const mtimeMs = Deno.statSync(path).mtime?.getTime() ?? 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || view.getUint32(0) !== 0x44495243) return { entries, mtimeMs }; // "DIRC"
  const version = view.getUint32(4);
  const count = view.getUint32(8);
  const h = repo.location.hashBytes;
  const decoder = new TextDecoder();
  let at = 12;
  let previous = "";
  for (let n = 0; n < count && at + 40 + h + 2 <= bytes.length; n++) {
    const start = at;
    const flags = view.getUint16(at + 40 + h);
    let p = at + 42 + h;
    if (version >= 3 && flags & 0x4000) p += 2;
    let name: string;
    if (version === 4) {
      let strip = 0;
      let c: number;
      do {
        c = bytes[p++]!;
        strip = (strip << 7) | (c & 0x7f);
        if (c & 0x80) strip++;
      } while (c & 0x80 && p < bytes.length);
      const nul = bytes.indexOf(0, p);
      if (nul === -1) break;
      name = previous.slice(0, Math.max(0, previous.length - strip)) +
        decoder.decode(bytes.subarray(p, nul));
      at = nul + 1;
    } else {
      const nul = bytes.indexOf(0, p);
      if (nul === -1) break;
      name = decoder.decode(bytes.subarray(p, nul));
      at = start + Math.ceil((nul + 1 - start) / 8) * 8;
    }
    previous = name;
    if (((flags >> 12) & 3) !== 0) continue; // a conflict stage: the file counts as changed
    entries.set(name, {
      mtimeSec: view.getUint32(start + 8),
      mtimeNsec: view.getUint32(start + 12),
      ino: view.getUint32(start + 20),
      mode: view.getUint32(start + 24).toString(8),
      size: view.getUint32(start + 36),
      id: toHex(bytes, start + 40, start + 40 + h),
    });
  }
  return { entries, mtimeMs };
}

/** The blob id of bytes. */
export function blobId(bytes: Uint8Array, hashBytes: number): string {
  const hash = createHash(hashBytes === 32 ? "sha256" : "sha1");
  hash.update(`blob ${bytes.length}\0`);
  hash.update(bytes);
  return hash.digest("hex");
}

/**
 * The files of the indexed folder (`root`) that differ between `HEAD`'s tree and the working
 * tree, with `extra` folder-relative paths (files codemunch indexed that git does not track)
 * counted as added. `maxBytes` caps each file read.
 */
export function worktreeChanges(
  repo: GitRepository,
  root: string,
  headTree: string,
  extra: readonly string[],
  maxBytes: number,
): { changes: FileChange[]; contents: Map<string, Uint8Array> } {
  const { entries, mtimeMs } = readIndex(repo);
  const prefix = repo.location.prefix;
  const head = repo.files(headTree);
  const contents = new Map<string, Uint8Array>();
  const changes: FileChange[] = [];
  const tracked = new Set<string>();
  for (const name of entries.keys()) {
    if (name.startsWith(prefix)) tracked.add(name.slice(prefix.length));
  }
  const untracked = new Set(extra);
  for (const p of head.keys()) tracked.add(p);
  for (const p of extra) tracked.add(p);
  const h = repo.location.hashBytes;
  for (const path of [...tracked].sort()) {
    const before = head.get(path);
    if (before !== undefined && entryKind(before.mode) === "gitlink") continue; // a submodule
    const now = _onDisk(join(root, path), root, entries.get(prefix + path), mtimeMs, maxBytes, h);
    if (now === null) {
      if (before !== undefined) {
        changes.push(_change("deleted", path, before.id, "", before.mode, ""));
      }
      continue;
    }
    if (now.bytes !== undefined) contents.set(path, now.bytes);
    if (before === undefined) {
      if (entries.has(prefix + path) || untracked.has(path)) {
        changes.push(_change("added", path, "", now.id, "", now.mode));
      }
    } else if (before.id !== now.id) {
      changes.push(_change("modified", path, before.id, now.id, before.mode, now.mode));
    }
  }
  return { changes, contents };
}

function _change(
  status: FileChange["status"],
  path: string,
  oldId: string,
  newId: string,
  oldMode: string,
  newMode: string,
): FileChange {
  return { status, path, oldPath: path, oldId, newId, oldMode, newMode };
}

/** A file's blob id on disk (from the index entry when its stat matches), or null when gone. */
function _onDisk(
  path: string,
  root: string,
  entry: _IndexEntry | undefined,
  indexMtimeMs: number,
  maxBytes: number,
  hashBytes: number,
): { id: string; mode: string; bytes?: Uint8Array } | null {
  let st;
  try {
    st = lstatSync(path, { bigint: true });
  } catch {
    return null;
  }
  if (st.isSymbolicLink()) {
    // A symlink's blob is its target text; never followed.
    const target = new TextEncoder().encode(Deno.readLinkSync(path));
    return { id: blobId(target, hashBytes), mode: "120000" };
  }
  if (!st.isFile()) return null;
  const mode = (Number(st.mode) & 0o111) !== 0 ? "100755" : "100644";
  const mtimeSec = Number(st.mtimeNs / 1_000_000_000n);
  const mtimeNsec = Number(st.mtimeNs % 1_000_000_000n);
  const racy = Number(st.mtimeNs / 1_000_000n) >= indexMtimeMs;
  if (
    entry !== undefined && !racy && entry.size === Number(st.size & 0xffffffffn) &&
    entry.mtimeSec === mtimeSec && entry.mtimeNsec === mtimeNsec &&
    entry.ino === Number(st.ino & 0xffffffffn)
  ) {
    return { id: entry.id, mode: entry.mode };
  }
  const bytes = readFileInside(path, root, { maxBytes });
  if (typeof bytes === "string") return null;
  return { id: blobId(bytes, hashBytes), mode, bytes };
}
