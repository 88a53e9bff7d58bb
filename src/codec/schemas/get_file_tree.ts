import type { EncoderSpec } from "../spec.ts";

/**
 * `ft1` (ours; the reference has no tier-1 encoder for this tool): the nested file tree
 * flattened in preorder with a `__depth` column, paths interned.
 */
export const GET_FILE_TREE: EncoderSpec = {
  id: "ft1",
  tool: "get_file_tree",
  scalars: ["repo", "path_prefix"],
  tables: [{
    tag: "f",
    key: "tree",
    columns: ["__depth", "path", "type", "language", "symbol_count", "summary"],
    intern: ["path"],
  }],
  transforms: [{ kind: "tree", key: "tree", children: "children" }],
};
