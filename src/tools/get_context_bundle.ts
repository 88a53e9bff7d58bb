/**
 * `get_context_bundle`: a symbol's source plus what an agent needs to edit it safely, within a
 * token budget (API.md Part B §7.2).
 */
import { z } from "zod";
import { DetailedToolError, ToolError } from "../errors.ts";
import { DEFAULT_TOKEN_BUDGET, TOKEN_BUDGET_RANGE } from "../query/budget.ts";
import { bundleMarkdown, type BundleStrategy, contextBundle } from "../query/context_bundle.ts";
import { bytesOfFiles } from "../query/files.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import type { SymbolRecord } from "../parser/types.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";

/** Tool name. */
export const name = "get_context_bundle";

/** Tool description shown to agents. */
export const description =
  "Get everything needed to edit one or more symbols safely in one call: each symbol's source, the import lines of its file that it uses (deduplicated), the signatures of what it calls and of its callers, its class and sibling methods' signatures — within token_budget (default 8000, never exceeded; sources first, then imports, class, callees, callers, siblings). Give symbol ids (or a unique name / Qualified.name). Use it before changing a function.";

/** Most symbols one call bundles. */
const _MAX_SYMBOLS = 20;

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (or a bare name that identifies one repo)"),
  symbol_id: z.string().optional().describe("One symbol id (or a unique name / Qualified.name)"),
  symbol_ids: z.array(z.string()).max(_MAX_SYMBOLS).optional().describe(
    `Several symbol ids (at most ${_MAX_SYMBOLS})`,
  ),
  token_budget: z.number().int().min(TOKEN_BUDGET_RANGE.min).max(TOKEN_BUDGET_RANGE.max)
    .optional().describe(
      `Most tokens returned (${TOKEN_BUDGET_RANGE.min}-${TOKEN_BUDGET_RANGE.max}, default ${DEFAULT_TOKEN_BUDGET})`,
    ),
  budget_strategy: z.enum(["most_relevant", "core_first", "compact"]).optional().describe(
    "most_relevant (default: most central symbols first), core_first (in the order given) or compact (signatures instead of sources)",
  ),
  include_callers: z.boolean().optional().describe(
    "Also list the files that import each symbol's file (default false; caller signatures are always included)",
  ),
  output_format: z.enum(["json", "markdown"]).optional().describe(
    "json (default: tables) or markdown (one document in `markdown`)",
  ),
  include_budget_report: z.boolean().optional().describe(
    "Add how the budget was spent per section (default false)",
  ),
});

/** Validated arguments. */
export type GetContextBundleArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

/** The bundle of the symbols. */
export function handler(ctx: ToolContext, args: GetContextBundleArgs): ToolOutput {
  const wanted = [
    ...(args.symbol_id !== undefined ? [args.symbol_id] : []),
    ...(args.symbol_ids ?? []),
  ];
  if (wanted.length === 0) {
    throw new ToolError(
      "invalid_argument",
      "Provide symbol_id (string) or symbol_ids (array of strings): ids come from search_symbols or get_file_outline",
    );
  }
  const { repo, view } = openRepo(ctx, args.repo);
  const symbols: SymbolRecord[] = [];
  const errors: Record<string, unknown>[] = [];
  for (const id of [...new Set(wanted)]) {
    try {
      const s = findSymbol(view, id);
      if (!symbols.some((x) => x.id === s.id)) symbols.push(s);
    } catch (e) {
      if (!(e instanceof ToolError)) throw e;
      if (wanted.length === 1) throw e;
      errors.push({
        id,
        error: e.message,
        ...(e instanceof DetailedToolError ? e.details : {}),
      });
    }
  }
  const budget = args.token_budget ?? DEFAULT_TOKEN_BUDGET;
  const bundle = contextBundle(view, symbols, {
    budget,
    strategy: (args.budget_strategy ?? "most_relevant") as BundleStrategy,
    includeImporters: args.include_callers ?? false,
  });
  const response: Record<string, unknown> = { repo };
  if (args.output_format === "markdown") response.markdown = bundleMarkdown(bundle);
  else {
    response.symbols = bundle.symbols;
    response.imports = bundle.imports;
    response.related = bundle.related;
    if (args.include_callers === true) response.importers = bundle.importers;
  }
  response.total_tokens = bundle.totalTokens;
  response.budget_tokens = budget;
  if (errors.length > 0) response.errors = errors;
  if (args.include_budget_report === true) response.budget_report = bundle.report;
  const meta: Record<string, unknown> = { symbol_count: bundle.symbols.length };
  const leftOut = bundle.report.reduce((n, r) => n + r.left_out, 0);
  const cut = bundle.symbols.filter((s) => s.cut).length;
  if (leftOut > 0 || cut > 0) {
    meta.truncated = true;
    meta.hint =
      `${leftOut} items did not fit and ${cut} sources were cut: raise token_budget, use budget_strategy "compact", or read a symbol whole with get_symbol_source symbol_id=<id>`;
  }
  return {
    response,
    repo,
    meta,
    rawBytes: bytesOfFiles(view, bundle.symbols.map((s) => s.file)),
  };
}
