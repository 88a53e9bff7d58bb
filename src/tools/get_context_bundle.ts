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
import {
  type ArgsOf,
  defineTool,
  META,
  type MetaOf,
  type ResponseOf,
  rows,
  table,
} from "./define.ts";

const _description =
  "Everything needed to edit symbols safely, in one call: each one's source, the imports it uses, and the signatures of its callees, callers, class and siblings. Use it before changing a function.";

/** Most symbols one call bundles. */
const _MAX_SYMBOLS = 20;

const _args = {
  symbol_id: z.string().optional().describe("One symbol id (or a unique name / Qualified.name)"),
  symbol_ids: z.array(z.string()).max(_MAX_SYMBOLS).optional().describe(
    `Several symbol ids (at most ${_MAX_SYMBOLS})`,
  ),
  token_budget: z.number().int().min(TOKEN_BUDGET_RANGE.min).max(TOKEN_BUDGET_RANGE.max)
    .optional().describe(
      `Most tokens returned (default ${DEFAULT_TOKEN_BUDGET})`,
    ),
  budget_strategy: z.enum(["most_relevant", "core_first", "compact"]).optional().describe(
    "most_relevant (default), core_first (the order given) or compact (signatures only)",
  ),
  include_callers: z.boolean().optional().describe(
    "Also list the files importing each symbol's file",
  ),
  output_format: z.enum(["json", "markdown"]).optional().describe(
    "json (default) or markdown",
  ),
  include_budget_report: z.boolean().optional().describe(
    "Add how the budget was spent",
  ),
};

/** Validated arguments. */
export type GetContextBundleArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  symbols: table("s", {
    symbol_id: z.string().describe("A bundled symbol"),
    name: z.string().describe("Name"),
    kind: z.string().describe("Kind"),
    file: z.string().describe("File"),
    line: z.number().int().describe("First line"),
    end_line: z.number().int().describe("Last line"),
    cut: z.boolean().describe("The source was cut (or is the signature only)"),
    tokens: z.number().int().describe("Tokens it costs"),
    source: z.string().describe("Its source"),
  }, { intern: ["symbol_id", "file"] }).optional().describe("The symbols with their sources"),
  imports: table("m", {
    file: z.string().describe("File of the import"),
    line: z.number().int().describe("Line"),
    text: z.string().describe("The import line"),
    used_by: z.string().describe("The bundled symbols using it"),
  }, { intern: ["file", "used_by"] }).optional().describe("Import lines the symbols use"),
  related: table("r", {
    symbol_id: z.string().describe("The bundled symbol it relates to"),
    relation: z.enum(["class", "calls", "caller", "sibling"]).describe("How it relates"),
    id: z.string().describe("Its id"),
    kind: z.string().describe("Kind"),
    file: z.string().describe("File"),
    line: z.number().int().describe("Line"),
    signature: z.string().describe("Signature"),
    resolution: z.string().nullable().describe("calls and callers: resolved or by_name"),
  }, { intern: ["symbol_id", "file", "id"] }).optional().describe(
    "Signatures of its class, callees, callers and siblings",
  ),
  importers: table("f", {
    symbol_id: z.string().describe("A bundled symbol"),
    file: z.string().describe("A file importing its file"),
  }, { intern: ["symbol_id"] }).optional().describe("include_callers: files importing each one"),
  total_tokens: z.number().int().describe("Tokens of the bundle"),
  budget_tokens: z.number().int().describe("The budget"),
  markdown: z.string().optional().describe('output_format "markdown": the whole bundle'),
  errors: z.array(z.record(z.string(), z.unknown())).optional().describe(
    "Ids not found: id, error, and the closest ids or candidates",
  ),
  budget_report: rows({
    section: z.string().describe("sources, imports, class, callees, callers or siblings"),
    included: z.number().int().describe("Items included"),
    left_out: z.number().int().describe("Items that did not fit"),
    tokens: z.number().int().describe("Tokens spent"),
  }).optional().describe("include_budget_report: how the budget was spent"),
};

const _meta = { symbol_count: META.symbol_count, truncated: META.truncated, hint: META.hint };

/** The bundle of the symbols. */
export function handler(
  ctx: ToolContext,
  args: GetContextBundleArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
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
  const response: ResponseOf<typeof _fields> = {
    repo,
    ...(args.output_format === "markdown" ? { markdown: bundleMarkdown(bundle) } : {
      symbols: bundle.symbols,
      imports: bundle.imports,
      related: bundle.related,
      ...(args.include_callers === true ? { importers: bundle.importers } : {}),
    }),
    total_tokens: bundle.totalTokens,
    budget_tokens: budget,
    ...(errors.length > 0 ? { errors } : {}),
    ...(args.include_budget_report === true ? { budget_report: bundle.report } : {}),
  };
  const meta: MetaOf<typeof _meta> = { symbol_count: bundle.symbols.length };
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

/** The declaration. */
export const tool = defineTool({
  name: "get_context_bundle",
  title: "Context bundle",
  summary:
    "a symbol's source plus what editing it safely needs: the imports it uses, its class, the signatures of what it calls and of its callers, sibling methods",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "cb1" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
