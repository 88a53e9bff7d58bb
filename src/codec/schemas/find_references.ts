import type { EncoderSpec } from "../spec.ts";

/** `fr3`: every reference as one table row (files, symbols and targets interned). */
export const FIND_REFERENCES: EncoderSpec = {
  id: "fr3",
  tool: "find_references",
  scalars: ["repo", "identifier", "reference_count", "file_count"],
  tables: [{
    tag: "r",
    key: "references",
    columns: [
      "identifier",
      "file",
      "line",
      "kind",
      "symbol",
      "target",
      "resolution",
      "candidates",
      "detail",
    ],
    intern: ["identifier", "file", "symbol", "target", "detail"],
  }],
};
