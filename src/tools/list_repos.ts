/** `list_repos`: the indexed repositories (API.md §1.3). */
import { z } from "zod";
import type { Store } from "../store/store.ts";
import { defineTool, type ResponseOf, rows } from "./define.ts";
import { countsText } from "./rows.ts";

const _fields = {
  count: z.number().int().describe("Number of indexed repos"),
  repos: rows({
    repo: z.string().describe("Repo id to pass to other tools"),
    indexed_at: z.string().describe("When it was last indexed (ISO 8601)"),
    symbol_count: z.number().int().describe("Symbols in the index"),
    file_count: z.number().int().describe("Files in the index"),
    languages: z.string().describe('Files per language, largest first: "python:859 html:123"'),
    index_version: z.number().int().describe("Index schema version"),
    git_head: z.string().describe("Git commit indexed (empty when not a git checkout)"),
    display_name: z.string().describe("Short name (the folder or repository name)"),
    source_root: z.string().describe("Folder or URL it was indexed from"),
  }).describe("One row per repo, sorted by repo id"),
  warnings: z.array(z.string()).optional().describe("Indexes that cannot be read, and why"),
};

/** The response of list_repos. */
export type ListReposResponse = ResponseOf<typeof _fields>;

/** What the handler needs. */
export interface ListReposContext {
  store: Store;
}

/** List every indexed repo, sorted by repo id. */
export function handler(
  ctx: ListReposContext,
  _args: Record<string, never> = {},
): ListReposResponse {
  const { repos, unreadable } = ctx.store.listRepos();
  const response: ListReposResponse = {
    count: repos.length,
    repos: repos.map((m) => ({
      repo: m.repo,
      indexed_at: m.indexed_at,
      symbol_count: m.symbol_count,
      file_count: m.file_count,
      // One string (`python:859 html:123`), not an object: each repo stays one table row.
      languages: countsText(m.languages),
      index_version: m.index_version,
      git_head: m.git_head,
      display_name: m.display_name,
      source_root: m.source_root,
    })),
  };
  if (unreadable.length > 0) {
    response.warnings = unreadable.map((u) => `Index of ${u.repo} cannot be read: ${u.error}`);
  }
  return response;
}

/** The declaration. */
export const tool = defineTool({
  name: "list_repos",
  title: "List repos",
  summary: "list indexed repos and their ids — start here",
  description:
    "List indexed repos: repo id, file and symbol counts, languages, when indexed. START HERE to find the repo id other tools need.",
  repo: "none",
  args: {},
  output: { fields: _fields },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: (ctx) => ({ response: handler(ctx) }),
});
