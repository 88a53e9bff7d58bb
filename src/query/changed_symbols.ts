/**
 * The symbols a change touched: between two commits, or the working tree against one. Each
 * changed file is parsed on both sides (the same extractor as the index), its lines diffed as
 * git diffs them (`src/parser/git/line_diff.ts`), and each symbol is classed: `added`, `removed`,
 * `modified` (a hunk touches its lines and its source differs; `signature_changed` tells a new
 * signature from a body-only edit), or `renamed` (same kind and source but for the name).
 */
import { parseSource } from "../parser/parse.ts";
import { diffLines, type Hunk, splitLines } from "../parser/git/line_diff.ts";
import type { FileChange, GitHistory } from "../parser/git/history.ts";
import type { BlobSymbols } from "../parser/git/blob_symbols.ts";
import type { ParseResult, SymbolRecord } from "../parser/types.ts";
import { languageForPath } from "../parser/registry.ts";
import { REDACTED_MARK } from "../parser/secrets.ts";
import { sha256Hex } from "../parser/ids.ts";
import { pairSymbols } from "./symbol_pairs.ts";

/** What {@linkcode symbolsFromIndex} reads of an index. */
export interface IndexedFiles {
  /**
   * The indexed file's size (most versions asked about differ in it) and the SHA-256 of the bytes
   * it was parsed from (`FileEntry.hash`).
   */
  file(path: string): { size: number; hash: string } | undefined;
  symbolsOfFile(path: string): SymbolRecord[];
}

/** How a symbol changed. */
export type SymbolChangeKind = "added" | "removed" | "modified" | "renamed";

/** One changed symbol. */
export interface SymbolChange {
  change: SymbolChangeKind;
  /** The symbol on the new side (the old one for `removed`). */
  symbol: SymbolRecord;
  /** The symbol on the old side, for `modified` and `renamed`. */
  previous: SymbolRecord | null;
  /** Changed lines, 1-based inclusive, in the new file's numbering (the old one for `removed`). */
  lines: [number, number][];
  /** For `modified`: whether the declaration (signature) changed, not only the body. */
  signatureChanged: boolean;
}

/** A changed file that was not compared symbol by symbol, and why. */
export interface SkippedFile {
  path: string;
  reason: string;
}

/** The result of {@linkcode changedSymbols}. */
export interface ChangedSymbols {
  files: FileChange[];
  symbols: SymbolChange[];
  skipped: SkippedFile[];
}

/** How {@linkcode changedSymbols} reads the symbols of a file version. */
export interface ChangedSymbolsOptions {
  /**
   * Parse a file version (only its symbols are read: a parser may skip imports and calls, and
   * the complexity of the old side's, which nothing reads: `complexity` is false for it).
   * @default in this thread, symbols only (`parseSource` with `symbolsOnly`)
   */
  parse?: (path: string, bytes: Uint8Array, complexity: boolean) => Promise<ParseResult>;
  /**
   * The symbols already known for exactly these bytes (the index's, when they are the indexed
   * file's), or undefined to parse them.
   * @default none known
   */
  known?: (path: string, bytes: Uint8Array) => SymbolRecord[] | undefined;
  /**
   * Where parsed symbols are remembered by blob id.
   * @default the history's own (`GitHistory.blobSymbols`)
   */
  memo?: BlobSymbols;
}

/** Most files compared at once (their parses run in parallel when `parse` is a worker pool). */
const _IN_FLIGHT = 16;

const _decoder = new TextDecoder();

/**
 * The symbols changed between `from` and `to` (a commit id, or null for the working tree),
 * reading at most the history's `maxFiles` changed files.
 */
