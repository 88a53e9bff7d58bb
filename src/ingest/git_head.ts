/**
 * The `HEAD` commit of a git checkout, read from `.git` directly (no `git` subprocess).
 *
 * A hostile repository controls its `.git`: every file is read with `readFileInside` — a small
 * regular file whose real location is inside the root (no symlink out, no FIFO or device, a few
 * KB at most) — a `gitdir:` pointer must stay inside the root too, and the answer is a commit id
 * or `""` (unknown), never the content of a file. (A worktree or submodule whose git directory
 * lies outside the folder therefore has no known head.)
 */
import { isAbsolute, join, resolve } from "node:path";
import { readFileInside } from "./safe_read.ts";
import { isInside } from "./walk.ts";

/** Most bytes of `HEAD`, a ref or a `.git` pointer file. */
const _SMALL = 4096;
/** Most bytes of `packed-refs`. */
const _PACKED_REFS = 8 * 1024 * 1024;
/** A commit id (SHA-1 or SHA-256). */
const _COMMIT = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** A ref name `HEAD` may point to. */
const _REF = /^refs\/[A-Za-z0-9._\/-]{1,200}$/;

const _decoder = new TextDecoder();

function _read(path: string, root: string, maxBytes: number): string | null {
  try {
    const r = readFileInside(path, root, { maxBytes });
    return typeof r === "string" ? null : _decoder.decode(r);
  } catch {
    return null;
  }
}

/** The git directory of `root`, when it is inside `root`; else null. */
function _gitDir(root: string): string | null {
  const dotGit = join(root, ".git");
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(dotGit);
  } catch {
    return null;
  }
  if (info.isDirectory) return dotGit;
  if (!info.isFile) return null; // a symlink or anything else: not followed
  // A worktree or submodule: ".git" is a file "gitdir: <path>".
  const text = _read(dotGit, root, _SMALL);
  const m = text === null ? null : /^gitdir:[ \t]*(.+?)[ \t]*$/m.exec(text);
  if (m === null) return null;
  const target = isAbsolute(m[1]!) ? m[1]! : resolve(root, m[1]!);
  try {
    const real = Deno.realPathSync(target);
    return isInside(root, real) && Deno.statSync(real).isDirectory ? real : null;
  } catch {
    return null;
  }
}

/**
 * The commit id `HEAD` points to, or `""` when `root` (absolute, real) is not a git checkout we
 * can read safely.
 */
export function readGitHead(root: string): string {
  const gitDir = _gitDir(root);
  if (gitDir === null) return "";
  const head = _read(join(gitDir, "HEAD"), root, _SMALL)?.trim();
  if (head === undefined) return "";
  if (_COMMIT.test(head)) return head;
  const ref = /^ref:[ \t]*(\S+)$/.exec(head)?.[1];
  if (ref === undefined || !_REF.test(ref) || ref.split("/").includes("..")) return "";
  const loose = _read(join(gitDir, ref), root, _SMALL)?.trim();
  if (loose !== undefined) return _COMMIT.test(loose) ? loose : "";
  const packed = _read(join(gitDir, "packed-refs"), root, _PACKED_REFS);
  if (packed === null) return "";
  for (const line of packed.split("\n")) {
    const [sha, name] = line.trim().split(" ");
    if (name === ref && sha !== undefined) return _COMMIT.test(sha) ? sha : "";
  }
  return "";
}
