/** `get_related_symbols`: what belongs with a symbol, each with its evidence (docs/api.md). */
import { z } from "zod";
import { historyOrReason } from "../query/history.ts";
import { type CoChange, coChangeOf, relatedSymbols } from "../query/related.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import { SYMBOLS } from "../query/symbols.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, rows } from "./define.ts";
import { graphMeta, SYMBOL_HEADING, symbolHeading } from "./graph_args.ts";

const _args = {
  symbol_id: z.string().describe("Symbol id (or unique name)"),
  max_results: z.number().int().min(1).max(50).optional().describe("Most rows (default 10)"),
  days: z.number().int().min(1).max(36500).optional().describe("Co-change days (default 90)"),
};

/** Validated arguments. */
export type GetRelatedSymbolsArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  symbol: SYMBOL_HEADING,
  related_count: z.number().int().describe("Symbols with any signal (all of them)"),
  git_available: z.boolean().describe("Whether co-change could be read from the history"),
  related: rows({
    id: z.string().describe("Symbol id"),
    name: z.string().describe("Name"),
    kind: z.string().describe("Kind"),
    file: z.string().describe("File"),
    line: z.number().int().describe("First line"),
    relatedness_score: z.number().describe("Sum of the signals' weights"),
    reasons: z.string().describe(
      "Evidence, comma-separated: same_file, same_class, calls_it, called_by_it, shared_callers:n, shared_callees:n, co_changed:n/m, name:part+part",
    ),
  }).describe("Highest score first"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

/** The symbols related to one. */
export function handler(
  ctx: ToolContext,
  args: GetRelatedSymbolsArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const max = args.max_results ?? 10;
  const { repo, view } = openRepo(ctx, args.repo);
  const target = findSymbol(view, args.symbol_id);
  const history = historyOrReason(view);
  let coChange: CoChange | null = null;
  if (typeof history !== "string") {
    const since = Math.floor(Date.now() / 1000) - (args.days ?? 90) * 86400;
    coChange = coChangeOf(history, history.resolveCommit("HEAD"), since, target.file);
  }
  const all = relatedSymbols(view, target, coChange);
  const symbols = view.get(SYMBOLS);
  const related = all.slice(0, max).map((r) => ({
    id: r.symbol.id,
    name: r.symbol.name,
    kind: r.symbol.kind,
    file: r.symbol.file,
    line: symbols.byId(r.symbol.id)?.line ?? 0,
    relatedness_score: r.score,
    reasons: r.reasons.join(","),
  }));
  return {
    response: {
      repo,
      symbol: symbolHeading(target),
      related_count: all.length,
      git_available: coChange !== null,
      related,
    },
    repo,
    meta: graphMeta(
      all.length > max,
      `Showing ${max} of ${all.length} related symbols: raise max_results (up to 50)`,
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_related_symbols",
  title: "Related symbols",
  summary: "what belongs with a symbol: same file/class, shared callers/callees, co-change, names",
  description:
    "Find symbols related to one (same file or class, calls, shared callers or callees, co-change, names), each with its evidence.",
  repo: "required",
  args: _args,
  output: { fields: _fields, meta: _meta },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
