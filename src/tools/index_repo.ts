/**
 * `index_repo`: index a GitHub repository into the store (API.md §1.1), incrementally by
 * default: an unchanged repository fetches no file, a changed one only its changed blobs.
 */
import { z } from "zod";
import type { Store } from "../store/store.ts";
import { DEFAULT_INGEST_CONFIG, type IngestConfig } from "../ingest/config.ts";
import { DEFAULT_GITHUB_SETTINGS, type GitHubSettings } from "../ingest/github_config.ts";
// The indexer is loaded on the first index run, not at server start-up (see index_folder.ts).
import type { IndexRepoOutcome } from "../ingest/index_github.ts";
import type { FileParser, ProgressFn } from "../ingest/index_local.ts";
import type { SummarizerSettings } from "../summarize/config.ts";
import { INDEX_FIELDS, parseIndexArgs, runIndex, withOptionalFacts } from "./index_run.ts";
import { defineTool, type ResponseOf } from "./define.ts";

const _args = {
  url: z.string().describe(
    "owner/repo or a GitHub URL",
  ),
  ref: z.string().optional().describe(
    "Branch, tag or commit (default: the default branch)",
  ),
  use_ai_summaries: z.boolean().optional().describe(
    "Summarize undocumented symbols with the AI provider, if one is configured (default true)",
  ),
  extra_ignore_patterns: z.array(z.string()).optional().describe(
    "Extra gitignore-style patterns to exclude, relative to the repository root",
  ),
  incremental: z.boolean().optional().describe(
    "Fetch and re-parse only changed files (default true)",
  ),
};

/** Input schema (for direct callers: the CLI, tests). */
export const inputSchema = z.object(_args);

/** Validated arguments. */
export type IndexRepoArgs = z.infer<typeof inputSchema>;

const _fields = {
  ...INDEX_FIELDS,
  ref: z.string().optional().describe("The branch, tag or commit asked for"),
  git_head: z.string().describe("The commit indexed"),
  fetched: z.object({
    method: z.string(),
    requests: z.number().int(),
    files_downloaded: z.number().int(),
  }).describe("How the files were fetched: method (tarball or blobs), requests, files downloaded"),
};

/** The response of index_repo. */
export type IndexRepoResponse = ResponseOf<typeof _fields>;

/** What the handler needs. */
export interface IndexRepoContext {
  store: Store;
  /** @default DEFAULT_INGEST_CONFIG */
  ingest?: IngestConfig;
  /** @default DEFAULT_GITHUB_SETTINGS */
  github?: GitHubSettings;
  /** @default NO_SUMMARIZER */
  summarizer?: SummarizerSettings;
  /** A long-lived parser pool; when absent, one is created for the call. */
  parser?: FileParser;
  onProgress?: ProgressFn;
}

/** Index a repository; returns the response object of API.md §1.1. */
export async function handler(
  ctx: IndexRepoContext,
  args: IndexRepoArgs,
): Promise<IndexRepoResponse> {
  const a = parseIndexArgs(inputSchema, args);
  const { indexGitHubRepo } = await import("../ingest/index_github.ts");
  return await runIndex(
    ctx,
    a.use_ai_summaries,
    (parser, summarizer) =>
      indexGitHubRepo(
        ctx.store,
        ctx.ingest ?? DEFAULT_INGEST_CONFIG,
        ctx.github ?? DEFAULT_GITHUB_SETTINGS,
        parser,
        {
          url: a.url,
          ...(a.ref !== undefined ? { ref: a.ref } : {}),
          ...(a.extra_ignore_patterns !== undefined
            ? { extraIgnorePatterns: a.extra_ignore_patterns }
            : {}),
          ...(a.incremental !== undefined ? { incremental: a.incremental } : {}),
          ...(ctx.onProgress !== undefined ? { onProgress: ctx.onProgress } : {}),
          ...(summarizer !== undefined ? { summarizer } : {}),
        },
      ),
    indexRepoResponse,
  );
}

/** Shape an outcome as the API response (full, incremental, or "No changes detected"). */
export function indexRepoResponse(o: IndexRepoOutcome): IndexRepoResponse {
  const duration_seconds = Math.round(o.timings.total_ms) / 1000;
  const head = {
    success: true,
    repo: o.repo,
    ...(o.ref !== "" ? { ref: o.ref } : {}),
    git_head: o.git_head,
  };
  const optional = (r: IndexRepoResponse) => withOptionalFacts(o, o.warnings, r);
  const fetched = {
    method: o.fetch.method,
    requests: o.fetch.requests,
    files_downloaded: o.fetch.files_downloaded,
  };
  if (o.mode === "unchanged") {
    return optional({
      ...head,
      message: "No changes detected",
      changed: 0,
      new: 0,
      deleted: 0,
      duration_seconds,
      fetched,
    });
  }
  if (o.mode === "incremental") {
    return optional({
      ...head,
      incremental: true,
      changed: o.changed,
      new: o.new,
      deleted: o.deleted,
      symbol_count: o.symbol_count,
      indexed_at: o.indexed_at,
      duration_seconds,
      fetched,
      discovery_skip_counts: o.discovery_skip_counts,
      no_symbols_count: o.no_symbols_count,
      no_symbols_files: o.no_symbols_files,
    });
  }
  return optional({
    ...head,
    indexed_at: o.indexed_at,
    file_count: o.file_count,
    symbol_count: o.symbol_count,
    file_summary_count: o.file_summary_count,
    languages: o.languages,
    files: o.files,
    duration_seconds,
    fetched,
    discovery_skip_counts: o.discovery_skip_counts,
    no_symbols_count: o.no_symbols_count,
    no_symbols_files: o.no_symbols_files,
  });
}

/** The declaration. */
export const tool = defineTool({
  name: "index_repo",
  title: "Index a GitHub repository",
  summary:
    "index a GitHub repository (`owner/repo` or URL, optional `ref`) without a clone; incremental by blob SHA; returns the repo id",
  description:
    "Index a GitHub repository (owner/repo or URL; ref: a branch, tag or commit) incrementally, as index_folder filters; GITHUB_TOKEN for private ones. Returns the repo id.",
  repo: "none",
  args: _args,
  output: { fields: _fields },
  annotations: { readOnlyHint: false, openWorldHint: true },
  run: async (ctx, args) => {
    const response = await handler({
      store: ctx.store,
      ingest: ctx.ingest,
      github: ctx.github,
      summarizer: ctx.summarizer,
      parser: ctx.parser(),
      ...(ctx.onProgress !== undefined ? { onProgress: ctx.onProgress } : {}),
    }, args);
    return { response, repo: response.repo };
  },
});
