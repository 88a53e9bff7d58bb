/**
 * `index_folder`: index a local folder into the store (API.md §1.2), incrementally by default.
 */
import { z } from "zod";
import type { Store } from "../store/store.ts";
import { DEFAULT_INGEST_CONFIG, type IngestConfig } from "../ingest/config.ts";
// The indexer (walker, parser registry, tree-sitter) is loaded on the first index run, not at
// server start-up: `import type` only here, the module itself in the handler.
import type { FileParser, IndexOutcome, ProgressFn } from "../ingest/index_local.ts";
import type { SummarizerSettings } from "../summarize/config.ts";
import { INDEX_FIELDS, parseIndexArgs, runIndex, withOptionalFacts } from "./index_run.ts";
import { defineTool, type ResponseOf } from "./define.ts";

const _args = {
  path: z.string().describe(
    "Folder to index (absolute, relative or ~/...)",
  ),
  use_ai_summaries: z.boolean().optional().describe(
    "Summarize undocumented symbols with the AI provider, if one is configured (default true)",
  ),
  extra_ignore_patterns: z.array(z.string()).optional().describe(
    "Extra gitignore-style patterns to exclude, relative to the folder",
  ),
  follow_symlinks: z.boolean().optional().describe(
    "Include symlinked files whose target is inside the folder (default false)",
  ),
  incremental: z.boolean().optional().describe(
    "Re-parse only changed files (default true)",
  ),
};

/** Input schema (for direct callers: the CLI, tests). */
export const inputSchema = z.object(_args);

/** Validated arguments. */
export type IndexFolderArgs = z.infer<typeof inputSchema>;

const _fields = {
  ...INDEX_FIELDS,
  folder_path: z.string().describe("The folder indexed (absolute)"),
};

/** The response of index_folder. */
export type IndexFolderResponse = ResponseOf<typeof _fields>;

/** What the handler needs. */
export interface IndexFolderContext {
  store: Store;
  /** Indexing settings. @default DEFAULT_INGEST_CONFIG */
  ingest?: IngestConfig;
  /** A long-lived parser pool; when absent, one is created for the call. */
  parser?: FileParser;
  /** Progress callback (files done of total, last path). */
  onProgress?: ProgressFn;
  /** Base for relative paths. @default Deno.cwd() */
  cwd?: string;
  /** The AI summary tier. @default NO_SUMMARIZER */
  summarizer?: SummarizerSettings;
}

/** Index a folder; returns the response object of API.md §1.2. */
export async function handler(
  ctx: IndexFolderContext,
  args: IndexFolderArgs,
): Promise<IndexFolderResponse> {
  const a = parseIndexArgs(inputSchema, args);
  const { indexLocalFolder } = await import("../ingest/index_local.ts");
  return await runIndex(
    ctx,
    a.use_ai_summaries,
    (parser, summarizer) =>
      indexLocalFolder(ctx.store, ctx.ingest ?? DEFAULT_INGEST_CONFIG, parser, {
        path: a.path,
        ...(a.extra_ignore_patterns !== undefined
          ? { extraIgnorePatterns: a.extra_ignore_patterns }
          : {}),
        ...(a.follow_symlinks !== undefined ? { followSymlinks: a.follow_symlinks } : {}),
        ...(a.incremental !== undefined ? { incremental: a.incremental } : {}),
        ...(ctx.onProgress !== undefined ? { onProgress: ctx.onProgress } : {}),
        ...(ctx.cwd !== undefined ? { cwd: ctx.cwd } : {}),
        ...(summarizer !== undefined ? { summarizer } : {}),
      }),
    (outcome) => indexFolderResponse(outcome, !a.path.startsWith("/") && !a.path.startsWith("~")),
  );
}

/** Shape an index outcome as the API response (full, incremental, or "No changes detected"). */
export function indexFolderResponse(
  o: IndexOutcome,
  relativeInput = false,
): IndexFolderResponse {
  const duration_seconds = Math.round(o.timings.total_ms) / 1000;
  const warnings = [...o.warnings];
  if (relativeInput) warnings.unshift(`Relative path resolved to ${o.folder_path}`);
  const optional = (r: IndexFolderResponse) => withOptionalFacts(o, warnings, r);
  if (o.mode === "unchanged") {
    return optional({
      success: true,
      message: "No changes detected",
      repo: o.repo,
      folder_path: o.folder_path,
      changed: 0,
      new: 0,
      deleted: 0,
      duration_seconds,
    });
  }
  if (o.mode === "incremental") {
    return optional({
      success: true,
      repo: o.repo,
      folder_path: o.folder_path,
      incremental: true,
      changed: o.changed,
      new: o.new,
      deleted: o.deleted,
      symbol_count: o.symbol_count,
      indexed_at: o.indexed_at,
      duration_seconds,
      discovery_skip_counts: o.discovery_skip_counts,
      no_symbols_count: o.no_symbols_count,
      no_symbols_files: o.no_symbols_files,
    });
  }
  return optional({
    success: true,
    repo: o.repo,
    folder_path: o.folder_path,
    indexed_at: o.indexed_at,
    file_count: o.file_count,
    symbol_count: o.symbol_count,
    file_summary_count: o.file_summary_count,
    languages: o.languages,
    files: o.files,
    duration_seconds,
    discovery_skip_counts: o.discovery_skip_counts,
    no_symbols_count: o.no_symbols_count,
    no_symbols_files: o.no_symbols_files,
  });
}

/** The declaration. */
export const tool = defineTool({
  name: "index_folder",
  title: "Index a folder",
  summary: "index a local folder (incremental); returns the repo id",
  description:
    "Index a local folder (incremental; honours .gitignore; skips secrets, binaries, dependency and build folders) so the other tools can query it. Returns the repo id.",
  repo: "none",
  args: _args,
  output: { fields: _fields },
  annotations: { readOnlyHint: false, openWorldHint: false },
  run: async (ctx, args) => {
    const response = await handler({
      store: ctx.store,
      ingest: ctx.ingest,
      parser: ctx.parser(),
      cwd: ctx.cwd,
      summarizer: ctx.summarizer,
      ...(ctx.onProgress !== undefined ? { onProgress: ctx.onProgress } : {}),
    }, args);
    return { response, repo: response.repo };
  },
  // Watch mode follows the folder just indexed (its index records the options it was indexed
  // with); a folder that cannot be watched is named in the warnings.
  afterRun: async (ctx, _args, out) => {
    const warning = await ctx.folderIndexed?.(out.response.folder_path);
    if (warning !== undefined && warning !== null) {
      out.response.warnings = [...(out.response.warnings ?? []), warning];
    }
  },
});
