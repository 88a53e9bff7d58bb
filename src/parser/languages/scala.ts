import type { GrammarSpec } from "../language_spec.ts";
import { SCALA_SEMANTICS } from "../semantics/jvm.ts";
import { SCALA_COMPLEXITY } from "../complexity/jvm.ts";

/**
 * Scala (2 syntax; the grammar of tree-sitter-wasms 0.1.13 predates Scala 3 `enum`/`given` and
 * indentation syntax): `class` (case, abstract, sealed) and `object` definitions are classes;
 * `trait` and `type` aliases are types. `def` (with or without a body) is a function, a method
 * inside a class, object or trait; a `def` inside a `def` nests under it. Constants are `val`s
 * with an upper-case initial (the Scala style for constants) in an object or at top level. The
 * signature ends before the `=` of a definition. Annotations are decorators (the grammar has none
 * on objects and traits); doc comments are Scaladoc `/** *\/` blocks. Imports are the path, with
 * the selectors of `{A, B => C}` as names (the wildcard `_` as written); calls are applications
 * `f(x)`, `a.f(x)`, `f[T](x)` and alphanumeric infix calls `a f b` (receiver `a`).
 */
export const scala: GrammarSpec = {
  id: "scala",
  extensions: [".scala", ".sc"],
  grammar: "scala",
  definitions: `
(class_definition name: (identifier) @name) @definition.class
(class_definition body: (template_body) @body) @definition.class
(class_definition (annotation) @decorator) @definition.class
(object_definition name: (identifier) @name) @definition.class
(object_definition body: (template_body) @body) @definition.class
(trait_definition name: (identifier) @name) @definition.type
(trait_definition body: (template_body) @body) @definition.type
(type_definition name: (type_identifier) @name) @definition.type
(function_definition name: (identifier) @name) @definition.function
(function_definition "=" @body) @definition.function
(function_definition (annotation) @decorator) @definition.function
(function_declaration name: (identifier) @name) @definition.function
(function_declaration (annotation) @decorator) @definition.function
(compilation_unit (val_definition pattern: (identifier) @name) @definition.constant
  (#match? @name "^[A-Z]"))
(object_definition body: (template_body
  (val_definition pattern: (identifier) @name) @definition.constant)
  (#match? @name "^[A-Z]"))
`,
  imports: `
(import_declaration path: (_) @import.source) @import
(import_declaration path: (_) @import.source
  (import_selectors [(identifier) @import.name (renamed_identifier name: (identifier) @import.name)]))
  @import
(import_declaration path: (_) @import.source (wildcard) @import.name) @import
`,
  calls: `
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression value: (_) @receiver field: (identifier) @name))
  @reference.call
(call_expression function: (generic_function function: (identifier) @name)) @reference.call
(call_expression function: (generic_function
  function: (field_expression value: (_) @receiver field: (identifier) @name))) @reference.call
(infix_expression left: (_) @receiver operator: (identifier) @name) @reference.call
`,
  docComments: { nodeTypes: ["comment"], prefixes: ["/**"] },
  resolver: "jvm",
  semantics: SCALA_SEMANTICS,
  complexity: SCALA_COMPLEXITY,
};
