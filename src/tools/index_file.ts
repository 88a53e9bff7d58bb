/**
 * `index_file`: re-index one file of an indexed folder, or add a new one (API.md Part B §7.1),
 * with the same filters as `index_folder` (the ones the folder was indexed with), its AI summary
 * tier, and in one transaction: readers see the old file or the new one, never half of it. A
 * file that is gone, or that a rule now excludes, is removed.
 */
import { z } from "zod";
import { ToolError } from "../errors.ts";
import { realAbsolute, repoOfPath } from "../ingest/repo_of_path.ts";
import type { ToolContext, ToolOutput } from "./context.ts";
import { reindexFiles } from "./reindex.ts";
import { defineTool, type ResponseOf } from "./define.ts";

const _args = {
  path: z.string().describe("Absolute path of the file, inside a folder indexed with index_folder"),
  use_ai_summaries: z.boolean().optional().describe(
    "Summarize undocumented symbols with the configured AI provider (default true)",
  ),
  context_providers: z.boolean().optional().describe("Accepted for compatibility; no effect"),
};

/** Validated arguments. */
export interface IndexFileArgs {
  path: string;
  use_ai_summaries?: boolean | undefined;
  context_providers?: boolean | undefined;
}

const _fields = {
  success: z.boolean().describe("Always true (a failure is an error result)"),
  repo: z.string().describe("The repo the file belongs to"),
  file: z.string().describe("Its repo-relative path"),
  change: z.enum(["added", "changed", "unchanged", "deleted", "skipped"]).describe(
    "What happened to the file's index entry",
  ),
  message: z.string().describe("The change in words (and why a file was skipped)"),
  duration_seconds: z.number().describe("Time the re-index took"),
  symbol_count: z.number().int().optional().describe("Symbols the file has now"),
  warnings: z.array(z.string()).optional().describe("Parse problems of the file, and the run's"),
  ai_summaries: z.record(z.string(), z.unknown()).optional().describe(
    "What the AI summary tier did (provider, model, counts)",
  ),
};

/** The response of index_file. */
export type IndexFileResponse = ResponseOf<typeof _fields>;

const _MESSAGES: Record<string, string> = {
  added: "File added to the index",
  changed: "File re-indexed",
  unchanged: "File unchanged since it was indexed",
  deleted: "File removed from the index",
  skipped: "File not indexed",
};

/** Re-index the file; returns `{success, repo, file, change, duration_seconds, ...}`. */
export async function handler(
  ctx: ToolContext,
  args: IndexFileArgs,
): Promise<ToolOutput<IndexFileResponse>> {
  if (typeof args.path !== "string" || args.path.trim() === "") {
    throw new ToolError("invalid_argument", 'Argument "path" must be a non-empty file path');
  }
  const abs = realAbsolute(args.path, ctx.cwd, ctx.ingest.home);
  const found = repoOfPath(ctx.store, abs);
  if (found === null || found.worktree !== undefined) {
    throw new ToolError(
      "repo_not_found",
      `No indexed folder contains ${abs}: run index_folder on its project folder first (resolve_repo tells which folder holds a path)`,
    );
  }
  if (found.relative === "") {
    throw new ToolError("invalid_argument", `${abs} is an indexed folder: use index_folder`);
  }
  const out = await reindexFiles(ctx, found.meta.source_root, [found.relative], {
    ...(args.use_ai_summaries !== undefined ? { useAiSummaries: args.use_ai_summaries } : {}),
    ...(ctx.onProgress !== undefined ? { onProgress: ctx.onProgress } : {}),
  });
  const f = out.files[0]!;
  if (f.change === "missing") {
    throw new ToolError(
      "file_not_found",
      `File not found: ${abs} is not on disk and not in the index of ${out.repo}`,
    );
  }
  const response: IndexFileResponse = {
    success: true,
    repo: out.repo,
    file: f.path,
    change: f.change,
    message: _MESSAGES[f.change]! + (f.reason !== undefined ? ` (${f.reason})` : ""),
    duration_seconds: Math.round(out.duration_ms) / 1000,
  };
  if (f.symbol_count !== undefined) response.symbol_count = f.symbol_count;
  const warnings = [
    ...(f.parse_warning !== undefined ? [`${f.path}: ${f.parse_warning}`] : []),
    ...out.warnings,
  ];
  if (warnings.length > 0) response.warnings = warnings;
  if (out.ai_summaries !== undefined) response.ai_summaries = out.ai_summaries;
  return { response, repo: out.repo };
}

/** The declaration. */
export const tool = defineTool({
  name: "index_file",
  title: "Re-index a file",
  summary: "re-index one file of an indexed folder now (watch mode does it by itself)",
  description:
    "Re-index one file of an indexed folder after editing, adding or deleting it, so searches see the change at once (much faster than index_folder).",
  repo: "none",
  args: _args,
  output: { fields: _fields },
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  run: handler,
});
