import type { LanguageSpec } from "../language_spec.ts";

/** The patterns for one kind of binding statement (`x = ...` or `local x = ...`). */
function binding(statement: string): string {
  return `
(${statement} (variable_list . (variable name: (identifier) @name) .)
  (expression_list . (function_definition body: (block) @body) .)) @definition.function
(${statement} (variable_list . (variable table: (_) @scope field: (identifier) @name) .)
  (expression_list . (function_definition body: (block) @body) .)) @definition.function
(chunk (${statement} (variable_list . (variable name: (identifier) @name) .)
  (expression_list . (table) .)) @definition.class
  (#match? @name "^[A-Z]([A-Za-z0-9]*[a-z][A-Za-z0-9]*)?$"))
(chunk (${statement} (variable_list . (variable name: (identifier) @name) .))
  @definition.constant (#match? @name "^[A-Z][A-Z0-9_]+$"))
(chunk (${statement} (variable_list . (variable name: (identifier) @name) .)
  (expression_list . (_) @_value)) @definition.constant
  (#match? @name "^[A-Z]$") (#not-match? @_value "^[{]"))`;
}

const bindings = ["variable_assignment", "local_variable_declaration"];

/**
 * Lua: `function f()`, `local function f()` and `f = function() end` are functions; `function
 * T.f()`, `function T:m()` and `T.f = function() end` are qualified by `T` and are methods. Lua
 * has no classes: a CamelCase or one-letter capitalized name bound to a table constructor at file
 * level (`local Greeter = {}`, `local M = {}`: the class and module table idioms) is a class, so
 * the methods defined on it get it as parent. Constants are the other file-level UPPER_CASE
 * bindings and Lua 5.4 `<const>` locals at file level. Doc comments are the `--` lines directly
 * above a definition (LDoc `---` included). Imports are `require "x"` / `require("x")` (not
 * calls); calls are plain, field (`a.f()`) and method
 * (`a:f()`) calls. Known defect of the grammar build (tree-sitter-wasms 0.1.13): a file whose
 * first token is code, rather than a comment, can misparse; see tests/parser/lua_scanner_test.ts.
 */
export const lua: LanguageSpec = {
  id: "lua",
  extensions: [".lua"],
  grammar: "lua",
  definitions: `
(function_definition_statement name: (identifier) @name) @definition.function
(function_definition_statement
  name: (variable table: (_) @scope [field: (identifier) method: (identifier)] @name))
  @definition.function
(function_definition_statement body: (block) @body) @definition.function
(local_function_definition_statement name: (identifier) @name) @definition.function
(local_function_definition_statement body: (block) @body) @definition.function
${bindings.map((b) => binding(b)).join("")}
(chunk (local_variable_declaration
  (variable_list . (variable name: (identifier) @name (attribute (identifier) @_const)) .))
  @definition.constant (#eq? @_const "const"))
`,
  imports: `
(call function: (variable name: (identifier) @_require)
  arguments: (argument_list [(string) @import.source (expression_list . (string) @import.source .)])
  (#eq? @_require "require")) @import
`,
  calls: `
((call function: (variable name: (identifier) @name)) @reference.call
  (#not-eq? @name "require"))
(call function: (variable table: (_) @receiver [field: (identifier) method: (identifier)] @name))
  @reference.call
`,
  docComments: { nodeTypes: ["comment"] },
};
