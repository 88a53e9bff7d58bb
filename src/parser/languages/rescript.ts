import type { GrammarSpec } from "../language_spec.ts";
import { RESCRIPT_COMPLEXITY } from "../complexity/functional.ts";

/** The places a module-level declaration sits: the file, or a module's `{...}` block. */
function topLevel(pattern: string): string {
  return `(source_file ${pattern})
(module_binding definition: (block ${pattern}))`;
}

/**
 * ReScript: `module M = {...}` is a class, like an OCaml module, and `module type S` a type; a `let` bound
 * to a function, or declared with a function type (`let f: int => int` in a `.resi` interface), is a
 * function (a method inside a module); any other module-level `let` a constant;
 * `type` bindings types; `external` bindings functions. `/** ... *\/` comments above are docs;
 * `@decorators` are decorators. Imports are `open M` and `include M`, resolved to `M.res` (file names are unique in a ReScript
 * project); calls are applications of a
 * name (`f(x)`) or of a module's value (`Js.Math.sqrt(x)`, receiver `Js.Math`).
 *
 * Grammar: `tree-sitter-rescript` from `tree-sitter-wasms` (rescript-lang/tree-sitter-rescript).
 */
export const rescript: GrammarSpec = {
  id: "rescript",
  extensions: [".res", ".resi"],
  grammar: "rescript",
  definitions: `
(module_declaration (module_binding name: (module_identifier) @name
  definition: (block) @body)) @definition.class
(module_declaration "type" (module_binding name: (module_identifier) @name)) @definition.type
${
    topLevel(`(let_declaration (let_binding pattern: (value_identifier) @name
  body: (function body: (_) @body))) @definition.function`)
  }
${
    topLevel(`(let_declaration (let_binding pattern: (value_identifier) @name
  (type_annotation (function_type)))) @definition.function`)
  }
${
    topLevel(`(let_declaration (let_binding pattern: (value_identifier) @name
  body: [(number) (string) (template_string) (true) (false) (array) (list) (record) (variant)
    (polyvar) (unary_expression)])) @definition.constant`)
  }
(type_declaration (type_binding name: (type_identifier) @name)) @definition.type
(external_declaration (value_identifier) @name) @definition.function
(decorator) @decorator
`,
  imports: `
(open_statement (module_identifier) @import.source) @import
(open_statement (module_identifier_path) @import.source) @import
(include_statement (module_identifier) @import.source) @import
(include_statement (module_identifier_path) @import.source) @import
`,
  calls: `
(call_expression function: (value_identifier) @name) @reference.call
(call_expression function: (value_identifier_path [(module_identifier) (module_identifier_path)]
  @receiver (value_identifier) @name)) @reference.call
`,
  resolver: "module_file",
  docComments: { nodeTypes: ["comment"], prefixes: ["/**"] },
  complexity: RESCRIPT_COMPLEXITY,
};
