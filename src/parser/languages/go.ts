import type { GrammarSpec } from "../language_spec.ts";
import { GO_SEMANTICS } from "../semantics/go.ts";
import { GO_COMPLEXITY } from "../complexity/systems.ts";

/**
 * Go: `func` → function; methods → method qualified by their receiver type (`Server.Start`, parent
 * the type when it is declared in the same file); every `type X ...` (struct, interface, alias,
 * func type) → type; interface method specs → method of the interface; a struct's named fields →
 * field of its type (`Server.Addr`; a field of a multi-name declaration `X, Y int` is its name
 * alone; embedded fields are not symbols); top-level `const` → constant, top-level `var` →
 * variable (each name of `var a, b T` and `const x, y = 1, 2`, the name alone). Functions without a body (assembly stubs) are kept. Doc comments: the `//` comments
 * directly above (above the `type`/`const` keyword for an ungrouped declaration).
 */
export const go: GrammarSpec = {
  id: "go",
  extensions: [".go"],
  grammar: "go",
  // (A second `name:` of a spec matches no `name:` field in this grammar build: unnamed here.)
  definitions: `
(function_declaration name: (identifier) @name) @definition.function
(function_declaration body: (block) @body) @definition.function
(method_declaration
  receiver: (parameter_list (parameter_declaration
    type: [(type_identifier) @scope
      (pointer_type (type_identifier) @scope)
      (generic_type type: (type_identifier) @scope)
      (pointer_type (generic_type type: (type_identifier) @scope))]))
  name: (field_identifier) @name) @definition.method
(method_declaration body: (block) @body) @definition.method
(type_declaration . (type_spec name: (type_identifier) @name) .) @definition.type
(type_declaration . (type_alias name: (type_identifier) @name) .) @definition.type
(type_declaration "(" (type_spec name: (type_identifier) @name) @definition.type)
(type_declaration "(" (type_alias name: (type_identifier) @name) @definition.type)
(method_spec name: (field_identifier) @name) @definition.method
(source_file (const_declaration (const_spec . name: (identifier) @name . "=") @definition.constant))
(source_file (const_declaration (const_spec . name: (identifier) @name . type: (_)) @definition.constant))
(source_file (const_declaration (const_spec . name: (identifier) @name .) @definition.constant))
(source_file (const_declaration (const_spec
  (identifier) @name @definition.constant . (identifier))))
(source_file (const_declaration (const_spec
  (identifier) . (identifier) @name @definition.constant)))
(source_file (var_declaration (var_spec . name: (identifier) @name . "=") @definition.variable))
(source_file (var_declaration (var_spec . name: (identifier) @name . type: (_)) @definition.variable))
(source_file (var_declaration (var_spec
  (identifier) @name @definition.variable . (identifier))))
(source_file (var_declaration (var_spec
  (identifier) . (identifier) @name @definition.variable)))
(type_spec type: (struct_type (field_declaration_list
  (field_declaration . name: (field_identifier) @name . type: (_)) @definition.field)))
(type_spec type: (struct_type (field_declaration_list (field_declaration
  (field_identifier) @name @definition.field . (field_identifier)))))
(type_spec type: (struct_type (field_declaration_list (field_declaration
  (field_identifier) . (field_identifier) @name @definition.field))))
`,
  imports: `
(import_spec path: (_) @import.source) @import
`,
  calls: `
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (selector_expression operand: (_) @receiver
  field: (field_identifier) @name)) @reference.call
`,
  docComments: {
    nodeTypes: ["comment"],
    wrapperTypes: ["const_declaration", "type_declaration", "var_declaration"],
  },
  resolver: "go",
  semantics: GO_SEMANTICS,
  complexity: GO_COMPLEXITY,
};
