import type { GrammarSpec } from "../language_spec.ts";

/** Definitions common to CSS and SCSS (the SCSS grammar extends the CSS one). */
export const CSS_DEFINITIONS = `
(rule_set (selectors) @name (block) @body) @definition.class
(declaration (property_name) @name (#match? @name "^--")) @definition.constant
(keyframes_statement (keyframes_name) @name (keyframe_block_list) @body) @definition.type
`;

export const CSS_IMPORTS = `
(import_statement (string_value) @import.source) @import
(import_statement (call_expression (arguments (string_value) @import.source))) @import
`;

/**
 * CSS: a rule set is a `class` named by its selector list (`.btn, .btn-primary > a:hover`),
 * nested rules (inside `@media`, or CSS nesting) included; custom properties (`--main-color`) are
 * constants, scoped by their rule (`:root.--main-color`); `@keyframes` are types. Imports are
 * `@import "x.css"` and `@import url("x.css")`, resolved as paths.
 */
export const css: GrammarSpec = {
  id: "css",
  extensions: [".css"],
  grammar: "css",
  definitions: CSS_DEFINITIONS,
  imports: CSS_IMPORTS,
  docComments: { nodeTypes: ["comment"] },
  resolver: "path",
};
