import type { ExtractorSpec } from "../language_spec.ts";

/**
 * Ada (`.ads` specs, `.adb` bodies), read by our own scanner (`extractors/ada.ts`): no tree-sitter
 * grammar or parser of Ada is on npm. `with A.B;` names a library unit (not a file): unresolved.
 */
export const ada: ExtractorSpec = {
  id: "ada",
  extensions: [".adb", ".ads", ".ada"],
  extractor: "ada",
};
