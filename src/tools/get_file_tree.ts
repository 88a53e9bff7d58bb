/**
 * `get_file_tree`: the files of an indexed repo, optionally under a prefix (API.md §1.4), as one
 * flat list of file rows sorted by path rather than the reference's nested folder nodes.
 */
import { z } from "zod";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { oneLine } from "../query/one_line.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, rows } from "./define.ts";

const _args = {
  path_prefix: z.string().optional().describe(
    'Only paths starting with this text, e.g. "src/api"',
  ),
  include_summaries: z.boolean().optional().describe("Add each file's one-line summary"),
  max_files: z.number().int().min(1).max(100_000).optional().describe(
    "Most files listed (default 500)",
  ),
};

/** Validated arguments. */
export type GetFileTreeArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  path_prefix: z.string().describe("The prefix asked for (empty: every file)"),
  files: rows({
    path: z.string().describe("Repo-relative path"),
    language: z.string().describe("Language id"),
    symbol_count: z.number().int().describe("Symbols in the file"),
    summary: z.string().optional().describe("One-line summary (include_summaries)"),
  }).describe("One row per file, sorted by path"),
};

const _meta = {
  file_count: z.number().int().describe("Files listed"),
  total_file_count: z.number().int().describe("Files under the prefix (when cut)"),
  truncated: META.truncated,
  hint: META.hint,
};

type _Response = ResponseOf<typeof _fields>;

/**
 * The files under `path_prefix` as rows `{path, language, symbol_count, summary?}`, sorted by
 * path (folders are the path's leading segments: a flat list is one table in JSON and in MUNCH
 * v1, where the legend writes each repeated folder once).
 */
export function handler(
  ctx: ToolContext,
  args: GetFileTreeArgs,
): ToolOutput<_Response, MetaOf<typeof _meta>> {
  const { repo, index } = openRepo(ctx, args.repo);
  const prefix = args.path_prefix ?? "";
  const maxFiles = args.max_files ?? 500;
  const matching = index.listFiles().filter((f) => f.path.startsWith(prefix))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const shown = matching.slice(0, maxFiles);
  let rawBytes = 0;
  const files = shown.map((f) => {
    // A listing stands in for a listing of the paths (`find`), not for reading the files.
    rawBytes += f.path.length + 1;
    const row: _Response["files"][number] = {
      path: f.path,
      language: f.language,
      symbol_count: f.symbol_count,
    };
    if (args.include_summaries) row.summary = oneLine(f.summary);
    return row;
  });
  const truncated = shown.length < matching.length;
  const meta: MetaOf<typeof _meta> = { file_count: shown.length, truncated };
  if (truncated) {
    meta.total_file_count = matching.length;
    meta.hint =
      `Showing ${shown.length} of ${matching.length} files: narrow with path_prefix or raise max_files (up to ${matching.length})`;
  } else if (matching.length === 0) {
    meta.hint = prefix === ""
      ? "The repo has no indexed files"
      : `No indexed path starts with "${prefix}": call get_file_tree without path_prefix to see the top level`;
  }
  return { response: { repo, path_prefix: prefix, files }, rawBytes, repo, meta };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_file_tree",
  title: "File tree",
  summary:
    "the repo's files as rows (path, language, symbol count), optionally under `path_prefix`",
  description:
    "List a repo's files (path, language, symbol count), optionally under path_prefix, to find where things live.",
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "ft1" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