export async function changedSymbols(
  history: GitHistory,
  from: string,
  to: string | null,
  untracked: readonly string[],
  options: ChangedSymbolsOptions = {},
): Promise<ChangedSymbols> {
  let files: FileChange[];
  let worktree: Map<string, Uint8Array> | null = null;
  if (to === null) {
    const diff = history.worktreeDiff(from, untracked);
    files = diff.changes;
    worktree = diff.contents;
  } else {
    files = history.diffTrees(history.folderTree(from), history.folderTree(to));
  }
  const perFile: Promise<SymbolChange[]>[] = [];
  const skipped: SkippedFile[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let read = 0;
  for (const f of files) {
    if (languageForPath(f.path) === undefined && languageForPath(f.oldPath) === undefined) continue;
    if (f.oldMode.startsWith("160") || f.newMode.startsWith("160")) {
      skipped.push({
        path: f.path,
        reason: "submodule (gitlink): its history is another repository's",
      });
      continue;
    }
    if (++read > history.limits.maxFiles) {
      skipped.push({
        path: f.path,
        reason: `over CODEMUNCH_HISTORY_MAX_FILES (${history.limits.maxFiles}) changed files`,
      });
      continue;
    }
    const oldBytes = f.oldId === "" ? null : _blob(history, f.oldId, f.oldPath, skipped);
    const newBytes = f.newId === ""
      ? null
      : worktree?.get(f.path) ?? _blob(history, f.newId, f.path, skipped);
    if ((f.oldId !== "" && oldBytes === null) || (f.newId !== "" && newBytes === null)) continue;
    const job = fileSymbolChanges(
      { path: f.oldPath, bytes: oldBytes, blobId: f.oldId },
      { path: f.path, bytes: newBytes, blobId: f.newId },
      { ...options, memo: options.memo ?? history.blobSymbols },
    );
    perFile.push(job);
    inFlight.add(job);
    job.finally(() => inFlight.delete(job)).catch(() => {});
    if (inFlight.size >= _IN_FLIGHT) await Promise.race(inFlight);
  }
  return { files, symbols: (await Promise.all(perFile)).flat(), skipped };
}

function _blob(
  history: GitHistory,
  id: string,
  path: string,
  skipped: SkippedFile[],
): Uint8Array | null {
  try {
    return history.read(id, "blob");
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "git_object_too_large") {
      skipped.push({ path, reason: (e as Error).message });
      return null;
    }
    throw e;
  }
}

/** One side of a changed file: its bytes (null: the side does not exist) and blob id. */
export interface FileVersion {
  path: string;
  bytes: Uint8Array | null;
  /** The git blob id of the bytes (`""`: none, nothing is remembered). */
  blobId: string;
}

/**
 * The symbol changes of one file between two versions. A side's symbols are the known ones
 * (the index's), else those remembered for its blob, else parsed (and remembered unless the
 * parse was skipped: a timeout is no property of the bytes).
 */
export async function fileSymbolChanges(
  before: FileVersion,
  after: FileVersion,
  options: ChangedSymbolsOptions = {},
): Promise<SymbolChange[]> {
  const symbolsOf = async ({ path, bytes, blobId }: FileVersion, complexity: boolean) => {
    if (bytes === null) return [];
    const known = options.known?.(path, bytes);
    if (known !== undefined) return known;
    const memo = blobId === "" ? undefined : options.memo;
    const remembered = memo?.get(blobId, path, complexity);
    if (remembered !== undefined) return remembered;
    const parsed = await (options.parse ?? _parseSymbols)(path, bytes, complexity);
    if (parsed.status !== "skipped") memo?.set(blobId, path, parsed.symbols, complexity);
    return parsed.symbols;
  };
  // The old side's complexity is read by no one (a change's risk is its new side's).
  const [old, now] = await Promise.all([symbolsOf(before, false), symbolsOf(after, true)]);
  return classifySymbols(before.bytes, after.bytes, old, now);
}

function _parseSymbols(
  path: string,
  bytes: Uint8Array,
  complexity: boolean,
): Promise<ParseResult> {
  return parseSource(path, bytes, undefined, { symbolsOnly: true, complexity });
}

/** Two versions of a file and their line diff, for classing its symbols. */
interface _Versions {
  oldBytes: Uint8Array | null;
  newBytes: Uint8Array | null;
  hunks: Hunk[];
}

/**
 * The changes of a file's symbols, given its two versions (null: absent) and the symbols of each:
 * pairs of the same symbol that the diff touches and whose lines differ are `modified`; the
 * symbols left over are `renamed`, `added` or `removed`.
 */
export function classifySymbols(
  oldBytes: Uint8Array | null,
  newBytes: Uint8Array | null,
  before: readonly SymbolRecord[],
  after: readonly SymbolRecord[],
): SymbolChange[] {
  const oldLines = splitLines(oldBytes === null ? "" : _decoder.decode(oldBytes));
  const newLines = splitLines(newBytes === null ? "" : _decoder.decode(newBytes));
  const v: _Versions = { oldBytes, newBytes, hunks: diffLines(oldLines, newLines) };
  const { pairs, removed, added } = pairSymbols(before, after, v.hunks);
  const out: SymbolChange[] = [];
  for (const [old, s] of pairs) {
    const modified = _modified(v, old, s);
    if (modified !== null) out.push(modified);
  }
  const unmatched = new Set(removed);
  for (const s of added) {
    const change = _addedOrRenamed(v, s, unmatched);
    if (change !== null) out.push(change);
  }
  for (const r of unmatched) {
    out.push({
      change: "removed",
      symbol: r,
      previous: null,
      lines: [[r.line, r.end_line]],
      signatureChanged: false,
    });
  }
  return out;
}

