/**
 * `resolve_repo`: which indexed repo holds a path on disk (API.md Part B §7.1b) — a repo root, a
 * git worktree of an indexed checkout, a subdirectory or a file.
 */
import { z } from "zod";
import { isAbsolute, resolve } from "node:path";
import { gitRootOf, realAbsolute, repoOfPath } from "../ingest/repo_of_path.ts";
import { isInside } from "../ingest/walk.ts";
import { expandHome } from "../store/paths.ts";
import { homeExpander } from "../ingest/config.ts";
import { ToolError } from "../errors.ts";
import type { ToolContext, ToolOutput } from "./context.ts";
import { defineTool, type ResponseOf } from "./define.ts";

const _args = {
  path: z.string().describe(
    "Absolute path of a repo root, worktree, subdirectory or file (~ is expanded)",
  ),
};

/** Validated arguments. */
export interface ResolveRepoArgs {
  path: string;
}

const _fields = {
  indexed: z.boolean().describe("Whether an indexed repo holds the path"),
  repo: z.string().optional().describe("The repo id (when indexed)"),
  source_root: z.string().optional().describe("The indexed folder"),
  indexed_at: z.string().optional().describe("When it was last indexed"),
  display_name: z.string().optional().describe("Short name of the repo"),
  file_count: z.number().int().optional().describe("Files in the index"),
  symbol_count: z.number().int().optional().describe("Symbols in the index"),
  relative_path: z.string().optional().describe("The path relative to the repo root"),
  worktree: z.string().optional().describe(
    "The git worktree the path is in, when not the main checkout",
  ),
  note: z.string().optional().describe("How a worktree is answered"),
  path: z.string().optional().describe("The absolute path asked about (when not indexed)"),
  message: z.string().optional().describe("Why it is not indexed and what to run"),
  suggested_folder: z.string().optional().describe("The folder to pass to index_folder"),
};

/** The response of resolve_repo. */
export type ResolveRepoResponse = ResponseOf<typeof _fields>;

/** The repo holding the path (`{repo, source_root, indexed_at, ...}`), or `{indexed: false, ...}`. */
export function handler(ctx: ToolContext, args: ResolveRepoArgs): ToolOutput<ResolveRepoResponse> {
  if (typeof args.path !== "string" || args.path.trim() === "") {
    throw new ToolError("invalid_argument", 'Argument "path" must be a non-empty path');
  }
  _refuseOutside(ctx, args.path);
  const abs = realAbsolute(args.path, ctx.cwd, ctx.ingest.home);
  _refuseOutside(ctx, abs);
  const found = repoOfPath(ctx.store, abs);
  if (found === null) {
    const suggest = gitRootOf(abs) ?? abs;
    return {
      response: {
        indexed: false,
        path: abs,
        message:
          `Not indexed: no indexed folder contains ${abs}. Run index_folder with path "${suggest}" to index it`,
        suggested_folder: suggest,
      },
    };
  }
  const m = ctx.store.listRepos().repos.find((r) => r.repo === found.meta.repo);
  if (m === undefined) {
    throw new ToolError("repo_not_found", `The index of ${found.meta.repo} cannot be read now`);
  }
  const response: ResolveRepoResponse = {
    indexed: true,
    repo: m.repo,
    source_root: m.source_root,
    indexed_at: m.indexed_at,
    display_name: m.display_name,
    file_count: m.file_count,
    symbol_count: m.symbol_count,
  };
  if (found.relative !== "") response.relative_path = found.relative;
  if (found.worktree !== undefined) {
    response.worktree = found.worktree;
    response.note =
      `${found.worktree} is a git worktree of ${m.source_root}: answers come from the main checkout's index; run index_folder on the worktree to index it separately`;
  }
  return { response, repo: m.repo };
}

/**
 * Refuse a path outside the allowed roots and every indexed folder (as given, and once real):
 * an answer about it — where `/proc/self/cwd` leads, whether a folder has `.git` — would tell
 * what the server may not read.
 */
function _refuseOutside(ctx: ToolContext, path: string): void {
  const expanded = expandHome(path.trim(), homeExpander(ctx.ingest.home));
  const abs = isAbsolute(expanded) ? resolve(expanded) : resolve(ctx.cwd, expanded);
  const roots = ctx.ingest.allowedRoots;
  if (roots === null || roots.some((r) => isInside(r, abs))) return;
  const indexed = ctx.store.listRepos().repos.some((m) =>
    m.source_root !== "" && isInside(m.source_root, abs)
  );
  if (indexed) return;
  throw new ToolError(
    "path_outside_allowed_roots",
    `Cannot resolve "${abs}": it is outside the allowed roots (${
      roots.length === 0 ? "none" : roots.join(", ")
    }) and every indexed folder. Add it to CODEMUNCH_ALLOWED_ROOTS and restart the server`,
  );
}

/** The declaration. */
export const tool = defineTool({
  name: "resolve_repo",
  title: "Resolve a path to a repo",
  summary:
    "the indexed repo id of a path (repo root, subdirectory, file or git worktree), or how to index it",
  description:
    "Find the repo id for a path on disk (repo root, worktree, subfolder or file), or which folder to pass to index_folder.",
  repo: "none",
  args: _args,
  output: { fields: _fields },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
