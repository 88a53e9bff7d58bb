import type { EncoderSpec } from "../spec.ts";

const _EDGE = [
  "id",
  "name",
  "kind",
  "file",
  "line",
  "call_line",
  "depth",
  "from",
  "resolution",
  "candidates",
];

/** `ch2`: callers and callees as two tables of edges. */
export const GET_CALL_HIERARCHY: EncoderSpec = {
  id: "ch2",
  tool: "get_call_hierarchy",
  scalars: ["repo", "direction", "depth", "depth_reached", "caller_count", "callee_count"],
  tables: [
    { tag: "c", key: "callers", columns: _EDGE, intern: ["file", "id", "from"] },
    { tag: "e", key: "callees", columns: _EDGE, intern: ["file", "id", "from"] },
  ],
};
