import type { EncoderSpec } from "../spec.ts";

/** `st1`: search_text matches flattened to one row per matching line, grouped back by file. */
export const SEARCH_TEXT: EncoderSpec = {
  id: "st1",
  tool: "search_text",
  scalars: ["result_count", "query", "repo"],
  tables: [{
    tag: "t",
    key: "__rows__",
    columns: ["file", "line", "text", "before", "after"],
    intern: ["file"],
  }],
  transforms: [{ kind: "group", key: "results", into: "__rows__", by: "file", child: "matches" }],
};
