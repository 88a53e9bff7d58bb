import type { EncoderSpec } from "../spec.ts";

/**
 * `sa2`: search_ast matches as one table (files, symbol ids and snippets interned); detector
 * extras (callee, function_name, nesting_depth, …) are further columns, empty where a match has
 * none. (The reference's `sa1` named columns its matches do not have.)
 */
export const SEARCH_AST: EncoderSpec = {
  id: "sa2",
  tool: "search_ast",
  scalars: ["repo", "total_matches", "truncated", "pattern", "category", "description"],
  tables: [{
    tag: "a",
    key: "matches",
    columns: [
      "file",
      "line",
      "end_line",
      "column",
      "severity",
      "pattern",
      "snippet",
      "language",
      "enclosing_symbol",
      "symbol_kind",
    ],
    intern: ["file", "enclosing_symbol", "pattern", "language"],
  }],
};
