/** `get_ranked_context`: the source a task needs, best first, within a token budget (API.md §2.11). */
import { z } from "zod";
import { ToolError } from "../errors.ts";
import { DEFAULT_TOKEN_BUDGET, TOKEN_BUDGET_RANGE } from "../query/budget.ts";
import { freshnessChecker, markFreshness } from "../query/files.ts";
import { type ContextStrategy, rankedContext } from "../query/ranked_context.ts";
import { RELEVANCE_FLOOR } from "../query/context_pack.ts";
import { bytesOfFiles } from "../query/files.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import {
  type ArgsOf,
  defineTool,
  META,
  type MetaOf,
  type ResponseOf,
  type RowOf,
  table,
} from "./define.ts";

const _description =
  "The source of the symbols a task most likely needs, best first, within token_budget; each item says why. Give the task in plain words, at the start of a task, instead of reading files.";

const _args = {
  query: z.string().min(1).max(500).describe("The task or question, in plain words"),
  token_budget: z.number().int().min(TOKEN_BUDGET_RANGE.min).max(TOKEN_BUDGET_RANGE.max)
    .optional().describe(
      `Most tokens returned (default ${DEFAULT_TOKEN_BUDGET})`,
    ),
  strategy: z.enum(["combined", "bm25", "centrality"]).optional().describe(
    "combined (default), bm25 (relevance only) or centrality",
  ),
  include_kinds: z.array(z.string()).optional().describe(
    'Only these symbol kinds, e.g. ["function", "method"]',
  ),
  scope: z.string().optional().describe('Only files matching this glob, e.g. "src/*"'),
  fusion: z.boolean().optional().describe(
    "Accepted for compatibility with the reference; not used (see _meta.warnings)",
  ),
};

/** Validated arguments. */
export type GetRankedContextArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  query: z.string().describe("The task, trimmed"),
  context_items: table("i", {
    symbol_id: z.string().describe("Symbol id"),
    name: z.string().describe("Name"),
    kind: z.string().describe("Kind"),
    file: z.string().describe("File"),
    line: z.number().int().describe("First line"),
    end_line: z.number().int().describe("Last line"),
    score: z.number().describe("Ranking score"),
    why: z.string().describe("Why it was chosen"),
    cut: z.boolean().describe("Only signature and docstring: the source did not fit"),
    tokens: z.number().int().describe("Tokens the item costs (bytes/4)"),
    source: z.string().describe("Its source (or signature and docstring when cut)"),
    _freshness: z.string().nullable().optional().describe(
      "fresh, edited_uncommitted (the file changed on disk), stale_index (git HEAD moved)",
    ),
  }, { intern: ["file", "symbol_id"] }).describe("The context, best first"),
  total_tokens: z.number().int().describe("Tokens of all items"),
  budget_tokens: z.number().int().describe("The budget"),
  items_included: z.number().int().describe("Items returned"),
  items_considered: z.number().int().describe("Candidates ranked"),
  token_estimate: z.string().describe('How tokens are counted: "utf8_bytes/4"'),
};

const _meta = {
  freshness: META.freshness,
  truncated: META.truncated,
  hint: META.hint,
  stopped: z.enum(["relevance", "budget", "candidates"]).describe(
    "Why packing stopped: what was left scored below the relevance floor, the budget, or no candidates left",
  ),
  below_relevance_floor: z.number().int().describe(
    "Candidates not packed because they score below the relevance floor",
  ),
};

type _Item = RowOf<typeof _fields.context_items>;

/** The packed context for a task. */
export function handler(
  ctx: ToolContext,
  args: GetRankedContextArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const query = args.query.trim();
  if (query === "") {
    throw new ToolError("invalid_argument", 'Argument "query" must describe the task in words');
  }
  const { repo, view } = openRepo(ctx, args.repo);
  const budget = args.token_budget ?? DEFAULT_TOKEN_BUDGET;
  const check = freshnessChecker(view);
  const packed = rankedContext(view, {
    query,
    tokenBudget: budget,
    strategy: (args.strategy ?? "combined") as ContextStrategy,
    kinds: args.include_kinds,
    scope: args.scope,
    freshness: check,
  });
  const items = packed.items.map((i): _Item => ({ ...i }));
  // Each item carries its `_freshness` already (counted in its tokens): only the totals here.
  const freshness = markFreshness(items, check);
  const response: ResponseOf<typeof _fields> = {
    repo,
    query,
    context_items: items,
    total_tokens: packed.totalTokens,
    budget_tokens: budget,
    items_included: items.length,
    items_considered: packed.considered,
    token_estimate: "utf8_bytes/4",
  };
  const meta: MetaOf<typeof _meta> = {};
  if (freshness !== null) meta.freshness = freshness;
  const cut = packed.items.filter((i) => i.cut).length;
  // Why packing stopped: the budget, or what was left scored too low to be worth it.
  meta.stopped = packed.stopped;
  if (packed.belowFloor > 0) meta.below_relevance_floor = packed.belowFloor;
  if (packed.leftOut > 0 || cut > 0) {
    meta.truncated = true;
    meta.hint =
      `${packed.leftOut} relevant candidate symbols did not fit and ${cut} were cut to their signature, docstring and outline: raise token_budget, narrow with scope, or read one with get_symbol_source symbol_id=<id>`;
  } else if (packed.stopped === "relevance") {
    meta.hint = `Stopped with ${
      budget - packed.totalTokens
    } tokens left: the other ${packed.belowFloor} candidates score below ${RELEVANCE_FLOOR} of the best, so they are unlikely to matter for this task; search_symbols or search_text find more`;
  }
  if (items.length === 0) {
    meta.hint =
      "Nothing matched the task's words: try other words, or search_symbols / search_text";
  }
  return {
    response,
    repo,
    meta,
    rawBytes: bytesOfFiles(view, packed.items.map((i) => i.file)),
    ...(args.fusion !== undefined ? { warnings: ["fusion is accepted but not used"] } : {}),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_ranked_context",
  title: "Ranked context",
  summary:
    "the source a task needs, best first, within `token_budget` (default 8000, never exceeded), each item saying why it was chosen — start a task here",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "rc2" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
