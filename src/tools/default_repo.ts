/**
 * The repo of a call that left `repo` out (issue 28: "`repo` may be omitted, as in the CLI"):
 * the repo holding an absolute path argument (`file_path`, `file_paths`; those paths become
 * repo-relative), else the only indexed repo, else the indexed folder holding the server's
 * working folder (the innermost), else the indexed folder holding the only allowed root. Anything
 * else is ambiguous and fails with the candidates, so a call never lands on a repo the agent did
 * not mean. Only tools declared with `repo: "optional"` get here (never `invalidate_cache`).
 *
 * @module
 */
import { isAbsolute } from "node:path";
import { realAbsolute, repoOfPath } from "../ingest/repo_of_path.ts";
import { DetailedToolError } from "../errors.ts";
import type { ToolContext } from "./context.ts";

/** Most candidates an ambiguity error names. */
const _MAX_CANDIDATES = 10;

/** Arguments that carry paths an agent may give absolute. */
const _PATH_ARGS = ["file_path", "file_paths"] as const;

/** The arguments with `repo` filled in (and absolute paths of that repo made relative). */
export function withDefaultRepo(
  ctx: ToolContext,
  tool: string,
  args: Record<string, unknown>,
): Record<string, unknown> {
  const fromPaths = _repoOfPathArgs(ctx, args);
  if (fromPaths !== null) return { ...args, ...fromPaths.rewritten, repo: fromPaths.repo };
  const repos = ctx.store.repoIds();
  if (repos.length === 1) return { ...args, repo: repos[0]! };
  if (repos.length === 0) {
    throw new DetailedToolError(
      "repo_not_found",
      `${tool} needs a repo and none is indexed yet: run index_folder with a folder path first`,
      { repos: [] },
    );
  }
  const here = _repoHolding(ctx, ctx.cwd);
  if (here !== null) return { ...args, repo: here };
  const roots = ctx.ingest.allowedRoots;
  const root = roots !== null && roots.length === 1 ? _repoHolding(ctx, roots[0]!) : null;
  if (root !== null) return { ...args, repo: root };
  const listed = repos.slice(0, _MAX_CANDIDATES);
  const more = repos.length > listed.length ? ` and ${repos.length - listed.length} more` : "";
  throw new DetailedToolError(
    "repo_ambiguous",
    `${tool} was called without repo, ${repos.length} repos are indexed and none holds the server's folder (${ctx.cwd}): pass repo, one of ${
      listed.join(", ")
    }${more} (see list_repos)`,
    { candidates: listed },
  );
}

/** The indexed repo holding a folder or file on disk, or null. */
function _repoHolding(ctx: ToolContext, path: string): string | null {
  return repoOfPath(ctx.store, realAbsolute(path, ctx.cwd, ctx.ingest.home))?.meta.repo ?? null;
}

/**
 * The one repo the absolute path arguments lie in, with those paths made relative to it; null
 * when no argument is an absolute path in an indexed folder. Paths in two repos are ambiguous.
 */
function _repoOfPathArgs(
  ctx: ToolContext,
  args: Record<string, unknown>,
): { repo: string; rewritten: Record<string, unknown> } | null {
  const found = new Map<string, string>();
  const resolveOne = (p: unknown): unknown => {
    if (typeof p !== "string" || !isAbsolute(p)) return p;
    const hit = repoOfPath(ctx.store, realAbsolute(p, ctx.cwd, ctx.ingest.home));
    if (hit === null || hit.worktree !== undefined) return p;
    found.set(hit.meta.repo, hit.meta.source_root);
    return hit.relative;
  };
  const rewritten: Record<string, unknown> = {};
  for (const key of _PATH_ARGS) {
    const v = args[key];
    if (v === undefined) continue;
    rewritten[key] = Array.isArray(v) ? v.map(resolveOne) : resolveOne(v);
  }
  if (found.size === 0) return null;
  if (found.size > 1) {
    const repos = [...found.keys()];
    throw new DetailedToolError(
      "repo_ambiguous",
      `The paths given lie in ${repos.length} indexed repos (${
        repos.join(", ")
      }): pass repo and paths of that repo`,
      { candidates: repos },
    );
  }
  return { repo: [...found.keys()][0]!, rewritten };
}
