import type { GrammarSpec } from "../language_spec.ts";
import { LUA_COMPLEXITY } from "../complexity/scripting.ts";

/** One bound name, with or without a Lua 5.4 attribute (`local x <const>`, `<close>`). */
const ONE_NAME = `[(variable_list . name: (identifier) @name .)
  (variable_list . name: (identifier) @name . attribute: (attribute) .)]`;

/**
 * Patterns for `<target> = <value>` and `local <target> = <value>` statements directly inside
 * one of `parents`, capturing the statement (with its `local`) as `capture`.
 */
function binding(
  parents: string[],
  target: string,
  value: string,
  capture: string,
  predicates = "",
): string {
  return parents.map((p) => `
(${p} (assignment_statement ${target} ${value}) ${capture} ${predicates})
(${p} (variable_declaration (assignment_statement ${target} ${value})) ${capture} ${predicates})`)
    .join("");
}

/** An assigned function value: `= function(...) ... end` (its body is absent when empty). */
const FUNCTION_VALUE = "(expression_list . value: (function_definition body: (block)? @body) .)";

/** A value that makes an UPPER_CASE or one-letter binding a function, not a constant. */
const NOT_CONSTANT = "^function[^A-Za-z0-9_]";

/**
 * Lua: `function f()`, `local function f()` and `f = function() end` are functions; `function
 * T.f()`, `function T:m()` and `T.f = function() end` are qualified by `T` and are methods. Lua
 * has no classes: a CamelCase or one-letter capitalized name bound to a table constructor at file
 * level (`local Greeter = {}`, `local M = {}`: the class and module table idioms) is a class, so
 * the methods defined on it get it as parent. Constants are the other file-level UPPER_CASE
 * bindings (`local FOO` included; not those bound to a function, which stay functions) and Lua 5.4
 * `<const>` locals at file level. Doc comments are the `--` lines directly
 * above a definition (LDoc `---` included). Imports are `require "x"` / `require("x")` (not
 * calls); calls are plain, field (`a.f()`) and method (`a:f()`) calls.
 *
 * Grammar: `@tree-sitter-grammars/tree-sitter-lua` (its own wasm, ABI 15), not tree-sitter-wasms,
 * whose Lua build mis-parses a file starting with code once the grammar has been used in the
 * process (tests/parser/lua_scanner_test.ts). In this grammar `local function f` is a
 * `function_declaration` (`local` included) and `local x = v` a `variable_declaration` wrapping an
 * `assignment_statement`, so the bindings are anchored on their parent (`chunk` or `block`) for
 * the inner statement of a local not to match as a global.
 */
export const lua: GrammarSpec = {
  id: "lua",
  extensions: [".lua"],
  grammar: "lua",
  grammarModule: "@tree-sitter-grammars/tree-sitter-lua/tree-sitter-lua.wasm",
  definitions: `
(function_declaration name: (identifier) @name) @definition.function
(function_declaration
  name: (dot_index_expression table: (_) @scope field: (identifier) @name)) @definition.function
(function_declaration
  name: (method_index_expression table: (_) @scope method: (identifier) @name))
  @definition.function
(function_declaration body: (block) @body) @definition.function
${binding(["chunk", "block"], ONE_NAME, FUNCTION_VALUE, "@definition.function")}
${
    binding(
      ["chunk", "block"],
      "(variable_list . name: (dot_index_expression table: (_) @scope field: (identifier) @name) .)",
      FUNCTION_VALUE,
      "@definition.function",
    )
  }
${
    binding(
      ["chunk"],
      ONE_NAME,
      "(expression_list . value: (table_constructor) .)",
      "@definition.class",
      `(#match? @name "^[A-Z]([A-Za-z0-9]*[a-z][A-Za-z0-9]*)?$")`,
    )
  }
${
    binding(
      ["chunk"],
      ONE_NAME,
      "(expression_list . value: (_) @_value)",
      "@definition.constant",
      `(#match? @name "^[A-Z][A-Z0-9_]+$") (#not-match? @_value "${NOT_CONSTANT}")`,
    )
  }
(chunk (variable_declaration ${ONE_NAME}) @definition.constant
  (#match? @name "^[A-Z][A-Z0-9_]+$"))
${
    binding(
      ["chunk"],
      ONE_NAME,
      "(expression_list . value: (_) @_value)",
      "@definition.constant",
      `(#match? @name "^[A-Z]$") (#not-match? @_value "^[{]") (#not-match? @_value "${NOT_CONSTANT}")`,
    )
  }
(chunk (variable_declaration
  [(variable_list . name: (identifier) @name . attribute: (attribute (identifier) @_const) .)
   (assignment_statement
     (variable_list . name: (identifier) @name . attribute: (attribute (identifier) @_const) .))])
  @definition.constant (#eq? @_const "const"))
`,
  imports: `
(function_call name: (identifier) @_require
  arguments: (arguments . (string content: (string_content) @import.source) .)
  (#eq? @_require "require")) @import
`,
  calls: `
((function_call name: (identifier) @name) @reference.call
  (#not-eq? @name "require"))
(function_call name: (dot_index_expression table: (_) @receiver field: (identifier) @name))
  @reference.call
(function_call name: (method_index_expression table: (_) @receiver method: (identifier) @name))
  @reference.call
`,
  docComments: { nodeTypes: ["comment"] },
  resolver: "lua",
  complexity: LUA_COMPLEXITY,
};
