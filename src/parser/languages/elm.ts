import type { GrammarSpec } from "../language_spec.ts";
import { ELM_COMPLEXITY } from "../complexity/functional.ts";

/**
 * Elm: a top-level value declaration is a function, its signature starting at its type
 * annotation when one precedes it (`area : Shape -> Float`); `type` (custom types) and
 * `type alias` are types; a `port` is a function. Doc comments are `{-| -}` blocks directly
 * above. Imports are `import A.B exposing (x, Y)` (modules, with exposed names); calls are
 * applications of a named function.
 *
 * Grammar: `tree-sitter-elm` from `@cursorless/tree-sitter-wasms` (ABI 14; the tree-sitter-wasms
 * build is ABI 12, which web-tree-sitter 0.25 refuses).
 */
export const elm: GrammarSpec = {
  id: "elm",
  extensions: [".elm"],
  grammar: "elm",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-elm.wasm",
  definitions: `
(file (value_declaration functionDeclarationLeft: (function_declaration_left
  . (lower_case_identifier) @name) body: (_) @body) @definition.function)
(file (type_annotation name: (lower_case_identifier) @_annotated) @declaration
  . (value_declaration functionDeclarationLeft: (function_declaration_left
    . (lower_case_identifier) @name)) @definition.function
  (#eq? @_annotated @name))
(type_declaration name: (upper_case_identifier) @name) @definition.type
(type_alias_declaration name: (upper_case_identifier) @name) @definition.type
(port_annotation name: (lower_case_identifier) @name) @definition.function
`,
  imports: `
(import_clause moduleName: (upper_case_qid) @import.source) @import
(import_clause moduleName: (upper_case_qid) @import.source exposing: (exposing_list
  [(exposed_value (lower_case_identifier) @import.name)
   (exposed_type (upper_case_identifier) @import.name)])) @import
`,
  calls: `
(function_call_expr target: (value_expr name: (value_qid . (lower_case_identifier) @name .)))
  @reference.call
(function_call_expr target: (value_expr name: (value_qid (upper_case_identifier) @receiver
  . (dot) . (lower_case_identifier) @name .))) @reference.call
`,
  docComments: { nodeTypes: ["block_comment"], prefixes: ["{-|"] },
  complexity: ELM_COMPLEXITY,
};
