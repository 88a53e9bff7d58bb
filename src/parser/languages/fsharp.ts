import type { GrammarSpec } from "../language_spec.ts";
import { FSHARP_COMPLEXITY } from "../complexity/functional.ts";

/**
 * F# (`tree-sitter-fsharp`'s own wasm, ionide/tree-sitter-fsharp): `let f x = ...` → function,
 * a `let` without arguments → constant (at module level only); `type` definitions (records,
 * unions, classes, interfaces, abbreviations) → type, their `member`s → method; `module X` (and
 * nested `module X =`) qualify names. `///` XML doc comments are docstrings; `[<...>]` attributes
 * are decorators; `open X` is an import.
 */
export const fsharp: GrammarSpec = {
  id: "fsharp",
  extensions: [".fs", ".fsi", ".fsx"],
  grammar: "fsharp",
  grammarModule: "tree-sitter-fsharp/tree-sitter-fsharp.wasm",
  definitions: `
(named_module name: (long_identifier) @name) @namespace
(module_defn (identifier) @name) @namespace
(declaration_expression (function_or_value_defn
  (function_declaration_left . (identifier) @name) body: (_) @body)) @definition.function
(declaration_expression (function_or_value_defn
  (value_declaration_left (identifier_pattern (long_identifier_or_op (identifier) @name)))
  body: (_) @body)) @definition.constant
(declaration_expression (attributes) @decorator
  (function_or_value_defn (function_declaration_left))) @definition.function
(declaration_expression (attributes) @decorator
  (function_or_value_defn (value_declaration_left))) @definition.constant
(type_definition (_ (type_name type_name: (identifier) @name))) @definition.type
(member_defn (method_or_prop_defn name: (property_or_ident method: (identifier) @name))) @definition.function
(member_defn (method_or_prop_defn name: (property_or_ident . (identifier) @name .))) @definition.function
(member_defn (property_or_ident (identifier) @name)) @definition.field
`,
  imports: `
(import_decl (long_identifier) @import.source) @import
`,
  calls: `
(application_expression . (long_identifier_or_op (identifier) @name)) @reference.call
(application_expression . (long_identifier_or_op (long_identifier (identifier) @receiver (identifier) @name .))) @reference.call
`,
  docComments: { nodeTypes: ["xml_doc", "line_comment"], prefixes: ["///"] },
  complexity: FSHARP_COMPLEXITY,
};
