/**
 * Git objects as records: the bytes of a commit, tree or tag (inflated, without the
 * `<type> <size>\0` header) in, plain records out. Pure functions, no I/O: the reader that finds
 * and inflates the objects is `src/ingest/git/`. A malformed object is a `SyntaxError` naming
 * what is wrong; the reader adds the object's id.
 */

/** The four object types. */
export type GitObjectType = "commit" | "tree" | "blob" | "tag";

/** A person line of a commit or tag (`author`, `committer`, `tagger`). */
export interface GitSignature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  time: number;
  /** Offset as written (`+0200`). */
  tz: string;
}

/** A parsed commit. */
export interface CommitRecord {
  id: string;
  tree: string;
  parents: string[];
  author: GitSignature;
  committer: GitSignature;
  /** The whole message (subject, blank line, body). */
  message: string;
}

/** One entry of a tree. */
export interface TreeEntry {
  /** Octal mode as written (`100644`, `100755`, `120000`, `40000`, `160000`). */
  mode: string;
  name: string;
  id: string;
}

/** A parsed annotated tag. */
export interface TagRecord {
  object: string;
  type: GitObjectType;
  tag: string;
}

/** What a tree entry's mode says it is. */
export type EntryKind = "file" | "symlink" | "tree" | "gitlink";

/** The kind of a tree entry's mode. */
export function entryKind(mode: string): EntryKind {
  if (mode === "40000" || mode === "040000") return "tree";
  if (mode === "160000") return "gitlink";
  if (mode === "120000") return "symlink";
  return "file";
}

const _decoder = new TextDecoder();
const _HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** Lower-case hex of bytes. */
export function toHex(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let s = "";
  for (let i = start; i < end; i++) s += _HEX[bytes[i]!]!;
  return s;
}

/** Bytes of a hex string (even length, validated by the caller). */
export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) {
    out[i] = (_nibble(hex.charCodeAt(2 * i)) << 4) | _nibble(hex.charCodeAt(2 * i + 1));
  }
  return out;
}

/** The value of a hex digit's char code (0-9, a-f, A-F). */
function _nibble(c: number): number {
  return c <= 57 ? c - 48 : (c | 32) - 87;
}

/**
 * The entries of a tree object, in stored order. `hashBytes` is 20 (SHA-1) or 32 (SHA-256).
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { parseTree } from "./objects.ts";
 * const bytes = new Uint8Array([...new TextEncoder().encode("100644 a.txt\0"), ...new Uint8Array(20)]);
 * deepEqual(parseTree(bytes, 20), [{ mode: "100644", name: "a.txt", id: "0".repeat(40) }]);
 * ```
 */
export function parseTree(bytes: Uint8Array, hashBytes: number): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let i = 0;
  while (i < bytes.length) {
    const space = bytes.indexOf(0x20, i);
    const nul = space === -1 ? -1 : bytes.indexOf(0, space);
    if (space === -1 || nul === -1 || nul + 1 + hashBytes > bytes.length || space === i) {
      throw new SyntaxError(`Cannot parse tree: entry at byte ${i} is truncated`);
    }
    const mode = _mode(bytes, i, space);
    if (mode === null) {
      throw new SyntaxError(
        `Cannot parse tree: bad mode "${_decoder.decode(bytes.subarray(i, space))}" at byte ${i}`,
      );
    }
    const name = _name(bytes, space + 1, nul);
    if (name === "" || name === "." || name === ".." || name.includes("/")) {
      throw new SyntaxError(`Cannot parse tree: bad entry name "${name}" at byte ${i}`);
    }
    entries.push({ mode, name, id: toHex(bytes, nul + 1, nul + 1 + hashBytes) });
    i = nul + 1 + hashBytes;
  }
  return entries;
}

/**
 * The entry of a tree object with this name (its UTF-8 bytes), or null: a scan of the bytes that
 * decodes only the entry it returns (a history walk looks up one name per tree level).
 */
export function findTreeEntry(
  bytes: Uint8Array,
  name: Uint8Array,
  hashBytes: number,
): TreeEntry | null {
  let i = 0;
  while (i < bytes.length) {
    const space = bytes.indexOf(0x20, i);
    const nul = space === -1 ? -1 : bytes.indexOf(0, space);
    if (space === -1 || nul === -1 || nul + 1 + hashBytes > bytes.length || space === i) {
      throw new SyntaxError(`Cannot parse tree: entry at byte ${i} is truncated`);
    }
    if (nul - space - 1 === name.length && _sameBytes(bytes, space + 1, name)) {
      const mode = _mode(bytes, i, space);
      if (mode === null) throw new SyntaxError(`Cannot parse tree: bad mode at byte ${i}`);
      return {
        mode,
        name: _name(bytes, space + 1, nul),
        id: toHex(bytes, nul + 1, nul + 1 + hashBytes),
      };
    }
    i = nul + 1 + hashBytes;
  }
  return null;
}

function _sameBytes(bytes: Uint8Array, at: number, name: Uint8Array): boolean {
  for (let k = 0; k < name.length; k++) if (bytes[at + k] !== name[k]) return false;
  return true;
}

/** The modes trees hold, by their bytes: no decoding for the common ones. */
const _MODES = new Map(
  ["100644", "100755", "120000", "40000", "160000", "100664", "040000"].map((
    m,
  ) => [_modeKey(m), m]),
);

