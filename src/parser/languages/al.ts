import type { ExtractorSpec } from "../language_spec.ts";

/**
 * AL (Business Central), read by our own scanner (`extractors/al.ts`): no tree-sitter grammar or
 * parser of AL is on npm.
 */
export const al: ExtractorSpec = {
  id: "al",
  extensions: [".al"],
  extractor: "al",
};
