import type { GrammarSpec } from "../language_spec.ts";
import { R_COMPLEXITY } from "../complexity/scripting.ts";

/** A binding `name <- value`, `name <<- value` or `name = value`. */
function binding(value: string, capture: string, predicates = ""): string {
  return `(binary_operator lhs: (identifier) @name operator: ["<-" "<<-" "="] rhs: ${value})
  ${capture} ${predicates}`;
}

/**
 * R: a name bound to a `function` (`add <- function(x, y)`) is a function; a top-level
 * UPPER_CASE binding is a constant; `setClass("Person", ...)`, `setRefClass` and
 * `R6Class("Person", ...)` define classes named by their string. Imports: `library(x)`,
 * `require(x)` (packages) and `source("file.R")` (a path). Calls are plain and `pkg::f` calls.
 *
 * Grammar: `tree-sitter-r` from `@cursorless/tree-sitter-wasms`.
 */
export const r: GrammarSpec = {
  id: "r",
  extensions: [".r", ".rprofile"],
  grammar: "r",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-r.wasm",
  definitions: `
${binding("(function_definition body: (_) @body)", "@definition.function")}
(program ${binding("(_) @_value", "@definition.constant", `(#match? @name "^[A-Z][A-Z0-9_.]+$")`)})
(call function: (identifier) @_define arguments: (arguments . (argument value: (string
  (string_content) @name))) (#any-of? @_define "setClass" "setRefClass" "R6Class"))
  @definition.class
`,
  imports: `
(call function: (identifier) @_library arguments: (arguments . (argument value:
  [(identifier) @import.source (string (string_content) @import.source)]))
  (#any-of? @_library "library" "require" "requireNamespace" "source")) @import
`,
  calls: `
((call function: (identifier) @name) @reference.call
  (#not-any-of? @name "library" "require" "source" "function"))
(call function: (namespace_operator lhs: (identifier) @receiver rhs: (identifier) @name))
  @reference.call
`,
  docComments: { nodeTypes: ["comment"] },
  resolver: "path",
  complexity: R_COMPLEXITY,
};
