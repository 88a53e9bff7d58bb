import type { ExtractorSpec } from "../language_spec.ts";

/**
 * COBOL, fixed form and free form, read by our own scanner (`extractors/cobol.ts`): the only
 * tree-sitter grammar on npm (`tree-sitter-cobol` 0.0.1) publishes C source too large to build
 * here (`LANGUAGES.md`), and no parser of COBOL is on npm. `COPY name` resolves to the copybook
 * of that name (`name.cpy` first).
 */
export const cobol: ExtractorSpec = {
  id: "cobol",
  extensions: [".cpy", ".cbl", ".cob", ".cobol"],
  extractor: "cobol",
  resolver: "module_file",
};
