import type { ExtractorSpec } from "../language_spec.ts";

/**
 * Tcl, read by our own scanner (`extractors/tcl.ts`): no tree-sitter grammar or parser of Tcl is
 * on npm. `source file.tcl` resolves as a path; `package require` stays external.
 */
export const tcl: ExtractorSpec = {
  id: "tcl",
  extensions: [".tcl", ".tm"],
  extractor: "tcl",
  resolver: "path",
};
