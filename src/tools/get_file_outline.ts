/** `get_file_outline`: the symbol outline of one or several files (API.md §1.5). */
import { z } from "zod";
import { buildOutline, type OutlineNode } from "../parser/outline.ts";
import type { RepoView } from "../query/view.ts";
import { ToolError } from "../errors.ts";
import { openRepo, requireFile, type ToolContext, type ToolOutput } from "./context.ts";

/** Tool name. */
export const name = "get_file_outline";

/** Tool description shown to agents. */
export const description =
  "Get the outline of a file: its classes, functions, methods, types and constants as a tree, each with id, signature, one-line summary and line span — without the bodies. Use it instead of reading a whole file; then fetch only the symbols you need with get_symbol_source. Pass file_paths for several files at once.";

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (or a bare name that identifies one repo)"),
  file_path: z.string().optional().describe(
    "Repo-relative path exactly as indexed (see get_file_tree), e.g. src/app.ts",
  ),
  file_paths: z.array(z.string()).optional().describe(
    "Several repo-relative paths (batch); use instead of file_path",
  ),
});

/** Validated arguments. */
export type GetFileOutlineArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

function _node(n: OutlineNode): Record<string, unknown> {
  const s = n.symbol;
  const node: Record<string, unknown> = {
    id: s.id,
    kind: s.kind,
    name: s.name,
    signature: s.signature,
    summary: s.summary,
    line: s.line,
    end_line: s.end_line,
  };
  if (s.decorators.length > 0) node.decorators = s.decorators;
  if (n.children.length > 0) node.children = n.children.map(_node);
  return node;
}

/** One file's outline and its symbol count. */
export function fileOutline(
  view: RepoView,
  path: string,
): { outline: Record<string, unknown>; symbolCount: number; size: number } {
  const { repo, index } = view;
  const entry = requireFile(view, path);
  const symbols = index.symbolsOfFile(path);
  return {
    outline: {
      repo,
      file: path,
      language: entry.language,
      file_summary: entry.summary,
      symbols: buildOutline(symbols).map(_node),
    },
    symbolCount: symbols.length,
    size: entry.size,
  };
}

/** The outline of `file_path`, or `{repo, results}` for `file_paths`. */
export function handler(ctx: ToolContext, args: GetFileOutlineArgs): ToolOutput {
  const single = args.file_path;
  const batch = args.file_paths;
  if (single !== undefined && batch !== undefined && batch.length > 0) {
    throw new ToolError(
      "invalid_argument",
      'Pass either "file_path" (one file) or "file_paths" (several), not both',
    );
  }
  if (single === undefined && (batch === undefined || batch.length === 0)) {
    throw new ToolError(
      "invalid_argument",
      'Missing argument "file_path": give a repo-relative file path (or "file_paths", a list)',
    );
  }
  const { repo, view } = openRepo(ctx, args.repo);
  if (single !== undefined) {
    const { outline, symbolCount, size } = fileOutline(view, single);
    return { response: outline, rawBytes: size, repo, meta: { symbol_count: symbolCount } };
  }
  const results: Record<string, unknown>[] = [];
  const errors: Record<string, unknown>[] = [];
  let rawBytes = 0;
  let symbolCount = 0;
  for (const path of batch!) {
    try {
      const r = fileOutline(view, path);
      results.push(r.outline);
      rawBytes += r.size;
      symbolCount += r.symbolCount;
    } catch (e) {
      if (!(e instanceof ToolError)) throw e;
      errors.push({ file: path, error: e.message });
    }
  }
  const response: Record<string, unknown> = { repo, results };
  if (errors.length > 0) response.errors = errors;
  return { response, rawBytes, repo, meta: { symbol_count: symbolCount } };
}
