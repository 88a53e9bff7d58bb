import type { GrammarSpec } from "../language_spec.ts";
import { GLEAM_COMPLEXITY } from "../complexity/functional.ts";

/**
 * Gleam: `fn` is a function; `type` (custom types) and type aliases are types; `const` is a
 * constant. Doc comments are `///` lines directly above. Imports are `import a/b.{x}` (module
 * paths, with the unqualified names); calls are calls of a named function or of a module's
 * (`io.println` as `println` on `io`).
 *
 * Grammar: `tree-sitter-gleam` from `@cursorless/tree-sitter-wasms`.
 */
export const gleam: GrammarSpec = {
  id: "gleam",
  extensions: [".gleam"],
  grammar: "gleam",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-gleam.wasm",
  definitions: `
(function name: (identifier) @name body: (function_body) @body) @definition.function
(type_definition (type_name name: (type_identifier) @name) (data_constructors) @body)
  @definition.type
(type_alias (type_name name: (type_identifier) @name)) @definition.type
(constant name: (identifier) @name) @definition.constant
`,
  imports: `
(import module: (module) @import.source) @import
(import module: (module) @import.source imports: (unqualified_imports
  (unqualified_import name: (_) @import.name))) @import
`,
  calls: `
(function_call function: (identifier) @name) @reference.call
(function_call function: (field_access record: (_) @receiver field: (label) @name))
  @reference.call
`,
  docComments: { nodeTypes: ["statement_comment"], prefixes: ["///"] },
  complexity: GLEAM_COMPLEXITY,
};
