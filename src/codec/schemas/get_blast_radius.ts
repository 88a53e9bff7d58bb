import type { EncoderSpec } from "../spec.ts";

const _SYMBOL = ["id", "name", "kind", "file", "line", "depth", "resolution", "importers"];

/** `br3`: affected files (confirmed, potential, tests) and symbols as tables. */
export const GET_BLAST_RADIUS: EncoderSpec = {
  id: "br3",
  tool: "get_blast_radius",
  scalars: [
    "repo",
    "depth",
    "call_depth",
    "importer_count",
    "direct_dependents_count",
    "overall_risk_score",
    "confirmed_count",
    "potential_count",
    "test_count",
    "affected_symbol_count",
    "test_symbol_count",
  ],
  tables: [
    {
      tag: "c",
      key: "confirmed",
      columns: ["file", "depth", "references", "importers", "has_test_reach"],
      intern: ["file"],
    },
    {
      tag: "p",
      key: "potential",
      columns: ["file", "depth", "reason"],
      intern: ["file", "reason"],
    },
    { tag: "t", key: "tests", columns: ["file", "depth", "references"], intern: ["file"] },
    { tag: "s", key: "affected_symbols", columns: _SYMBOL, intern: ["file", "id"] },
    { tag: "u", key: "test_symbols", columns: _SYMBOL, intern: ["file", "id"] },
    { tag: "d", key: "impact_by_depth", columns: ["depth", "file_count", "risk_score"] },
  ],
};
