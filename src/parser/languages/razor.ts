import type { ExtractorSpec } from "../language_spec.ts";

/**
 * Razor views and components, read by our own scanner (`extractors/razor.ts`): no Razor grammar is
 * on npm. `@using`/`@model` name namespaces and types: unresolved.
 */
export const razor: ExtractorSpec = {
  id: "razor",
  extensions: [".cshtml", ".razor"],
  extractor: "razor",
};
