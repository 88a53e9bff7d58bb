/** `get_file_outline`: the symbol outline of one or several files (API.md §1.5). */
import { z } from "zod";
import { buildOutline, type OutlineNode } from "../parser/outline.ts";
import type { RepoView } from "../query/view.ts";
import { ToolError } from "../errors.ts";
import {
  cutSignature,
  DEFAULT_TOKEN_BUDGET,
  estimateTokens,
  TOKEN_BUDGET_RANGE,
  TokenBudget,
} from "../query/budget.ts";
import { summaryRepeatsSignature } from "../summarize/summary.ts";
import { fileSummaryOf } from "../query/file_summaries.ts";
import { openRepo, requireFile, type ToolContext, type ToolOutput } from "./context.ts";

/** Tool name. */
export const name = "get_file_outline";

/** Tool description shown to agents. */
export const description =
  `Get the outline of a file: its classes, functions, methods, types and constants as a tree, each with id, signature, one-line summary and line span — without the bodies. Use it instead of reading a whole file; then fetch only the symbols you need with get_symbol_source. Pass file_paths for several files at once. Long signatures end in " …" (get_symbol_source has them whole); a summary that would only repeat the signature is left out. At most token_budget tokens (default ${DEFAULT_TOKEN_BUDGET}) come back; when cut, _meta.hint says how to get the rest.`;

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (or a bare name that identifies one repo)"),
  file_path: z.string().optional().describe(
    "Repo-relative path exactly as indexed (see get_file_tree), e.g. src/app.ts",
  ),
  file_paths: z.array(z.string()).optional().describe(
    "Several repo-relative paths (batch); use instead of file_path",
  ),
  token_budget: z.number().int().min(TOKEN_BUDGET_RANGE.min).max(TOKEN_BUDGET_RANGE.max)
    .optional().describe(
      `Most tokens to return, counted as bytes/4 (default ${DEFAULT_TOKEN_BUDGET}); symbols past it are left out`,
    ),
});

/** Validated arguments. */
export type GetFileOutlineArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

/** What building an outline cut, for the hint. */
interface _Cuts {
  signatures: number;
  /** The first symbol left out for the budget, if any. */
  firstLeftOut: { line: number; id: string } | null;
  leftOut: number;
}

/** A node and its children in source order, while the budget lasts. */
function _node(n: OutlineNode, budget: TokenBudget, cuts: _Cuts): Record<string, unknown> | null {
  const s = n.symbol;
  const sig = cutSignature(s.signature);
  const node: Record<string, unknown> = {
    id: s.id,
    kind: s.kind,
    name: s.name,
    signature: sig.text,
  };
  if (!summaryRepeatsSignature(s)) node.summary = s.summary;
  node.line = s.line;
  node.end_line = s.end_line;
  if (s.decorators.length > 0) node.decorators = s.decorators;
  if (!budget.take(estimateTokens(node) + 2)) {
    cuts.firstLeftOut ??= { line: s.line, id: s.id };
    cuts.leftOut += _count(n);
    return null;
  }
  if (sig.cut) cuts.signatures++;
  if (n.children.length > 0) {
    const children = n.children.flatMap((c) => _node(c, budget, cuts) ?? []);
    if (children.length > 0) node.children = children;
  }
  return node;
}

function _count(n: OutlineNode): number {
  return 1 + n.children.reduce((a, c) => a + _count(c), 0);
}

/** One file's outline, its symbol count, and what was cut to fit the budget. */
export function fileOutline(
  view: RepoView,
  path: string,
  budget: TokenBudget = new TokenBudget(DEFAULT_TOKEN_BUDGET),
): { outline: Record<string, unknown>; symbolCount: number; size: number; hints: string[] } {
  const { repo, index } = view;
  const entry = requireFile(view, path);
  const symbols = index.symbolsOfFile(path);
  const cuts: _Cuts = { signatures: 0, firstLeftOut: null, leftOut: 0 };
  budget.take(estimateTokens(entry.summary) + 40);
  const nodes = buildOutline(symbols).flatMap((n) => _node(n, budget, cuts) ?? []);
  const hints: string[] = [];
  if (cuts.firstLeftOut !== null) {
    hints.push(
      `${path}: ${cuts.leftOut} symbols from line ${cuts.firstLeftOut.line} on left out to fit token_budget=${budget.limit}: call get_file_outline with file_path="${path}" and a larger token_budget, or get_file_content with file_path="${path}", start_line=${cuts.firstLeftOut.line}`,
    );
  }
  if (cuts.signatures > 0) {
    hints.push(
      `${path}: ${cuts.signatures} signatures ending in " …" were cut: get_symbol_source with the id gives the whole text`,
    );
  }
  return {
    outline: {
      repo,
      file: path,
      language: entry.language,
      file_summary: fileSummaryOf(view, path, symbols),
      symbols: nodes,
    },
    symbolCount: symbols.length,
    size: entry.size,
    hints,
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
  const budget = new TokenBudget(args.token_budget ?? DEFAULT_TOKEN_BUDGET);
  if (single !== undefined) {
    const { outline, symbolCount, size, hints } = fileOutline(view, single, budget);
    return { response: outline, rawBytes: size, repo, meta: _meta(symbolCount, hints) };
  }
  const results: Record<string, unknown>[] = [];
  const errors: Record<string, unknown>[] = [];
  const hints: string[] = [];
  let rawBytes = 0;
  let symbolCount = 0;
  for (const path of batch!) {
    try {
      const r = fileOutline(view, path, budget);
      results.push(r.outline);
      hints.push(...r.hints);
      rawBytes += r.size;
      symbolCount += r.symbolCount;
    } catch (e) {
      if (!(e instanceof ToolError)) throw e;
      errors.push({ file: path, error: e.message });
    }
  }
  const response: Record<string, unknown> = { repo, results };
  if (errors.length > 0) response.errors = errors;
  return { response, rawBytes, repo, meta: _meta(symbolCount, hints) };
}

function _meta(symbolCount: number, hints: string[]): Record<string, unknown> {
  const meta: Record<string, unknown> = {
    symbol_count: symbolCount,
    truncated: hints.some((h) => h.includes("left out")),
  };
  if (hints.length > 0) meta.hint = hints.join("; ");
  return meta;
}
