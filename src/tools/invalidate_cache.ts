/** `invalidate_cache`: delete a repo's index so the next index run is a full rebuild (API.md §1.11). */
import { z } from "zod";
import type { Store } from "../store/store.ts";
import { ToolError } from "../errors.ts";
import { defineTool, type ResponseOf } from "./define.ts";

/** Validated arguments. */
export interface InvalidateCacheArgs {
  repo: string;
}

const _fields = {
  success: z.boolean().describe("Always true (a failure is an error result)"),
  repo: z.string().describe("The repo id whose index was deleted"),
  message: z.string().describe("What was deleted"),
};

/** The response of invalidate_cache. */
export type InvalidateCacheResponse = ResponseOf<typeof _fields>;

/** What the handler needs. */
export interface InvalidateCacheContext {
  store: Store;
}

/** Delete a repo's index; waits for a running index of that repo to finish first. */
export async function handler(
  ctx: InvalidateCacheContext,
  args: InvalidateCacheArgs,
): Promise<InvalidateCacheResponse> {
  if (typeof args?.repo !== "string" || args.repo.trim() === "") {
    throw new ToolError(
      "invalid_argument",
      'Argument "repo" must be a non-empty string (a repo id from list_repos)',
    );
  }
  let repo: string;
  try {
    repo = ctx.store.resolveRepo(args.repo);
  } catch (e) {
    if (e instanceof ToolError && e.code === "repo_not_found" && args.repo.includes("/")) {
      throw new ToolError(
        "repo_not_found",
        `No index found for ${args.repo.trim()}. Use list_repos to see indexed repositories`,
      );
    }
    throw e;
  }
  const deleted = await ctx.store.deleteRepo(repo);
  if (!deleted) {
    throw new ToolError(
      "repo_not_found",
      `No index found for ${repo}. Use list_repos to see indexed repositories`,
    );
  }
  return { success: true, repo, message: `Index and cached files deleted for ${repo}` };
}

/** The declaration. */
export const tool = defineTool({
  name: "invalidate_cache",
  title: "Delete an index",
  summary: "delete a repo's index",
  description:
    "Delete the index of a repository (its SQLite database and everything cached in it). Use when an index is corrupt or stale; the next index_folder or index_repo rebuilds it from scratch.",
  repo: "required",
  repoDescription:
    "Repo id (owner/name or local/<name>-<hash>) or a bare name that identifies one repo",
  args: {},
  output: { fields: _fields },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  run: async (ctx, args) => {
    const response = await handler(ctx, args);
    return { response, repo: response.repo };
  },
});
