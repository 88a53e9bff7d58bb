/**
 * Which indexed local repo holds a path on disk (resolve_repo, index_file): the index whose
 * folder is the deepest one containing the path. A git worktree of an indexed checkout (its
 * `.git` is a file naming `<main>/.git/worktrees/<name>`) resolves to the main checkout's index
 * when the worktree itself is not indexed.
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Store } from "../store/store.ts";
import type { RepoMeta } from "../store/repo_index.ts";
import { expandHome } from "../store/paths.ts";
import { isInside } from "./walk.ts";

/** The index that holds a path. */
export interface RepoOfPath {
  meta: RepoMeta;
  /** The path relative to the indexed folder ("" for the folder itself), POSIX separators. */
  relative: string;
  /** The git worktree the path is in, when it resolved through the worktree's main checkout. */
  worktree?: string;
}

/**
 * The absolute, real form of a path: symlinks resolved for the part that exists (a deleted
 * file's folder is still resolved), `~` expanded; relative paths resolve against `cwd`.
 */
export function realAbsolute(path: string, cwd: string): string {
  const expanded = expandHome(path.trim(), (n) => Deno.env.get(n));
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
  const locals = store.listRepos().repos.filter((m) => m.source_root !== "");
  const deepest = (p: string) => {
    let best: RepoMeta | null = null;
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
  const wt = _worktree(absPath);
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

/** A linked worktree holding `absPath`: its root and its main checkout's root. */
function _worktree(absPath: string): { root: string; main: string } | null {
  const root = gitRootOf(absPath);
  if (root === null) return null;
  try {
    const dotGit = join(root, ".git");
    if (!Deno.statSync(dotGit).isFile) return null;
    const m = /^gitdir:\s*(.+)\s*$/m.exec(Deno.readTextFileSync(dotGit));
    if (m === null) return null;
    const gitDir = resolve(root, m[1]!.trim());
    let common: string;
    try {
      common = resolve(gitDir, Deno.readTextFileSync(join(gitDir, "commondir")).trim());
    } catch {
      // No commondir file: take the layout `<main>/.git/worktrees/<name>`.
      common = dirname(dirname(gitDir));
    }
    if (!common.endsWith(`${sep}.git`)) return null;
    const main = dirname(common);
    return main === root ? null : { root, main: realAbsolute(main, "/") };
  } catch {
    return null;
  }
}
