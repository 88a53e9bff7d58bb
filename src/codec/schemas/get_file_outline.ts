import type { EncoderSpec } from "../spec.ts";

/**
 * Layout of codemunch's outline rows (`symbols`: one row per symbol with its `parent` id, and in
 * a batch a `file` column first, interned), and `fo1` (extended format only) for the nested
 * shape of the reference: a file outline's symbol tree flattened in preorder with a
 * `__depth` column (children follow their parent), so nested methods stay in the table instead
 * of JSON blobs; a batched outline (`file_paths`) is one table of files and one table of all
 * their symbols, each symbol row naming its file first.
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
        "file",
        "id",
        "name",
        "kind",
        "line",
        "end_line",
        "parent",
        "signature",
        "summary",
        "decorators",
      ],
      intern: ["file", "id", "parent", "signature", "summary", "decorators"],
    },
    {
      tag: "f",
      key: "results",
      columns: ["file", "language", "file_summary", "symbols"],
      intern: ["file"],
    },
    {
      tag: "o",
      key: "__symbols__",
      columns: [
        "file",
        "__depth",
        "id",
        "name",
        "kind",
        "line",
        "end_line",
        "signature",
        "summary",
      ],
      intern: ["file", "id", "signature", "summary"],
    },
  ],
  transforms: [
    { kind: "tree", key: "symbols", children: "children" },
    {
      kind: "forest",
      key: "results",
      into: "__symbols__",
      by: "file",
      child: "symbols",
      children: "children",
    },
  ],
};
