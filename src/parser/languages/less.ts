import type { ExtractorSpec } from "../language_spec.ts";

/**
 * Less, read by our own scanner (`extractors/less.ts`): no tree-sitter grammar of Less is on npm
 * and the SCSS grammar does not read it. `@import "x.less"` resolves as a path.
 */
export const less: ExtractorSpec = {
  id: "less",
  extensions: [".less"],
  extractor: "less",
  resolver: "path",
};
