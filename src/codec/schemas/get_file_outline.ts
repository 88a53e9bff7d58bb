import type { EncoderSpec } from "../spec.ts";

/**
 * `fo1`: a file outline. The symbol tree is flattened in preorder with a `__depth` column
 * (children follow their parent), so nested methods stay in the table instead of JSON blobs.
 */
export const GET_FILE_OUTLINE: EncoderSpec = {
  id: "fo1",
  tool: "get_file_outline",
  scalars: ["repo", "file", "language", "file_summary", "symbol_count"],
  tables: [
    {
      tag: "s",
      key: "symbols",
      columns: [
        "__depth",
        "id",
        "name",
        "kind",
        "line",
        "end_line",
        "parent",
        "signature",
        "summary",
      ],
      intern: ["id", "parent", "signature", "summary"],
    },
    { tag: "b", key: "results", columns: ["file", "symbol_count"], intern: ["file"] },
  ],
  transforms: [{ kind: "tree", key: "symbols", children: "children" }],
};
