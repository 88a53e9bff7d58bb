import type { EncoderSpec } from "../spec.ts";

/**
 * `st1` (extended format only): search_text as grep prints it — one table, one row per line,
 * each naming its file first (interned, so a file's rows share one legend handle); with context,
 * the context lines are rows too, marked `-` (before) and `+` (after), the matches `:`.
 */
export const SEARCH_TEXT: EncoderSpec = {
  id: "st1",
  tool: "search_text",
  scalars: ["result_count", "total_matches", "query", "repo"],
  tables: [
    {
      tag: "m",
      key: "__lines__",
      columns: ["file", "line", "mark", "text", "symbol"],
      intern: ["file", "symbol"],
    },
  ],
  transforms: [{
    kind: "lines",
    key: "results",
    into: "__lines__",
    by: "file",
    child: "matches",
    before: "before",
    after: "after",
    mark: "mark",
  }],
};
