import type { GrammarSpec } from "../language_spec.ts";
import { JVM_SEMANTICS } from "../semantics/jvm.ts";
import { JAVA_COMPLEXITY } from "../complexity/jvm.ts";

const _DECLARATIONS: [string, string][] = [
  ["class_declaration", "class"],
  ["record_declaration", "class"],
  ["interface_declaration", "type"],
  ["enum_declaration", "type"],
  ["annotation_type_declaration", "type"],
  ["method_declaration", "function"],
  ["constructor_declaration", "function"],
];

/**
 * Fields that are not `static final` (those are constants), each declarator of `int a, b;` its own
 * symbol: with no modifiers (the type is the first child), or modifiers lacking `static` or
 * `final`. A single declarator's symbol is the whole declaration; one of several, its declarator.
 */
const _FIELDS = [
  ["(field_declaration . type: (_)", ""],
  ["(field_declaration (modifiers) @_mods type: (_)", ' (#not-match? @_mods "\\\\bstatic\\\\b")'],
  ["(field_declaration (modifiers) @_mods type: (_)", ' (#not-match? @_mods "\\\\bfinal\\\\b")'],
].flatMap(([head, test]) => [
  `${head} . declarator: (variable_declarator name: (identifier) @name) .${test}) @definition.field`,
  `${head} declarator: (variable_declarator name: (identifier) @name) @definition.field
    . declarator: (variable_declarator)${test})`,
  `${head} declarator: (variable_declarator) .
    declarator: (variable_declarator name: (identifier) @name) @definition.field${test})`,
]).join("\n") + `
(enum_body (enum_constant name: (identifier) @name) @definition.constant)
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.constant
`;

/**
 * Java: `class` and `record` → class; `interface`, `enum` and `@interface` → type; methods and
 * constructors → method (qualified by their class, nested classes included); `static final`
 * fields → constant, other fields → field, enum constants and interface constants → constant (each
 * qualified by its type). Annotations are decorators (kept out of the signature); doc comments are
 * `/**` block comments above the declaration.
 */
export const java: GrammarSpec = {
  id: "java",
  extensions: [".java"],
  grammar: "java",
  definitions: `
(class_declaration name: (identifier) @name body: (_) @body) @definition.class
(record_declaration name: (identifier) @name body: (_) @body) @definition.class
(interface_declaration name: (identifier) @name body: (_) @body) @definition.type
(enum_declaration name: (identifier) @name body: (_) @body) @definition.type
(annotation_type_declaration name: (identifier) @name body: (_) @body) @definition.type
(method_declaration name: (identifier) @name) @definition.function
(method_declaration body: (block) @body) @definition.function
(constructor_declaration name: (identifier) @name body: (_) @body) @definition.function
(compact_constructor_declaration name: (identifier) @name body: (_) @body) @definition.function
(field_declaration (modifiers) @_mods
  declarator: (variable_declarator name: (identifier) @name)
  (#match? @_mods "static")
  (#match? @_mods "final")) @definition.constant
` + _FIELDS + _DECLARATIONS.map(([node, kind]) =>
    `(${node} (modifiers [(marker_annotation) (annotation)] @decorator)) @definition.${kind}`
  ).join("\n"),
  imports: `
(import_declaration (scoped_identifier) @import.source) @import
(import_declaration (scoped_identifier) @import.source (asterisk) @import.name) @import
`,
  calls: `
(method_invocation object: (_) @receiver name: (identifier) @name) @reference.call
(method_invocation !object name: (identifier) @name) @reference.call
(object_creation_expression type: [(type_identifier) @name (scoped_type_identifier) @name
  (generic_type (type_identifier) @name)]) @reference.call
`,
  docComments: {
    nodeTypes: ["block_comment", "line_comment"],
    prefixes: ["/**"],
    detachedPrefixes: ["/**"],
  },
  resolver: "jvm",
  semantics: JVM_SEMANTICS,
  complexity: JAVA_COMPLEXITY,
};
