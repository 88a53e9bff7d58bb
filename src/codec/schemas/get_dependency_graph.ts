import type { EncoderSpec } from "../spec.ts";

/** `dg2`: the edges around a file as one table (importer → imported, with the hop). */
export const GET_DEPENDENCY_GRAPH: EncoderSpec = {
  id: "dg2",
  tool: "get_dependency_graph",
  scalars: ["repo", "file", "direction", "depth", "depth_reached", "node_count", "edge_count"],
  tables: [{ tag: "e", key: "edges", columns: ["from", "to", "depth"], intern: ["from", "to"] }],
};
