import type { EncoderSpec } from "../spec.ts";

/** `rc2`: get_ranked_context items as one table (ids and files interned), source in a column. */
export const GET_RANKED_CONTEXT: EncoderSpec = {
  id: "rc2",
  tool: "get_ranked_context",
  scalars: [
    "repo",
    "query",
    "total_tokens",
    "budget_tokens",
    "items_included",
    "items_considered",
    "token_estimate",
  ],
  tables: [{
    tag: "i",
    key: "context_items",
    columns: [
      "symbol_id",
      "name",
      "kind",
      "file",
      "line",
      "end_line",
      "score",
      "why",
      "cut",
      "tokens",
      "source",
      "_freshness",
    ],
    intern: ["file", "symbol_id"],
  }],
};
