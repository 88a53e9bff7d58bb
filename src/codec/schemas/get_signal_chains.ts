import type { EncoderSpec } from "../spec.ts";

/**
 * `sc3`: get_signal_chains as tables — the chains (one row per entry point, or per reaching entry
 * point in lookup mode), their listed members, and the count per kind. (The reference's `sc2`
 * dropped the member lists.)
 */
export const GET_SIGNAL_CHAINS: EncoderSpec = {
  id: "sc3",
  tool: "get_signal_chains",
  scalars: [
    "repo",
    "gateway_count",
    "chain_count",
    "symbol",
    "symbol_id",
    "on_no_chain",
    "total_functions_methods",
    "orphan_symbols",
    "orphan_symbol_pct",
    "gateway_warning",
  ],
  tables: [
    {
      tag: "c",
      key: "chains",
      columns: [
        "gateway",
        "gateway_name",
        "kind",
        "label",
        "file",
        "line",
        "via",
        "depth",
        "reach",
        "file_count",
        "chain_truncated",
        "depth_from_gateway",
        "chain_reach",
      ],
      intern: ["gateway", "file"],
    },
    {
      tag: "y",
      key: "chain_symbols",
      columns: ["gateway", "symbol_id", "depth", "from"],
      intern: ["gateway", "symbol_id", "from"],
    },
    { tag: "k", key: "kind_summary", columns: ["kind", "count"] },
  ],
};
