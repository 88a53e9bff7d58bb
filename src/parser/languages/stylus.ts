import type { ExtractorSpec } from "../language_spec.ts";

/**
 * Stylus, read by our own scanner (`extractors/stylus.ts`): no tree-sitter grammar of Stylus is on
 * npm. `@import "x"` resolves as a path when written out.
 */
export const stylus: ExtractorSpec = {
  id: "stylus",
  extensions: [".styl", ".stylus"],
  extractor: "stylus",
  resolver: "path",
};
