import type { GrammarSpec } from "../language_spec.ts";
import { KOTLIN_SEMANTICS } from "../semantics/jvm.ts";
import { KOTLIN_COMPLEXITY } from "../complexity/jvm.ts";

/**
 * The grammar attaches a comment that follows the package header or the imports to them (as the
 * last child of `package_header` or of the last `import_header`), so the KDoc of a file's first
 * declaration is not its sibling: these patterns capture it as `@doc`.
 */
function docAfterHeader(definition: string): string {
  return `
((package_header (multiline_comment) @doc .) . ${definition} (#match? @doc "^/[*][*]"))
((import_list (import_header (multiline_comment) @doc .) .) . ${definition}
  (#match? @doc "^/[*][*]"))`;
}

/**
 * Kotlin: `class` (data, sealed, inner, abstract...) and `object` declarations are classes;
 * `interface`, `enum class` and `typealias` are types. `fun` is a function (a method inside a
 * class, object or interface; functions of a `companion object` belong to the enclosing class,
 * since the companion has no symbol of its own). An extension function `fun Foo.bar()` is
 * qualified by its receiver type (`Foo.bar`, a method). `const val` properties are constants.
 * Annotations are decorators: in `modifiers`, or, where the grammar parses annotations with
 * arguments before a top-level declaration as a separate annotated expression, that expression
 * (one decorator holding all of them). Doc comments are KDoc `/** *\/` blocks. Imports are the
 * imported name (`a.b.C`; `a.b.*` gives `a.b` with the name `*`); calls are plain, navigation
 * (`a.b()`, `a?.b()`) and constructor calls, including a superclass constructor in a class header.
 */
export const kotlin: GrammarSpec = {
  id: "kotlin",
  extensions: [".kt", ".kts"],
  grammar: "kotlin",
  // The kind of a node is fixed by its first match: the `enum` and `interface` patterns precede
  // the `class` pattern, which an enum class also matches.
  definitions: `
(class_declaration "enum" (type_identifier) @name) @definition.type
${docAfterHeader('(class_declaration "enum") @definition.type')}
(class_declaration "enum" (enum_class_body) @body) @definition.type
(class_declaration (modifiers (annotation) @decorator) "enum") @definition.type
((prefix_expression . (annotation)) @decorator . (class_declaration "enum") @definition.type)
(class_declaration "interface" (type_identifier) @name) @definition.type
${docAfterHeader('(class_declaration "interface") @definition.type')}
(class_declaration "interface" (class_body) @body) @definition.type
(class_declaration (modifiers (annotation) @decorator) "interface") @definition.type
((prefix_expression . (annotation)) @decorator . (class_declaration "interface") @definition.type)
(class_declaration "class" (type_identifier) @name) @definition.class
${docAfterHeader('(class_declaration "class") @definition.class')}
(class_declaration "class" (class_body) @body) @definition.class
(class_declaration (modifiers (annotation) @decorator) "class") @definition.class
((prefix_expression . (annotation)) @decorator . (class_declaration "class") @definition.class)
(object_declaration (type_identifier) @name) @definition.class
${docAfterHeader("(object_declaration) @definition.class")}
(object_declaration (class_body) @body) @definition.class
(object_declaration (modifiers (annotation) @decorator)) @definition.class
((prefix_expression . (annotation)) @decorator . (object_declaration) @definition.class)
(type_alias (type_identifier) @name) @definition.type
${docAfterHeader("(type_alias) @definition.type")}
(function_declaration (simple_identifier) @name) @definition.function
${docAfterHeader("(function_declaration) @definition.function")}
(function_declaration (function_body) @body) @definition.function
(function_declaration (user_type . (type_identifier) @scope) . "." . (simple_identifier))
  @definition.function
(function_declaration (modifiers (annotation) @decorator)) @definition.function
((prefix_expression . (annotation)) @decorator . (function_declaration) @definition.function)
(property_declaration (modifiers (property_modifier) @_const)
  (variable_declaration (simple_identifier) @name) (#eq? @_const "const")) @definition.constant
${docAfterHeader("(property_declaration) @definition.constant")}
`,
  imports: `
(import_header (identifier) @import.source) @import
(import_header (identifier) @import.source (wildcard_import) @import.name) @import
`,
  calls: `
(call_expression . (simple_identifier) @name) @reference.call
(call_expression . (navigation_expression (_) @receiver .
  (navigation_suffix (simple_identifier) @name))) @reference.call
(delegation_specifier (constructor_invocation (user_type (type_identifier) @name .))
  @reference.call)
`,
  docComments: {
    nodeTypes: ["multiline_comment", "line_comment"],
    prefixes: ["/**"],
  },
  resolver: "jvm",
  semantics: KOTLIN_SEMANTICS,
  complexity: KOTLIN_COMPLEXITY,
};
