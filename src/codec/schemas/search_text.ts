import type { EncoderSpec } from "../spec.ts";

/**
 * `st1` (extended format only): search_text's files and their matching lines as one table, one
 * row per matching line that names its file in the first column (interned, so a file's rows
 * share one legend handle): each row reads on its own.
 */
export const SEARCH_TEXT: EncoderSpec = {
  id: "st1",
  tool: "search_text",
  scalars: ["result_count", "total_matches", "query", "repo"],
  tables: [
    {
      tag: "m",
      key: "__matches__",
      columns: ["file", "line", "symbol", "text", "before", "after"],
      intern: ["file", "symbol"],
    },
  ],
  transforms: [{
    kind: "group",
    key: "results",
    into: "__matches__",
    by: "file",
    child: "matches",
  }],
};