function _modeKey(m: string): number {
  let k = 0;
  for (let i = 0; i < m.length; i++) k = k * 8 + m.charCodeAt(i) - 48 + (i === 0 ? 8 : 0);
  return k;
}

/** A tree entry's octal mode (5 or 6 digits), or null when it is none. */
function _mode(bytes: Uint8Array, start: number, end: number): string | null {
  if (end - start < 5 || end - start > 6) return null;
  let k = 0;
  for (let i = start; i < end; i++) {
    const d = bytes[i]! - 48;
    if (d < 0 || d > 7) return null;
    k = k * 8 + d + (i === start ? 8 : 0);
  }
  return _MODES.get(k) ?? _decoder.decode(bytes.subarray(start, end));
}

/** An entry name: ASCII without the decoder's call (most names), UTF-8 otherwise. */
function _name(bytes: Uint8Array, start: number, end: number): string {
  let s = "";
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b >= 0x80) return _decoder.decode(bytes.subarray(start, end));
    s += String.fromCharCode(b);
  }
  return s;
}

/** The header lines of a commit or tag (continuation lines folded) and the message after them. */
function _headers(
  bytes: Uint8Array,
  what: string,
): { headers: [string, string][]; message: string } {
  const text = _decoder.decode(bytes);
  const end = text.indexOf("\n\n");
  const head = end === -1 ? text : text.slice(0, end);
  const headers: [string, string][] = [];
  for (const line of head.split("\n")) {
    if (line.startsWith(" ") && headers.length > 0) {
      const last = headers[headers.length - 1]!;
      last[1] += "\n" + line.slice(1);
      continue;
    }
    const sp = line.indexOf(" ");
    if (sp <= 0) {
      throw new SyntaxError(`Cannot parse ${what}: bad header line "${line.slice(0, 80)}"`);
    }
    headers.push([line.slice(0, sp), line.slice(sp + 1)]);
  }
  return { headers, message: end === -1 ? "" : text.slice(end + 2) };
}

const _SIGNATURE = /^(.*?) ?<([^>]*)> (-?\d+) ([+-]\d{4})$/;

function _signature(value: string | undefined, what: string): GitSignature {
  const m = value === undefined ? null : _SIGNATURE.exec(value);
  if (m === null) {
    // Old or odd commits may lack a time zone or email; keep what is there.
    if (value !== undefined) return { name: value, email: "", time: 0, tz: "+0000" };
    throw new SyntaxError(`Cannot parse ${what}: missing signature`);
  }
  return { name: m[1]!, email: m[2]!, time: Number(m[3]), tz: m[4]! };
}

const _ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * A commit object's fields.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { parseCommit } from "./objects.ts";
 * const t = "a".repeat(40);
 * const c = parseCommit("c".repeat(40), new TextEncoder().encode(
 *   `tree ${t}\nauthor A <a@x> 10 +0000\ncommitter A <a@x> 10 +0000\n\nSubject\n`));
 * equal(c.tree, t);
 * equal(c.message, "Subject\n");
 * ```
 */
export function parseCommit(id: string, bytes: Uint8Array): CommitRecord {
  const { headers, message } = _headers(bytes, "commit");
  let tree: string | undefined;
  const parents: string[] = [];
  let author: string | undefined;
  let committer: string | undefined;
  for (const [key, value] of headers) {
    if (key === "tree") tree ??= value;
    else if (key === "parent") parents.push(value);
    else if (key === "author") author ??= value;
    else if (key === "committer") committer ??= value;
  }
  if (tree === undefined || !_ID.test(tree)) throw new SyntaxError("Cannot parse commit: no tree");
  for (const p of parents) {
    if (!_ID.test(p)) throw new SyntaxError(`Cannot parse commit: bad parent "${p.slice(0, 80)}"`);
  }
  const committed = _signature(committer ?? author, "commit");
  return {
    id,
    tree,
    parents,
    author: author === undefined ? committed : _signature(author, "commit"),
    committer: committed,
    message,
  };
}

/** An annotated tag's target. */
export function parseTag(bytes: Uint8Array): TagRecord {
  const { headers } = _headers(bytes, "tag");
  const get = (k: string) => headers.find(([key]) => key === k)?.[1];
  const object = get("object");
  const type = get("type");
  if (object === undefined || !_ID.test(object)) {
    throw new SyntaxError("Cannot parse tag: no object");
  }
  if (type !== "commit" && type !== "tree" && type !== "blob" && type !== "tag") {
    throw new SyntaxError(`Cannot parse tag: bad type "${type ?? ""}"`);
  }
  return { object, type, tag: get("tag") ?? "" };
}

/** The first line of a commit message. */
export function subjectOf(message: string): string {
  const nl = message.indexOf("\n");
  return (nl === -1 ? message : message.slice(0, nl)).trim();
}

/** ISO 8601 date-time of a signature, in its own time zone (`2024-05-01T12:00:00+02:00`). */
export function isoDate(sig: GitSignature): string {
  const sign = sig.tz.startsWith("-") ? -1 : 1;
  const minutes = sign * (Number(sig.tz.slice(1, 3)) * 60 + Number(sig.tz.slice(3, 5)));
  const local = new Date((sig.time + minutes * 60) * 1000).toISOString().slice(0, 19);
  return `${local}${sig.tz.slice(0, 3)}:${sig.tz.slice(3, 5)}`;
}
