import type { GrammarSpec } from "../language_spec.ts";
import { PHP_SEMANTICS } from "../semantics/scripting.ts";
import { PHP_COMPLEXITY } from "../complexity/scripting.ts";

/**
 * PHP: `class` declarations are classes; interfaces, traits and enums are types. Functions and
 * methods are functions (methods inside a class, interface, trait or enum); a function declared
 * inside a function nests under it. Constants are `const` declarations (file or class level) and
 * top-level `define('NAME', ...)` calls. Namespaces do not qualify names: the usual
 * `namespace X;` statement form has no range to nest in. `#[...]` attribute groups are
 * decorators; doc comments are `/** *\/` docblocks. Imports are `use` declarations (the
 * qualified name; a group `use A\{B, C}` is one import of `A` naming `B` and `C`) and
 * `require`/`include` (the path expression as written, e.g. `__DIR__ . '/x.php'`). Calls are
 * function, method (`->`, `?->`), static (`::`) calls and `new X(...)`.
 */
export const php: GrammarSpec = {
  id: "php",
  extensions: [".php", ".phtml", ".php8", ".php7", ".inc"],
  grammar: "php",
  definitions: `
(class_declaration name: (name) @name body: (declaration_list) @body) @definition.class
(class_declaration attributes: (attribute_list (attribute_group) @decorator)) @definition.class
(interface_declaration name: (name) @name body: (declaration_list) @body) @definition.type
(interface_declaration attributes: (attribute_list (attribute_group) @decorator))
  @definition.type
(trait_declaration name: (name) @name body: (declaration_list) @body) @definition.type
(trait_declaration attributes: (attribute_list (attribute_group) @decorator)) @definition.type
(enum_declaration name: (name) @name body: (enum_declaration_list) @body) @definition.type
(enum_declaration attributes: (attribute_list (attribute_group) @decorator)) @definition.type
(function_definition name: (name) @name body: (compound_statement) @body) @definition.function
(function_definition attributes: (attribute_list (attribute_group) @decorator))
  @definition.function
(method_declaration name: (name) @name) @definition.function
(method_declaration body: (compound_statement) @body) @definition.function
(method_declaration attributes: (attribute_list (attribute_group) @decorator))
  @definition.function
(const_declaration . (const_element . (name) @name)) @definition.constant
(const_declaration (visibility_modifier) . (const_element . (name) @name)) @definition.constant
(program (expression_statement (function_call_expression
  function: (name) @_define
  arguments: (arguments . (argument (string (string_content) @name))))
  (#eq? @_define "define")) @definition.constant)
`,
  imports: `
(namespace_use_declaration (namespace_use_clause (qualified_name) @import.source)) @import
(namespace_use_declaration (namespace_use_clause . (name) @import.source)) @import
(namespace_use_declaration (namespace_name) @import.source
  (namespace_use_group (namespace_use_group_clause . (namespace_name) @import.name))) @import
(require_expression (_) @import.source) @import
(require_once_expression (_) @import.source) @import
(include_expression (_) @import.source) @import
(include_once_expression (_) @import.source) @import
`,
  calls: `
(function_call_expression function: (name) @name) @reference.call
(function_call_expression function: (qualified_name (name) @name .)) @reference.call
(member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(nullsafe_member_call_expression object: (_) @receiver name: (name) @name) @reference.call
(scoped_call_expression scope: (_) @receiver name: (name) @name) @reference.call
(object_creation_expression (name) @name) @reference.call
(object_creation_expression (qualified_name (name) @name .)) @reference.call
`,
  docComments: { nodeTypes: ["comment"], prefixes: ["/**"] },
  resolver: "php",
  semantics: PHP_SEMANTICS,
  complexity: PHP_COMPLEXITY,
};
