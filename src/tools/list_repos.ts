/** `list_repos`: the indexed repositories (API.md §1.3). */
import { z } from "zod";
import type { Store } from "../store/store.ts";
import { countsText } from "./rows.ts";

/** Tool name. */
export const name = "list_repos";

/** Tool description shown to agents. */
export const description =
  "List indexed repositories with their repo ids, file and symbol counts, languages and when they were indexed. START HERE to find the repo id other tools need.";

/** Input schema (no arguments). */
export const inputSchema = z.object({});

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

/** What the handler needs. */
export interface ListReposContext {
  store: Store;
}

/** List every indexed repo, sorted by repo id. */
export function handler(
  ctx: ListReposContext,
  _args: Record<string, never> = {},
): Record<string, unknown> {
  const { repos, unreadable } = ctx.store.listRepos();
  const response: Record<string, unknown> = {
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
