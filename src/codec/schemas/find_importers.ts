import type { EncoderSpec } from "../spec.ts";

/** `fi3`: the importers of a file as one table. */
export const FIND_IMPORTERS: EncoderSpec = {
  id: "fi3",
  tool: "find_importers",
  scalars: ["repo", "file_path", "importer_count"],
  tables: [{
    tag: "i",
    key: "importers",
    columns: ["file_path", "file", "specifier", "names", "line", "hops", "via", "has_importers"],
    intern: ["file_path", "file", "specifier", "via"],
  }],
};
