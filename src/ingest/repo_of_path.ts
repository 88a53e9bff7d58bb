/**
 * Which indexed local repo holds a path on disk (resolve_repo, index_file): the index whose
 * folder is the deepest one containing the path. A git worktree of an indexed checkout (its
 * `.git` is a file naming `<main>/.git/worktrees/<name>`) resolves to the main checkout's index
 * when the worktree itself is not indexed.
 *
 * A hostile checkout controls its `.git`: the pointer file and the worktree's `commondir` are
 * read like the git-HEAD reader reads (`readFileInside`: small regular files — no FIFO, no
 * device, no sparse giant — whose real location is inside a root: the worktree's own for its
 * `.git` file, an indexed repo's for `commondir`, since only an indexed main checkout matters).
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Store } from "../store/store.ts";
import { expandHome } from "../store/paths.ts";
import { homeExpander } from "./config.ts";
import { isInside } from "./walk.ts";
import { readFileInside } from "./safe_read.ts";

/** Most bytes of a `.git` pointer file or a `commondir` file. */
const _SMALL = 4096;
const _decoder = new TextDecoder();

/** An indexed local folder. */
export interface IndexedFolder {
  repo: string;
  source_root: string;
}

/** The index that holds a path. */
export interface RepoOfPath {
  /** The repo's id and indexed folder (its other facts: `Store.listRepos`). */
  meta: IndexedFolder;
  /** The path relative to the indexed folder ("" for the folder itself), POSIX separators. */
  relative: string;
  /** The git worktree the path is in, when it resolved through the worktree's main checkout. */
  worktree?: string;
}

/**
 * The absolute, real form of a path: symlinks resolved for the part that exists (a deleted
 * file's folder is still resolved), `~` expanded; relative paths resolve against `cwd`.
 */
export function realAbsolute(path: string, cwd: string, home?: string): string {
  const expanded = expandHome(path.trim(), homeExpander(home));
  let abs = isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(Deno.realPathSync(abs), ...rest);
    } catch (e) {
      if (e instanceof Deno.errors.NotCapable) return join(abs, ...rest);
      const parent = dirname(abs);
      if (parent === abs) return join(abs, ...rest);
      rest.unshift(abs.slice(parent.length).replace(/^[\\/]/, ""));
      abs = parent;
    }
  }
}

/** The indexed local repo holding `absPath` (absolute and real), or null. */
export function repoOfPath(store: Store, absPath: string): RepoOfPath | null {
  const locals = store.sourceRoots().filter((m) => m.source_root !== "");
  const deepest = (p: string) => {
    let best: IndexedFolder | null = null;
    for (const m of locals) {
      if (
        isInside(m.source_root, p) &&
        (best === null || m.source_root.length > best.source_root.length)
      ) {
        best = m;
      }
    }
    return best;
  };
  const direct = deepest(absPath);
  if (direct !== null) return { meta: direct, relative: _rel(direct.source_root, absPath) };
  const wt = _worktree(absPath, (p) => deepest(p)?.source_root ?? null);
  if (wt !== null) {
    const inMain = join(wt.main, relative(wt.root, absPath));
    const main = deepest(inMain);
    if (main !== null) {
      return { meta: main, relative: _rel(main.source_root, inMain), worktree: wt.root };
    }
  }
  return null;
}

/** The git checkout (work tree root) containing a path, if any: where to suggest indexing. */
export function gitRootOf(absPath: string): string | null {
  for (let d = absPath;;) {
    try {
      Deno.lstatSync(join(d, ".git"));
      return d;
    } catch { /* not here */ }
    const parent = dirname(d);
    if (parent === d) return null;
    d = parent;
  }
}

function _rel(root: string, p: string): string {
  return relative(root, p).split(sep).join("/");
}

/** A small regular file's text, read inside `root`; null when it is anything else. */
function _smallText(path: string, root: string): string | null {
  try {
    const r = readFileInside(path, root, { maxBytes: _SMALL });
    return typeof r === "string" ? null : _decoder.decode(r);
  } catch {
    return null;
  }
}

/**
 * A linked worktree holding `absPath`: its root and its main checkout's root. `indexedRoot`
 * gives the indexed repo folder holding a path (the git directory must be inside one).
 */
function _worktree(
  absPath: string,
  indexedRoot: (p: string) => string | null,
): { root: string; main: string } | null {
  const root = gitRootOf(absPath);
  if (root === null) return null;
  try {
    const dotGit = join(root, ".git");
    if (!Deno.lstatSync(dotGit).isFile) return null;
    const pointer = _smallText(dotGit, root);
    const m = pointer === null ? null : /^gitdir:[ \t]*(.+?)[ \t]*$/m.exec(pointer);
    if (m === null) return null;
    const gitDir = realAbsolute(resolve(root, m[1]!), "/");
    // Only a main checkout that is indexed can answer: its folder holds the git directory.
    const inside = indexedRoot(gitDir);
    if (inside === null) return null;
    const commondir = _smallText(join(gitDir, "commondir"), inside);
    // No commondir file: take the layout `<main>/.git/worktrees/<name>`.
    const common = commondir === null
      ? dirname(dirname(gitDir))
      : resolve(gitDir, commondir.trim());
    if (!common.endsWith(`${sep}.git`)) return null;
    const main = dirname(common);
    return main === root ? null : { root, main: realAbsolute(main, "/") };
  } catch {
    return null;
  }
}
