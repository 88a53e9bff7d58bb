import type { GrammarSpec } from "../language_spec.ts";
import { CSS_DEFINITIONS, CSS_IMPORTS } from "./css.ts";

/**
 * SCSS: everything CSS has, plus `@mixin` and `@function` as functions, `%placeholder` selectors
 * as classes and top-level `$variables` as constants. Imports: `@import`, `@use` and `@forward`
 * (partials `_x.scss` are not looked up: they stay unresolved unless the path is written out).
 * Calls are `@include mixin(...)`.
 *
 * Grammar: tree-sitter-grammars/tree-sitter-scss 1.0.0, built by us from its npm source package
 * (`grammars/`, `scripts/build_grammars.sh`; the older serenadeai grammar in
 * `@cursorless/tree-sitter-wasms` lost whole files to one error). A `%placeholder` rule is a rule
 * set like any other (named `%placeholder`).
 *
 * What the grammar cannot parse (a nested selector list whose items start with a combinator,
 * `> .a,\n> .b { }`; a negated variable, `-$x`; `@if $a or $b` with hyphenated names, whose `or`
 * and `for` the lexer takes for keywords) is read by our SCSS scanner (`errorScanner`,
 * `extractors/scss.ts`, the same kinds): the rules, mixins and functions inside an `ERROR` node
 * that the queries did not match.
 */
export const scss: GrammarSpec = {
  id: "scss",
  extensions: [".scss"],
  grammar: "scss",
  grammarModule: "codemunch-grammars/tree-sitter-scss.wasm",
  definitions: CSS_DEFINITIONS + `
(mixin_statement name: (identifier) @name (block) @body) @definition.function
(function_statement name: (identifier) @name (block) @body) @definition.function
(stylesheet (declaration (property_name) @name (#match? @name "^[$]")) @definition.constant)
`,
  imports: CSS_IMPORTS + `
(use_statement (string_value) @import.source) @import
(forward_statement (string_value) @import.source) @import
`,
  calls: `(include_statement (identifier) @name) @reference.call`,
  docComments: { nodeTypes: ["comment", "js_comment"] },
  resolver: "path",
  errorScanner: "scss",
};
