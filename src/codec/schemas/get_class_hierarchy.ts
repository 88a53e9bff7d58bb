import type { EncoderSpec } from "../spec.ts";

const _LINK = ["id", "name", "kind", "file", "line", "relation", "depth", "of", "resolution"];

/** `gh1`: ancestors, descendants and external bases as tables. */
export const GET_CLASS_HIERARCHY: EncoderSpec = {
  id: "gh1",
  tool: "get_class_hierarchy",
  scalars: ["repo", "ancestor_count", "descendant_count"],
  tables: [
    { tag: "a", key: "ancestors", columns: _LINK, intern: ["file", "id", "of"] },
    { tag: "d", key: "descendants", columns: _LINK, intern: ["file", "id", "of"] },
    {
      tag: "x",
      key: "external_bases",
      columns: ["name", "relation", "depth", "of"],
      intern: ["of"],
    },
  ],
};
