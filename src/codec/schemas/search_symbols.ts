import type { EncoderSpec } from "../spec.ts";

/** `ss1`: search_symbols hits as one table, ids and files interned. */
export const SEARCH_SYMBOLS: EncoderSpec = {
  id: "ss1",
  tool: "search_symbols",
  scalars: ["result_count", "query", "repo"],
  tables: [{
    tag: "s",
    key: "results",
    columns: ["id", "name", "kind", "file", "line", "score", "signature", "summary", "decorators"],
    // Summaries often repeat the signature (the signature fallback): interning shares them.
    intern: ["file", "id", "signature", "summary", "decorators"],
  }],
};
