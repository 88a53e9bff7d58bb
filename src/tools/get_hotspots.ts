/** `get_hotspots`: the functions that are both complex and often changed (docs/api.md). */
import { z } from "zod";
import { churnByFile } from "../query/churn.ts";
import { complexityIndexed } from "../query/complexity.ts";
import { historyOrReason } from "../query/history.ts";
import { hotspots } from "../query/hotspots.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, rows } from "./define.ts";
import { graphMeta } from "./graph_args.ts";

const _args = {
  top_n: z.number().int().min(1).max(500).optional().describe(
    "Hotspots listed (default 20)",
  ),
  days: z.number().int().min(1).max(36500).optional().describe(
    "Churn window in days (default 90)",
  ),
  min_complexity: z.number().int().min(1).max(1000).optional().describe(
    "Least cyclomatic complexity listed (default 2: trivial getters and setters left out)",
  ),
};

/** Validated arguments. */
export type GetHotspotsArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  top_n: z.number().int().describe("Hotspots asked for"),
  days: z.number().int().describe("The churn window"),
  git_available: z.boolean().describe("Whether the repo's history could be read"),
  churn_measurable: z.boolean().describe(
    "Whether the churn counts are whole (false: no history, or a shallow clone cut them)",
  ),
  commits_in_window: z.number().int().describe("Commits of the window"),
  candidates: z.number().int().describe("Measured functions at or above min_complexity"),
  hotspots: rows({
    symbol_id: z.string().describe("Symbol id"),
    name: z.string().describe("Name"),
    kind: z.string().describe("function or method"),
    file: z.string().describe("File"),
    line: z.number().int().describe("First line"),
    cyclomatic: z.number().int().describe("Cyclomatic complexity"),
    max_nesting: z.number().int().describe("Deepest nesting"),
    param_count: z.number().int().describe("Parameters"),
    lines: z.number().int().describe("Lines"),
    churn: z.number().int().describe("Commits that changed its file in the window"),
    hotspot_score: z.number().describe("cyclomatic × ln(1 + churn)"),
    assessment: z.enum(["low", "medium", "high"]).describe(
      "low (score ≤ 3), medium (≤ 10), high (> 10)",
    ),
  }).describe("The hotspots, highest score first"),
  note: z.string().optional().describe("Why the ranking is by complexity alone, or has none"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

/** The top hotspots of a repo. */
export function handler(
  ctx: ToolContext,
  args: GetHotspotsArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const topN = args.top_n ?? 20;
  const days = args.days ?? 90;
  const { repo, view } = openRepo(ctx, args.repo);
  const history = historyOrReason(view);
  const notes: string[] = [];
  let churn: ReturnType<typeof churnByFile> | null = null;
  if (typeof history === "string") {
    notes.push(`No churn: ${history}. Ranked by complexity alone (every hotspot_score is 0)`);
  } else {
    const since = Math.floor(Date.now() / 1000) - days * 86400;
    churn = churnByFile(history, history.resolveCommit("HEAD"), since);
    if (churn.reachedShallow) {
      notes.push("The history stops at the edge of this shallow clone: churn is a lower bound");
    }
  }
  if (!complexityIndexed(view)) {
    notes.push(
      "The index was written before complexity was measured: re-index the repo (index_folder)",
    );
  }
  const ranked = hotspots(view, churn?.counts ?? null, args.min_complexity ?? 2);
  const response: ResponseOf<typeof _fields> = {
    repo,
    top_n: topN,
    days,
    git_available: typeof history !== "string",
    churn_measurable: churn !== null && !churn.reachedShallow && !churn.truncated,
    commits_in_window: churn?.commits ?? 0,
    candidates: ranked.length,
    hotspots: ranked.slice(0, topN).map((h) => ({
      symbol_id: h.id,
      name: h.name,
      kind: h.kind,
      file: h.file,
      line: h.line,
      cyclomatic: h.cyclomatic,
      max_nesting: h.max_nesting,
      param_count: h.param_count,
      lines: h.lines,
      churn: h.churn,
      hotspot_score: h.score,
      assessment: h.assessment,
    })),
  };
  if (notes.length > 0) response.note = notes.join("; ");
  return {
    response,
    repo,
    meta: graphMeta(
      ranked.length > topN,
      `${ranked.length} candidates: raise top_n (up to 500) or min_complexity`,
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_hotspots",
  title: "Hotspots",
  summary:
    "the functions that are both complex and often changed: cyclomatic × ln(1 + commits to the file in a window)",
  description:
    "Get the riskiest functions of a repo: complex and often changed, scored cyclomatic complexity × ln(1 + commits to the function's file in the last `days`), highest first, with an assessment. Use it to pick what to refactor or review first; without git history the ranking is by complexity alone.",
  repo: "optional",
  repoDescription: "Repo id from list_repos (a locally indexed git checkout has churn)",
  args: _args,
  output: { fields: _fields, meta: _meta },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
