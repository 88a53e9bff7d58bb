import type { ExtractorSpec } from "../language_spec.ts";

/**
 * Sass's indented syntax, read by our own scanner (`extractors/sass.ts`): the SCSS grammar reads
 * only `.scss`. `@import`/`@use` resolve as paths when written out.
 */
export const sass: ExtractorSpec = {
  id: "sass",
  extensions: [".sass"],
  extractor: "sass",
  resolver: "path",
};
