import type { ExtractorSpec } from "../language_spec.ts";

/**
 * Nim, read by our own scanner (`extractors/nim.ts`): no tree-sitter grammar or parser of Nim is
 * on npm. `import util` resolves to `util.nim` (beside the file, else the shortest path of that
 * name); `std/...` and paths stay external.
 */
export const nim: ExtractorSpec = {
  id: "nim",
  extensions: [".nim", ".nims", ".nimble"],
  extractor: "nim",
  resolver: "module_file",
};
