import type { EncoderSpec } from "../spec.ts";

/**
 * `st1`: search_text as two tables — the files with their match counts, then every matching line
 * in order — so a file is written once, not on each of its lines.
 */
export const SEARCH_TEXT: EncoderSpec = {
  id: "st1",
  tool: "search_text",
  scalars: ["result_count", "query", "repo"],
  tables: [
    { tag: "f", key: "results", columns: ["file", "matches"], intern: ["file"] },
    { tag: "m", key: "__matches__", columns: ["line", "text", "before", "after"] },
  ],
  transforms: [{
    kind: "split",
    key: "results",
    into: "__matches__",
    by: "file",
    child: "matches",
  }],
};
