import type { GrammarSpec } from "../language_spec.ts";
import { APEX_COMPLEXITY } from "../complexity/jvm.ts";

/**
 * Salesforce Apex (aheber/tree-sitter-sfapex's `apex` grammar, built by us): classes → class;
 * interfaces, enums and triggers → type; methods and constructors → method; `static final`
 * fields → constant, other fields and properties → field. Annotations (`@IsTest`) are
 * decorators; doc comments are `/**` comments above. SOQL inside brackets is not read for calls.
 */
export const apex: GrammarSpec = {
  id: "apex",
  extensions: [".cls", ".trigger", ".apex"],
  grammar: "apex",
  grammarModule: "codemunch-grammars/tree-sitter-apex.wasm",
  definitions: `
(class_declaration name: (identifier) @name body: (_) @body) @definition.class
(interface_declaration name: (identifier) @name body: (_) @body) @definition.type
(enum_declaration name: (identifier) @name body: (_) @body) @definition.type
(trigger_declaration name: (identifier) @name body: (_) @body) @definition.type
(method_declaration name: (identifier) @name) @definition.function
(method_declaration body: (block) @body) @definition.function
(constructor_declaration name: (identifier) @name body: (_) @body) @definition.function
(field_declaration (modifiers) @_mods
  declarator: (variable_declarator name: (identifier) @name)
  (#match? @_mods "[sS][tT][aA][tT][iI][cC]")
  (#match? @_mods "[fF][iI][nN][aA][lL]")) @definition.constant
(class_body (field_declaration (modifiers)? @_mods
  declarator: (variable_declarator name: (identifier) @name)
  (#not-match? @_mods "[fF][iI][nN][aA][lL]")) @definition.field)
(class_declaration (modifiers (annotation) @decorator)) @definition.class
(method_declaration (modifiers (annotation) @decorator)) @definition.function
`,
  calls: `
(method_invocation object: (_) @receiver name: (identifier) @name) @reference.call
(method_invocation !object name: (identifier) @name) @reference.call
(object_creation_expression type: (type_identifier) @name) @reference.call
`,
  docComments: { nodeTypes: ["block_comment", "line_comment"], prefixes: ["/**"] },
  complexity: APEX_COMPLEXITY,
};
