import type { EncoderSpec } from "../spec.ts";

const _SYMBOL = [
  "id",
  "name",
  "kind",
  "file",
  "line",
  "depth",
  "from",
  "resolution",
  "candidates",
  "importers",
];

/** `ip2`: affected symbols, test symbols and files as tables. */
export const GET_IMPACT_PREVIEW: EncoderSpec = {
  id: "ip2",
  tool: "get_impact_preview",
  scalars: [
    "repo",
    "depth",
    "depth_reached",
    "affected_file_count",
    "affected_symbol_count",
    "test_symbol_count",
  ],
  tables: [
    { tag: "s", key: "affected_symbols", columns: _SYMBOL, intern: ["file", "id", "from"] },
    { tag: "u", key: "test_symbols", columns: _SYMBOL, intern: ["file", "id", "from"] },
    {
      tag: "f",
      key: "affected_files",
      columns: ["file", "symbols", "depth", "importers"],
      intern: ["file"],
    },
  ],
};
