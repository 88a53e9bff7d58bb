import type { GrammarSpec } from "../language_spec.ts";
import { DART_SEMANTICS } from "../semantics/jvm.ts";
import { DART_COMPLEXITY } from "../complexity/jvm.ts";

/** Call selectors: `f()` (bare), `a.f()` / `a?.f()` (receiver `a`), `x.y().f()` (no receiver). */
const _CALLS = `
((identifier) @name . (selector (argument_part)) @reference.call)
((identifier) @receiver .
  (selector [(unconditional_assignable_selector (identifier) @name)
             (conditional_assignable_selector (identifier) @name)]) .
  (selector (argument_part)) @reference.call)
((selector) .
  (selector [(unconditional_assignable_selector (identifier) @name)
             (conditional_assignable_selector (identifier) @name)]) .
  (selector (argument_part)) @reference.call)
`;

/** The signatures a method or top-level function can have, each with its name. */
const _SIGNATURES = `[
  (function_signature name: (identifier) @name)
  (getter_signature name: (identifier) @name)
  (setter_signature name: (identifier) @name)
  (operator_signature (binary_operator) @name)
  (operator_signature ["[]" "[]=" "~" "=="] @name)
  (constructor_signature (identifier) @name . (formal_parameter_list))
  (constant_constructor_signature (identifier) @name . (formal_parameter_list))
  (factory_constructor_signature (identifier) @name . (formal_parameter_list))
]`;

/**
 * Dart: `class` is a class; `mixin`, `enum`, named `extension`s and `typedef`s are types; an
 * unnamed `extension on T` scopes its members under `T`. Functions, getters, setters, operators
 * and constructors are methods inside those (a named constructor `C.named` is `C.named`, the
 * unnamed one `C.C`), functions at top level; local functions nest. The grammar keeps a
 * function's signature and body as siblings: the body is captured as `@body` so the symbol spans
 * both. `const` and `static`/top-level `final` declarations are constants (the first name of a
 * declaration list). Annotations (`@override`) are decorators. `import`/`export`/`part` URIs are
 * imports with the `show`/`hide` names. Calls: `f()`, `a.f()`, `a?.f()` (receiver `a`; a longer
 * chain's receiver is not captured). Doc comments are `///` and `/** *\/`.
 */
export const dart: GrammarSpec = {
  id: "dart",
  extensions: [".dart"],
  grammar: "dart",
  definitions: `
(class_definition name: (identifier) @name body: (_) @body) @definition.class
(class_definition (annotation) @decorator) @definition.class
(mixin_declaration (identifier) @name (class_body) @body) @definition.type
(enum_declaration name: (identifier) @name body: (_) @body) @definition.type
(extension_declaration name: (identifier) @name body: (_) @body) @definition.type
(extension_declaration !name class: (_) @name body: (_) @body) @container
(type_alias . (type_identifier) @name) @definition.type

((method_signature ${_SIGNATURES}) @definition.function . (function_body) @body)
((annotation) @decorator . (method_signature) @definition.function)
((annotation) @decorator . (annotation) . (method_signature) @definition.function)
(declaration ${_SIGNATURES}) @definition.function
((annotation) @decorator . (declaration [(function_signature) (getter_signature)
  (setter_signature) (operator_signature)]) @definition.function)
(program ([(function_signature name: (identifier) @name)
  (getter_signature name: (identifier) @name) (setter_signature name: (identifier) @name)])
  @definition.function . (function_body) @body)
(local_function_declaration (lambda_expression
  parameters: (function_signature name: (identifier) @name) body: (_) @body))
  @definition.function

(program [(const_builtin) (final_builtin)] @declaration .
  [(type_identifier) (void_type)]? .
  (static_final_declaration_list . (static_final_declaration . (identifier) @name))
    @definition.constant)
(declaration "static"? [(const_builtin) (final_builtin)] @_const
  (static_final_declaration_list . (static_final_declaration . (identifier) @name))
  (#eq? @_const "const")) @definition.constant
(declaration "static" (final_builtin)
  (static_final_declaration_list . (static_final_declaration . (identifier) @name)))
  @definition.constant
`,
  imports: `
(import_or_export (library_import (import_specification (configurable_uri (uri) @import.source))))
  @import
(import_or_export (library_import (import_specification (configurable_uri (uri) @import.source)
  (combinator (identifier) @import.name)))) @import
(import_or_export (library_export (configurable_uri (uri) @import.source))) @import
(import_or_export (library_export (configurable_uri (uri) @import.source)
  (combinator (identifier) @import.name))) @import
(part_directive (uri) @import.source) @import
(part_of_directive (uri) @import.source) @import
`,
  calls: _CALLS,
  docComments: { nodeTypes: ["documentation_comment", "comment"], prefixes: ["///", "/**"] },
  resolver: "dart",
  semantics: DART_SEMANTICS,
  complexity: DART_COMPLEXITY,
};
