import type { LanguageSpec } from "../language_spec.ts";

/**
 * Perl: `sub name {...}` is a function; `package A::B;` is a class (its range is the statement:
 * the subs after it are not nested in it); `use constant NAME => ...` is a constant. Doc comments
 * are the `#` lines directly above. Imports are `use`/`no` of a module (`List::Util`, with the
 * `qw(...)` names); calls are calls of named functions.
 *
 * Grammar: `tree-sitter-perl` from `@cursorless/tree-sitter-wasms`.
 */
export const perl: LanguageSpec = {
  id: "perl",
  extensions: [".pl", ".pm", ".t"],
  grammar: "perl",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-perl.wasm",
  definitions: `
(function_definition name: (identifier) @name body: (block) @body) @definition.function
(package_statement (package_name) @name) @definition.class
(use_constant_statement constant: (identifier) @name) @definition.constant
`,
  imports: `
(use_no_statement package_name: (package_name) @import.source) @import
(use_no_statement package_name: (package_name) @import.source
  (word_list_qw (list_item) @import.name)) @import
`,
  calls: `
(call_expression_with_bareword function_name: (identifier) @name) @reference.call
`,
  docComments: { nodeTypes: ["comments"] },
};
