import type { EncoderSpec } from "../spec.ts";

/** `dc3`: the cycles (number, size, shortest path) and their members as two tables. */
export const GET_DEPENDENCY_CYCLES: EncoderSpec = {
  id: "dc3",
  tool: "get_dependency_cycles",
  scalars: ["repo", "cycle_count"],
  tables: [
    { tag: "y", key: "cycles", columns: ["cycle", "length", "path"] },
    { tag: "f", key: "cycle_files", columns: ["cycle", "file"], intern: ["file"] },
  ],
};
