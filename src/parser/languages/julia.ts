import type { GrammarSpec } from "../language_spec.ts";
import { JULIA_COMPLEXITY } from "../complexity/scripting.ts";

/**
 * Julia: `function f(...) ... end` and the short form `f(x) = ...` are functions (`Base.show`
 * qualified by `Base`); `struct` (mutable or not) and `abstract type` are types; `macro` is a
 * template; `const X = ...` is a constant; a `module` qualifies the names inside it. Docstrings
 * are the string literal written directly above a definition. Imports: `using`/`import` (modules)
 * and `include("file.jl")` (a path). Calls are plain and qualified calls.
 *
 * Grammar: `tree-sitter-julia` (its own wasm, ABI 14; a large one, loaded only for `.jl` files).
 */
export const julia: GrammarSpec = {
  id: "julia",
  extensions: [".jl"],
  grammar: "julia",
  grammarModule: "tree-sitter-julia/tree-sitter-julia.wasm",
  definitions: `
(function_definition (signature (call_expression . (identifier) @name))) @definition.function
(function_definition (signature (call_expression . (field_expression (_) @scope . (identifier) @name .))))
  @definition.function
(function_definition (signature (typed_expression (call_expression . (identifier) @name))))
  @definition.function
(assignment . (call_expression . (identifier) @name) . (operator) @_eq (#eq? @_eq "="))
  @definition.function
(struct_definition (type_head [(identifier) @name (binary_expression . (identifier) @name)
  (parametrized_type_expression . (identifier) @name)])) @definition.type
(abstract_definition (type_head [(identifier) @name (binary_expression . (identifier) @name)]))
  @definition.type
(macro_definition (signature (call_expression . (identifier) @name))) @definition.template
(const_statement (assignment . (identifier) @name)) @definition.constant
(module_definition name: (identifier) @name) @namespace
`,
  imports: `
(using_statement [(identifier) @import.source (scoped_identifier) @import.source
  (selected_import . [(identifier) (scoped_identifier)] @import.source)]) @import
(import_statement [(identifier) @import.source (scoped_identifier) @import.source
  (selected_import . [(identifier) (scoped_identifier)] @import.source)]) @import
(call_expression . (identifier) @_include (argument_list . (string_literal (content)
  @import.source)) (#eq? @_include "include")) @import
`,
  calls: `
(signature) @reference.call
(assignment . (call_expression) @reference.call . (operator) @_eq (#eq? @_eq "="))
((call_expression . (identifier) @name) @reference.call (#not-eq? @name "include"))
(call_expression . (field_expression (_) @receiver . (identifier) @name .)) @reference.call
`,
  docComments: { nodeTypes: ["string_literal", "line_comment"] },
  resolver: "path",
  complexity: JULIA_COMPLEXITY,
};
