import type { GrammarSpec } from "../language_spec.ts";

/** A definition directly in a module, or made `LOCAL` there. */
function inModule(pattern: string): string {
  return `(module ${pattern})
(module (local_definition ${pattern}))`;
}

/**
 * TLA+: a `---- MODULE M ----` (and a module nested in it) is a class, like OCaml and Ruby
 * modules; its operator definitions (`Init == ...`, `Add(a, b) == ...`), function definitions
 * (`f[x \in S] == ...`) and named `THEOREM`s/`LEMMA`s are its methods, module instances
 * (`M == INSTANCE Foo`) classes; `CONSTANTS` and `VARIABLES` are constants (the module's
 * parameters and state). Definitions local to a `LET` are not symbols. The `\*` and `(* *)`
 * comments directly above are docs. Imports are the modules of `EXTENDS` and `INSTANCE`, resolved to `M.tla`; calls
 * are applications of a named operator (`Fact(n - 1)`).
 *
 * Grammar: `tree-sitter-tlaplus` from `tree-sitter-wasms` (tlaplus-community/tree-sitter-tlaplus).
 */
export const tlaplus: GrammarSpec = {
  id: "tlaplus",
  extensions: [".tla"],
  grammar: "tlaplus",
  definitions: `
(module name: (identifier) @name) @definition.class
${inModule("(operator_definition name: (_) @name definition: (_) @body) @definition.function")}
${
    inModule(
      "(function_definition name: (identifier) @name definition: (_) @body) @definition.function",
    )
  }
${inModule("(module_definition name: (identifier) @name) @definition.class")}
(module (theorem name: (identifier) @name statement: (_) @body) @definition.function)
(module (constant_declaration (identifier) @name @definition.constant))
(module (constant_declaration (operator_declaration name: (_) @name) @definition.constant))
(module (variable_declaration (identifier) @name @definition.constant))
`,
  imports: `
(extends (identifier_ref) @import.source @import)
(instance (identifier_ref) @import.source) @import
`,
  calls: `
(bound_op name: (identifier_ref) @name) @reference.call
`,
  resolver: "module_file",
  docComments: { nodeTypes: ["comment", "block_comment"] },
};
