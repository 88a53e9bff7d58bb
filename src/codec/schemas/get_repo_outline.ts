import type { EncoderSpec } from "../spec.ts";

/** `ro1`: the repo overview; its count maps (languages, directories, kinds) become tables. */
export const GET_REPO_OUTLINE: EncoderSpec = {
  id: "ro1",
  tool: "get_repo_outline",
  scalars: [
    "repo",
    "source_root",
    "display_name",
    "indexed_at",
    "git_head",
    "file_count",
    "symbol_count",
    "staleness_warning",
  ],
  tables: [
    { tag: "l", key: "languages", columns: ["language", "file_count"] },
    { tag: "d", key: "directories", columns: ["path", "file_count"], intern: ["path"] },
    { tag: "k", key: "symbol_kinds", columns: ["kind", "count"] },
    { tag: "i", key: "most_imported_files", columns: ["file", "imported_by"], intern: ["file"] },
    {
      tag: "c",
      key: "most_central_symbols",
      columns: ["symbol_id", "score", "kind"],
      intern: ["symbol_id"],
    },
  ],
  transforms: [
    { kind: "dict", key: "languages", keyColumn: "language", valueColumn: "file_count" },
    { kind: "dict", key: "directories", keyColumn: "path", valueColumn: "file_count" },
    { kind: "dict", key: "symbol_kinds", keyColumn: "kind", valueColumn: "count" },
  ],
};
