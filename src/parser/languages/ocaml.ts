import type { GrammarSpec } from "../language_spec.ts";
import { OCAML_COMPLEXITY } from "../complexity/functional.ts";

/** Literal bodies that make a parameterless module-level `let` a constant. */
const _LITERALS = `[(number) (string) (character) (boolean) (sign_expression) (constructor_path)
  (tag) (list_expression) (array_expression) (record_expression) (parenthesized_expression)]`;

/**
 * OCaml: `module M = struct ... end` and functors are classes (like Ruby modules), `class`es
 * classes with their `method`s; `module type` signatures, `type` bindings and `exception`s are
 * types. A `let` binding with parameters, or bound to `fun`/`function`, is a function (a method
 * inside a class or module, and nested under the function whose body defines it), `external`s
 * too, and `val f : a -> b` in a signature a method of it. A parameterless module-level `let`
 * bound to a literal is a constant. Shadowing bindings are duplicates (`~1`, `~2`). `let ... and`
 * bindings after the first start at their `and`. `[@@attributes]` are decorators. Imports:
 * `open M`, `include M` and module aliases `module L = List` (the module path). Calls:
 * applications `f x` and `M.f x` (receiver `M`), method calls `obj#m` (receiver `obj`).
 * Doc comments are `(** ... *)`.
 */
export const ocaml: GrammarSpec = {
  id: "ocaml",
  extensions: [".ml"],
  grammar: "ocaml",
  definitions: `
(module_definition (module_binding name: (module_name) @name
  body: [(structure) (functor)] @body)) @definition.class
(module_definition (module_binding name: (module_name) @name (module_parameter)
  body: (_) @body)) @definition.class
(module_type_definition name: (module_type_name) @name body: (_) @body) @definition.type
(class_definition (class_binding name: (class_name) @name body: (_) @body)) @definition.class
(method_definition name: (method_name) @name body: (_) @body) @definition.method
(type_definition . (type_binding name: (type_constructor) @name) @definition.type) @declaration
(type_definition "and" @declaration . (type_binding name: (type_constructor) @name)
  @definition.type)
(exception_definition (constructor_declaration (constructor_name) @name)) @definition.type

(value_definition . (let_binding pattern: (value_name) @name (parameter) body: (_) @body)
  @definition.function) @declaration
(value_definition . (let_binding pattern: (value_name) @name
  body: [(function_expression) (fun_expression)] @body) @definition.function) @declaration
(value_definition "and" @declaration . (let_binding pattern: (value_name) @name (parameter)
  body: (_) @body) @definition.function)
(value_definition "and" @declaration . (let_binding pattern: (value_name) @name
  body: [(function_expression) (fun_expression)] @body) @definition.function)
(value_definition (let_binding (item_attribute) @decorator) @definition.function)
(compilation_unit (value_definition . (let_binding . pattern: (value_name) @name
  . (type_constructor_path)? . body: ${_LITERALS}) @definition.constant) @declaration)
(structure (value_definition . (let_binding . pattern: (value_name) @name
  . (type_constructor_path)? . body: ${_LITERALS}) @definition.constant) @declaration)
(external (value_name) @name) @definition.function
(external (item_attribute) @decorator) @definition.function
(value_specification (value_name) @name (function_type)) @definition.function
`,
  imports: `
(open_module (module_path) @import.source) @import
(include_module (module_path) @import.source) @import
(module_definition (module_binding body: (module_path) @import.source)) @import
`,
  calls: `
(application_expression function: (value_path . (value_name) @name)) @reference.call
(application_expression function: (value_path (module_path) @receiver (value_name) @name))
  @reference.call
(method_invocation (_) @receiver (method_name) @name) @reference.call
`,
  docComments: {
    nodeTypes: ["comment"],
    prefixes: ["(**"],
    wrapperTypes: ["value_definition", "type_definition"],
  },
  complexity: OCAML_COMPLEXITY,
};
