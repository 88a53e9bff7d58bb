/** `get_symbol_importance`: the definitions the rest of the repo leans on most (docs/api.md). */
import { z } from "zod";
import { DEGREE_IMPORTANCE, PAGERANK_IMPORTANCE } from "../query/importance.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, rows } from "./define.ts";
import { graphMeta } from "./graph_args.ts";
import { SCOPE, scopeMatcher } from "./structure_args.ts";

const _args = {
  top_n: z.number().int().min(1).max(200).optional().describe("Default 20"),
  algorithm: z.enum(["pagerank", "degree"]).optional().describe("Default pagerank"),
  scope: SCOPE,
};

/** Validated arguments. */
export type GetSymbolImportanceArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  algorithm: z.enum(["pagerank", "degree"]).describe("The ranking used"),
  iterations_to_converge: z.number().int().describe("Power iterations (0 for degree)"),
  candidates: z.number().int().describe("Definitions in scope"),
  ranked_symbols: rows({
    symbol_id: z.string().describe("Symbol id"),
    rank: z.number().int().describe("1 = most important"),
    score: z.number().describe("PageRank (ranks of the whole graph sum to 1) or degree share"),
    in_degree: z.number().int().describe("Distinct resolved callers"),
    out_degree: z.number().int().describe("Distinct resolved callees"),
    importers: z.number().int().describe("Files importing its module (top-level definitions)"),
    kind: z.string().describe("Symbol kind"),
    name: z.string().describe("Name"),
  }).describe("Highest first"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

/** The most important definitions of a repo. */
export function handler(
  ctx: ToolContext,
  args: GetSymbolImportanceArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const topN = args.top_n ?? 20;
  const algorithm = args.algorithm ?? "pagerank";
  const { repo, view } = openRepo(ctx, args.repo);
  const ranking = view.get(algorithm === "pagerank" ? PAGERANK_IMPORTANCE : DEGREE_IMPORTANCE);
  const inScope = scopeMatcher(args.scope);
  const kept = args.scope === undefined
    ? ranking.ranked
    : ranking.ranked.filter((r) => inScope(r.symbol.file));
  const shown = kept.slice(0, topN);
  return {
    response: {
      repo,
      algorithm,
      iterations_to_converge: ranking.iterations,
      candidates: kept.length,
      ranked_symbols: shown.map((r, i) => ({
        symbol_id: r.symbol.id,
        rank: i + 1,
        score: Math.round(r.score * 1e8) / 1e8,
        in_degree: r.inDegree,
        out_degree: r.outDegree,
        importers: r.importers,
        kind: r.symbol.kind,
        name: r.symbol.name,
      })),
    },
    repo,
    meta: graphMeta(
      kept.length > shown.length,
      `Showing ${shown.length} of ${kept.length} definitions: raise top_n (up to 200) or narrow scope`,
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_symbol_importance",
  title: "Symbol importance",
  summary: "the definitions the repo leans on most: PageRank over calls, imports and containment",
  description: "Rank definitions by PageRank over calls, imports and containment.",
  repo: "required",
  args: _args,
  output: { fields: _fields, meta: _meta },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
