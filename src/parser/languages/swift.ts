import type { GrammarSpec } from "../language_spec.ts";
import { SWIFT_SEMANTICS } from "../semantics/jvm.ts";
import { SWIFT_COMPLEXITY } from "../complexity/jvm.ts";

/**
 * Swift: `class` and `actor` declarations are classes; `struct`, `enum`, `protocol` and
 * `typealias` are types. An `extension Foo` is a container: its members are qualified by `Foo`
 * and become methods of it. `func`, `init`, `deinit` and protocol requirements are functions
 * (methods inside a type or extension). Constants are `let` bindings at file level and
 * `static let` in a type body (instance `let`s are stored properties, not constants). Attributes
 * (`@available(...)`, `@MainActor`) are decorators; doc comments are `///` and `/** *\/`. Imports
 * are the module path (`import struct A.B` gives `A.B`); calls are plain, member (`a.b()`,
 * `a?.b()`) and initializer (`Foo(...)`) calls,
 * with arguments in parentheses or a trailing closure (not subscripts).
 */
export const swift: GrammarSpec = {
  id: "swift",
  extensions: [".swift"],
  grammar: "swift",
  definitions: `
(class_declaration declaration_kind: ["class" "actor"] name: (type_identifier) @name)
  @definition.class
(class_declaration declaration_kind: ["struct" "enum"] name: (type_identifier) @name)
  @definition.type
(class_declaration declaration_kind: "extension" name: (user_type) @name) @container
(class_declaration body: (_) @body) @definition.class
(class_declaration (modifiers (attribute) @decorator)) @definition.class
(protocol_declaration name: (type_identifier) @name body: (protocol_body) @body) @definition.type
(protocol_declaration (modifiers (attribute) @decorator)) @definition.type
(typealias_declaration name: (type_identifier) @name) @definition.type
(function_declaration name: (simple_identifier) @name) @definition.function
(function_declaration body: (function_body) @body) @definition.function
(function_declaration (modifiers (attribute) @decorator)) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.function
(init_declaration name: "init" @name) @definition.function
(init_declaration body: (function_body) @body) @definition.function
(init_declaration (modifiers (attribute) @decorator)) @definition.function
(deinit_declaration "deinit" @name body: (function_body) @body) @definition.function
(source_file (property_declaration (value_binding_pattern mutability: "let")
  name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant)
(class_body (property_declaration (modifiers (property_modifier) @_static)
  (value_binding_pattern mutability: "let")
  name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant
  (#eq? @_static "static"))
`,
  imports: `
(import_declaration (identifier) @import.source) @import
`,
  // A subscript `a[i]` is a call_expression whose arguments are in brackets: not a call.
  calls: `
((call_expression . (simple_identifier) @name (call_suffix) @_args) @reference.call
  (#not-match? @_args "^[[]"))
((call_expression . (navigation_expression target: (_) @receiver
  suffix: (navigation_suffix suffix: (simple_identifier) @name)) (call_suffix) @_args)
  @reference.call (#not-match? @_args "^[[]"))
`,
  docComments: { nodeTypes: ["comment", "multiline_comment"], prefixes: ["///", "/**"] },
  semantics: SWIFT_SEMANTICS,
  complexity: SWIFT_COMPLEXITY,
};
