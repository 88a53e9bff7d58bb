import type { EncoderSpec } from "../spec.ts";

/**
 * `tm3`: get_tectonic_map as tables — modules, their member files, the coupling between modules,
 * and the drifters. (The reference's `tm2` dropped member files and coupling.)
 */
export const GET_TECTONIC_MAP: EncoderSpec = {
  id: "tm3",
  tool: "get_tectonic_map",
  scalars: ["repo", "plate_count", "file_count", "isolated_count"],
  tables: [
    {
      tag: "p",
      key: "plates",
      columns: [
        "plate_id",
        "name",
        "anchor",
        "file_count",
        "cohesion",
        "majority_directory",
        "drifter_count",
      ],
    },
    { tag: "m", key: "members", columns: ["plate_id", "file"] },
    { tag: "c", key: "couplings", columns: ["from", "to", "weight"] },
    {
      tag: "z",
      key: "drifter_summary",
      columns: ["file", "current_directory", "belongs_with", "plate_id"],
    },
  ],
};