/**
 * A pair as `modified` when a hunk touches its lines (the lines git diff shows changed: an
 * `export` dropped changes the line, not the symbol's bytes; a symbol moved within its file is
 * deleted and inserted whole though its text is the same), else null. The lines are the new
 * side's (an edit of the old side alone — a deletion at its end — counts at its last line).
 */
function _modified(v: _Versions, old: SymbolRecord, s: SymbolRecord): SymbolChange | null {
  let lines = touchedLines(v.hunks, s.line, s.end_line, "new");
  if (lines.length === 0 && touchedLines(v.hunks, old.line, old.end_line, "old").length > 0) {
    lines = [[s.end_line, s.end_line]];
  }
  if (lines.length === 0) return null;
  return {
    change: "modified",
    symbol: s,
    previous: old,
    lines,
    signatureChanged: old.signature !== s.signature,
  };
}

/**
 * A new symbol without a partner of its qualified name: the same symbol moved with its parent
 * or to another (same name, kind and bytes: `modified` when the diff touches it, else null — a
 * nested function of a renamed one, its own lines untouched), a renamed one
 * (same kind, its source equal once the name is put back), or an added one. Its old partner
 * leaves `unmatched`.
 */
function _addedOrRenamed(
  v: _Versions,
  s: SymbolRecord,
  unmatched: Set<SymbolRecord>,
): SymbolChange | null {
  const moved = [...unmatched].find((r) =>
    r.kind === s.kind && r.name === s.name && r.content_hash === s.content_hash
  );
  if (moved !== undefined) {
    unmatched.delete(moved);
    return _modified(v, moved, s);
  }
  const src = _text(v.newBytes!, s);
  const was = [...unmatched].find((r) =>
    r.kind === s.kind && r.name !== s.name &&
    _text(v.oldBytes!, r).split(r.name).join(s.name) === src
  );
  if (was !== undefined) {
    unmatched.delete(was);
    return {
      change: "renamed",
      symbol: s,
      previous: was,
      lines: touchedLines(v.hunks, s.line, s.end_line, "new"),
      signatureChanged: true,
    };
  }
  return {
    change: "added",
    symbol: s,
    previous: null,
    lines: [[s.line, s.end_line]],
    signatureChanged: false,
  };
}

function _text(bytes: Uint8Array, s: SymbolRecord): string {
  return _decoder.decode(bytes.subarray(s.byte_offset, s.byte_offset + s.byte_length));
}

/**
 * The lines of `[start, end]` (1-based inclusive) that hunks change on one side: changed lines
 * inside the span, and a deletion strictly inside it as the line after it (as `git log -L` counts
 * a touch).
 */
export function touchedLines(
  hunks: readonly Hunk[],
  start: number,
  end: number,
  side: "old" | "new",
): [number, number][] {
  const out: [number, number][] = [];
  for (const h of hunks) {
    const first = side === "new" ? h.newStart : h.oldStart;
    const count = side === "new" ? h.newCount : h.oldCount;
    if (count === 0) {
      // Lines were removed after line `first` (this side's numbering).
      if (first >= start && first < end) out.push([first + 1, first + 1]);
      continue;
    }
    const s = Math.max(first, start);
    const e = Math.min(first + count - 1, end);
    if (s <= e) out.push([s, e]);
  }
  return out;
}

/**
 * The index's symbols of a file when `bytes` are exactly the indexed file's (what the parser made
 * of those bytes, stored), for {@linkcode ChangedSymbolsOptions.known}: the side of a change that
 * is the indexed state is not parsed again. Not when a stored signature was redacted (it would
 * read as a changed one): only a signature holding a secret is, and it says so. (The cheap
 * `hasSecretHint` first check was used before; it holds for nearly every source file — `key`,
 * `token` — so the index side was parsed again for 621 of 635 files of a 100-commit range.)
 */
export function symbolsFromIndex(
  index: IndexedFiles,
): (path: string, bytes: Uint8Array) => SymbolRecord[] | undefined {
  return (path, bytes) => {
    const file = index.file(path);
    // The hash, not the stored bytes: reading them back from the store cost more than hashing.
    if (file === undefined || file.size !== bytes.length || sha256Hex(bytes) !== file.hash) {
      return undefined;
    }
    const symbols = index.symbolsOfFile(path);
    // A source holding the mark itself is parsed again too: the same symbols, only slower.
    if (symbols.some((s) => s.signature.includes(REDACTED_MARK))) return undefined;
    return symbols;
  };
}
