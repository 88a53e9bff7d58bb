import type { ExtractorSpec } from "../language_spec.ts";

/**
 * Assembly (GNU as, NASM, MASM), read by our own scanner (`extractors/asm.ts`): no tree-sitter
 * grammar of assembly is on npm. `.include "x"` resolves as a path.
 */
export const asm: ExtractorSpec = {
  id: "asm",
  extensions: [".asm", ".s", ".nasm"],
  extractor: "asm",
  resolver: "path",
};
