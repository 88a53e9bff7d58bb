/**
 * Where a checkout's git data is, and reading it confined. A hostile repository controls its
 * `.git`: the git directory is found without following a `.git` symlink, a `gitdir:` or
 * `commondir` pointer is followed only to a folder inside the allowed roots, and every file is
 * then read with `readFileInside` — a regular file whose real location is inside its git
 * directory (no symlink out, no FIFO or device), with a size cap. Nothing here runs a program or
 * reads git's configuration beyond the object format.
 */
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { ToolError } from "../../errors.ts";
import { type FileInside, openFileInside, readFileInside } from "../safe_read.ts";
import { isInside } from "../walk.ts";
import { METADATA_CAPS } from "./limits.ts";
import { windowed } from "./pack_windows.ts";

/** Where the git data of a checkout is. */
export interface GitLocation {
  /** The working tree's git directory (`HEAD`, `index`, per-worktree refs). */
  gitDir: string;
  /** The shared git directory (objects, refs, `packed-refs`, `shallow`); `gitDir` unless a worktree. */
  commonDir: string;
  /** The top of the working tree. */
  workTree: string;
  /** The indexed folder relative to the top of the working tree, `""` or ending in `/`. */
  prefix: string;
  /** Bytes of an object id: 20 (SHA-1) or 32 (SHA-256). */
  hashBytes: number;
}

const _decoder = new TextDecoder();

/** Why a file of the git directory was not read, as an error naming it. */
function _refused(path: string, why: string): ToolError {
  return new ToolError(
    "git_unsafe",
    `Refused to read ${path}: ${why}. Git data is read only from regular files inside the repository's git directory; fix the repository (git fsck) or index a clean clone`,
  );
}

/**
 * The bytes of a file of a git directory, or null when it does not exist; an unsafe file (a
 * symlink out, a FIFO, too large) is a `git_unsafe` error naming it.
 */
export function readGitFile(path: string, dir: string, maxBytes: number): Uint8Array | null {
  let r: Uint8Array | string;
  try {
    r = readFileInside(path, dir, { maxBytes });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || (e as { code?: string }).code === "ENOENT") {
      return null;
    }
    if ((e as { code?: string }).code === "ENOTDIR") return null;
    throw _refused(path, e instanceof Error ? e.message : String(e));
  }
  if (typeof r === "string") throw _refused(path, _reason(r, maxBytes));
  return r;
}

/** A text file of a git directory (see {@linkcode readGitFile}). */
export function readGitText(path: string, dir: string, maxBytes: number): string | null {
  const bytes = readGitFile(path, dir, maxBytes);
  return bytes === null ? null : _decoder.decode(bytes);
}

/** Open a large file of a git directory (a pack) for reads by position. */
export function openGitFile(path: string, dir: string): FileInside {
  let r: FileInside | string;
  try {
    r = openFileInside(path, dir, { maxBytes: METADATA_CAPS.pack });
  } catch (e) {
    throw _refused(path, e instanceof Error ? e.message : String(e));
  }
  if (typeof r === "string") throw _refused(path, _reason(r, METADATA_CAPS.pack));
  return windowed(r, { maxBytes: METADATA_CAPS.packInMemory });
}

function _reason(r: string, maxBytes: number): string {
  switch (r) {
    case "symlink":
    case "symlink_escape":
      return "it is a symbolic link";
    case "not_regular":
      return "it is not a regular file (a FIFO, device or folder)";
    default:
      return `it is larger than ${maxBytes} bytes`;
  }
}

/** Whether `path` (real) is inside one of the roots; any path when `roots` is null. */
function _allowed(path: string, roots: readonly string[] | null): boolean {
  return roots === null || roots.some((r) => isInside(r, path));
}

/** The real path of a directory, or null. */
function _realDir(path: string): string | null {
  try {
    const real = Deno.realPathSync(path);
    return Deno.statSync(real).isDirectory ? real : null;
  } catch {
    return null;
  }
}

/**
 * The git data of the checkout holding `root` (absolute, real): its own `.git`, or the nearest
 * one above it while inside the allowed roots (`null`: any folder). Returns why not as a string:
 * no repository, or one whose git directory is out of reach.
 */
export function locateGit(
  root: string,
  allowedRoots: readonly string[] | null,
): GitLocation | string {
  for (let top = root;;) {
    const found = _gitDirAt(top, allowedRoots);
    if (found !== null) {
      if (typeof found === "string") return found;
      const prefix = relative(top, root).split("\\").join("/");
      return { ...found, workTree: top, prefix: prefix === "" ? "" : `${prefix}/` };
    }
    const parent = dirname(top);
    if (parent === top || !_allowed(parent, allowedRoots)) {
      return `${root} is not inside a git repository`;
    }
    top = parent;
  }
}

/** The git directories of a working tree `top`, why not (string), or null when it has no `.git`. */
function _gitDirAt(
  top: string,
  allowedRoots: readonly string[] | null,
): Omit<GitLocation, "workTree" | "prefix"> | string | null {
  const dotGit = join(top, ".git");
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(dotGit);
  } catch {
    return null;
  }
  let gitDir: string;
  if (info.isDirectory) {
    gitDir = dotGit;
  } else if (info.isFile) {
    // A worktree or submodule: ".git" is a file "gitdir: <path>".
    const text = readGitText(dotGit, top, METADATA_CAPS.small) ?? "";
    const m = /^gitdir:[ \t]*(.+?)[ \t]*$/m.exec(text);
    if (m === null) return `${dotGit} is not a "gitdir:" pointer`;
    const target = _realDir(isAbsolute(m[1]!) ? m[1]! : resolve(top, m[1]!));
    if (target === null) return `the git directory ${m[1]} named by ${dotGit} does not exist`;
    if (!_allowed(target, allowedRoots)) {
      return `the git directory ${target} named by ${dotGit} is outside the folders this server may read (CODEMUNCH_ALLOWED_ROOTS)`;
    }
    gitDir = target;
  } else {
    return `${dotGit} is a symbolic link; it is not followed`;
  }
  let commonDir = gitDir;
  const common = readGitText(join(gitDir, "commondir"), gitDir, METADATA_CAPS.small)?.trim();
  if (common !== undefined && common !== "") {
    const target = _realDir(isAbsolute(common) ? common : resolve(gitDir, common));
    if (target === null) return `the common git directory ${common} of ${gitDir} does not exist`;
    if (!_allowed(target, allowedRoots)) {
      return `the common git directory ${target} is outside the folders this server may read (CODEMUNCH_ALLOWED_ROOTS)`;
    }
    commonDir = target;
  }
  const config = readGitText(join(commonDir, "config"), commonDir, 1024 * 1024) ?? "";
  const format = /^\s*objectformat\s*=\s*(\S+)\s*$/im.exec(config)?.[1]?.toLowerCase();
  if (format !== undefined && format !== "sha1" && format !== "sha256") {
    return `the repository uses an unknown object format "${format}"`;
  }
  return { gitDir, commonDir, hashBytes: format === "sha256" ? 32 : 20 };
}
