/** `invalidate_cache`: delete a repo's index so the next index run is a full rebuild (API.md §1.11). */
import { z } from "zod";
import type { Store } from "../store/store.ts";
import { ToolError } from "../errors.ts";

/** Tool name. */
export const name = "invalidate_cache";

/** Tool description shown to agents. */
export const description =
  "Delete the index of a repository (its SQLite database and everything cached in it). Use when an index is corrupt or stale; the next index_folder or index_repo rebuilds it from scratch.";

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe(
    "Repo id (owner/name or local/<name>-<hash>) or a bare name that identifies one repo",
  ),
});

/** Validated arguments. */
export type InvalidateCacheArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = {
  readOnlyHint: false,
  destructiveHint: true,
  openWorldHint: false,
} as const;

/** What the handler needs. */
export interface InvalidateCacheContext {
  store: Store;
}

/** Delete a repo's index; waits for a running index of that repo to finish first. */
export async function handler(
  ctx: InvalidateCacheContext,
  args: InvalidateCacheArgs,
): Promise<Record<string, unknown>> {
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
