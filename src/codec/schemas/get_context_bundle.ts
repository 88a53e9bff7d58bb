import type { EncoderSpec } from "../spec.ts";

/**
 * `cb1`: get_context_bundle as four tables — the symbols with their sources, the import lines they
 * use, the related signatures (class, calls, caller, sibling) and the importing files.
 */
export const GET_CONTEXT_BUNDLE: EncoderSpec = {
  id: "cb1",
  tool: "get_context_bundle",
  scalars: ["repo", "total_tokens", "budget_tokens", "markdown"],
  tables: [
    {
      tag: "s",
      key: "symbols",
      columns: ["symbol_id", "name", "kind", "file", "line", "end_line", "cut", "tokens", "source"],
      intern: ["symbol_id", "file"],
    },
    {
      tag: "m",
      key: "imports",
      columns: ["file", "line", "text", "used_by"],
      intern: ["file", "used_by"],
    },
    {
      tag: "r",
      key: "related",
      columns: ["symbol_id", "relation", "id", "kind", "file", "line", "signature", "resolution"],
      intern: ["symbol_id", "file", "id"],
    },
    { tag: "f", key: "importers", columns: ["symbol_id", "file"], intern: ["symbol_id"] },
  ],
};
