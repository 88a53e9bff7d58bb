import type { LanguageSpec } from "../language_spec.ts";
import { CSS_DEFINITIONS, CSS_IMPORTS } from "./css.ts";

/**
 * SCSS: everything CSS has, plus `@mixin` and `@function` as functions, `%placeholder` selectors
 * as classes and top-level `$variables` as constants. Imports: `@import`, `@use` and `@forward`
 * (partials `_x.scss` are not looked up: they stay unresolved unless the path is written out).
 * Calls are `@include mixin(...)`.
 *
 * Grammar: `tree-sitter-scss` from `@cursorless/tree-sitter-wasms`.
 */
export const scss: LanguageSpec = {
  id: "scss",
  extensions: [".scss"],
  grammar: "scss",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-scss.wasm",
  definitions: CSS_DEFINITIONS + `
(mixin_statement (name) @name (block) @body) @definition.function
(function_statement (name) @name (block) @body) @definition.function
(placeholder (name) @name (block) @body) @definition.class
(stylesheet (declaration (variable_name) @name) @definition.constant)
`,
  imports: CSS_IMPORTS + `
(use_statement (string_value) @import.source) @import
(forward_statement (string_value) @import.source) @import
`,
  calls: `(include_statement (identifier) @name) @reference.call`,
  docComments: { nodeTypes: ["comment", "single_line_comment"] },
  resolver: "path",
};
