/** `winnow_symbols`: one ranked query over several signals at once (docs/api.md). */
import { z } from "zod";
import { SYMBOLS } from "../query/symbols.ts";
import { windowChurn } from "../query/window_churn.ts";
import { checkCriteria, winnow, WINNOW_AXES, WINNOW_RANKS } from "../query/winnow.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, rows } from "./define.ts";
import { graphMeta } from "./graph_args.ts";

const _args = {
  criteria: z.array(z.record(z.string(), z.unknown())).max(20).optional().describe("Default none"),
  rank_by: z.enum(WINNOW_RANKS).optional().describe("Default importance"),
  order: z.enum(["desc", "asc"]).optional().describe("Default desc"),
  max_results: z.number().int().min(1).max(500).optional().describe("Default 20"),
  days: z.number().int().min(1).max(36500).optional().describe("Default 90"),
};

/** Validated arguments. */
export type WinnowSymbolsArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  rank_by: z.enum(WINNOW_RANKS).describe("The ranking signal"),
  order: z.enum(["desc", "asc"]).describe("The order"),
  matched: z.number().int().describe("Definitions meeting every criterion"),
  total_scanned: z.number().int().describe("Definitions weighed"),
  git_available: z.boolean().describe("Whether churn could be read"),
  results: rows({
    symbol_id: z.string().describe("Symbol id"),
    name: z.string().describe("Name"),
    kind: z.string().describe("Kind"),
    language: z.string().describe("Language"),
    file: z.string().describe("File"),
    line: z.number().int().describe("First line"),
    cyclomatic: z.number().int().describe("Cyclomatic complexity (0: not measured)"),
    churn: z.number().int().describe("Commits changing its file in the window"),
    importance: z.number().describe("PageRank importance (get_symbol_importance)"),
    callers: z.number().int().describe("Distinct resolved callers"),
    callees: z.number().int().describe("Distinct resolved callees"),
    tested: z.boolean().describe("Whether a test reaches it"),
  }).describe("Ranked survivors"),
  note: z.string().optional().describe("Why churn is missing"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

/** The survivors of a repo's definitions under the criteria, ranked. */
export function handler(
  ctx: ToolContext,
  args: WinnowSymbolsArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const criteria = checkCriteria(args.criteria ?? []);
  const rankBy = args.rank_by ?? "importance";
  const order = args.order ?? "desc";
  const max = args.max_results ?? 20;
  const { repo, view } = openRepo(ctx, args.repo);
  const needsChurn = rankBy === "churn" || criteria.some((c) => c.axis === "churn");
  const churn = needsChurn ? windowChurn(view, args.days ?? 90) : null;
  const found = winnow(view, criteria, { rankBy, order, max, churn: churn?.counts ?? null });
  const symbols = view.get(SYMBOLS);
  const response: ResponseOf<typeof _fields> = {
    repo,
    rank_by: rankBy,
    order,
    matched: found.matched,
    total_scanned: found.scanned,
    git_available: churn !== null && churn.counts !== null,
    results: found.rows.map((r) => ({
      symbol_id: r.symbol.id,
      name: r.symbol.name,
      kind: r.symbol.kind,
      language: r.symbol.language,
      file: r.symbol.file,
      line: symbols.byId(r.symbol.id)?.line ?? 0,
      cyclomatic: r.cyclomatic,
      churn: r.churn,
      importance: Math.round(r.importance * 1e8) / 1e8,
      callers: r.callers,
      callees: r.callees,
      tested: r.tested,
    })),
  };
  if (churn?.note !== undefined) response.note = churn.note;
  return {
    response,
    repo,
    meta: graphMeta(
      found.matched > max,
      `Showing ${max} of ${found.matched}: raise max_results (up to 500) or add criteria`,
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "winnow_symbols",
  title: "Winnow symbols",
  summary: "one ranked query over kind, complexity, churn, callers, callees, tests, role and names",
  description: `Filter and rank definitions in one call: criteria [{axis, op, value}] AND-ed, on ${
    Object.keys(WINNOW_AXES).join(", ")
  }.`,
  repo: "required",
  args: _args,
  output: { fields: _fields, meta: _meta },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
