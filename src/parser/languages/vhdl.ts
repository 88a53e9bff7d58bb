import type { ExtractorSpec } from "../language_spec.ts";

/**
 * VHDL, read by our own scanner (`extractors/vhdl.ts`): no tree-sitter grammar or parser of VHDL
 * is on npm. `library`/`use` name design libraries, not files: unresolved.
 */
export const vhdl: ExtractorSpec = {
  id: "vhdl",
  extensions: [".vhd", ".vhdl"],
  extractor: "vhdl",
};
