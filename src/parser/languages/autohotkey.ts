import type { ExtractorSpec } from "../language_spec.ts";

/**
 * AutoHotkey v1 and v2, read by our own scanner (`extractors/autohotkey.ts`): no tree-sitter
 * grammar or parser of AutoHotkey is on npm. `#Include lib\\x.ahk` resolves as a path.
 */
export const autohotkey: ExtractorSpec = {
  id: "autohotkey",
  extensions: [".ahk", ".ahk2"],
  extractor: "autohotkey",
  resolver: "path",
};
