import type { GrammarSpec } from "../language_spec.ts";
import { HASKELL_COMPLEXITY } from "../complexity/functional.ts";

/**
 * Haskell: a top-level function is its type signature (`area :: Shape -> Double`), its range
 * extended to the first equation that follows it; a top-level binding without arguments
 * (`total = ...`) is a function too. `data`, `newtype` and `type` are types; a `class` is a
 * class and its signatures are methods. Functions without a signature and instance methods are
 * not symbols (each equation would be one). Doc comments are Haddock `-- |` lines. Imports name
 * modules (`Data.Map`, with imported names); calls are applications of a named function.
 *
 * Grammar: `tree-sitter-haskell` from `@cursorless/tree-sitter-wasms`.
 */
export const haskell: GrammarSpec = {
  id: "haskell",
  extensions: [".hs", ".lhs"],
  grammar: "haskell",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-haskell.wasm",
  definitions: `
(declarations (signature name: (variable) @name) @definition.function)
(declarations (signature name: (variable) @name) @definition.function
  . [(function name: (variable) @_equation) (bind name: (variable) @_equation)] @body
  (#eq? @_equation @name))
(declarations . (bind name: (variable) @name) @definition.function)
(declarations (signature name: (variable) @_signature) . (bind name: (variable) @name)
  @definition.function (#not-eq? @_signature @name))
(declarations [(function) (bind) (data_type) (newtype) (type_synomym) (class) (instance) (pragma)] @_previous
  . (bind name: (variable) @name) @definition.function)
(data_type name: (name) @name) @definition.type
(newtype name: (name) @name) @definition.type
(type_synomym name: (name) @name) @definition.type
(class name: (name) @name) @definition.class
(class_declarations (signature name: (variable) @name) @definition.method)
`,
  imports: `
(import module: (module) @import.source) @import
(import module: (module) @import.source
  names: (import_list (import_name [(variable) (name)] @import.name))) @import
`,
  calls: `(apply function: (variable) @name) @reference.call`,
  docComments: { nodeTypes: ["haddock", "comment"] },
  complexity: HASKELL_COMPLEXITY,
};
