import type { ExtractorSpec } from "../language_spec.ts";

/**
 * Verse (Unreal Editor for Fortnite), read by our own scanner (`extractors/verse.ts`): no
 * grammar or parser of Verse is public. `using { /Path }` names a module: unresolved.
 */
export const verse: ExtractorSpec = {
  id: "verse",
  extensions: [".verse"],
  extractor: "verse",
};
