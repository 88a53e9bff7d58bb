import type { ExtractorSpec } from "../language_spec.ts";

/**
 * MATLAB and Octave, read by our own scanner (`extractors/matlab.ts`): `tree-sitter-matlab` on npm
 * ships a grammar whose C++ scanner does not link in web-tree-sitter. `.m` is Objective-C's
 * extension: a `.m` file is MATLAB (or Octave) when its first line is a `%` comment, a `#`
 * comment followed by a space or `#` (C's directives have none), `function` or `classdef`.
 */
export const matlab: ExtractorSpec = {
  id: "matlab",
  extensions: [],
  detect: {
    extensions: [".m"],
    content: /^(?:[ \t]*\r?\n)*[ \t]*(?:%|#(?:#|[ \t]|\r?\n)|function\b|classdef\b)/,
  },
  extractor: "matlab",
};
