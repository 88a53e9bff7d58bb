import type { GrammarSpec } from "../language_spec.ts";
import { CSHARP_SEMANTICS } from "../semantics/jvm.ts";
import { CSHARP_COMPLEXITY } from "../complexity/jvm.ts";

/**
 * C#: `class` declarations are classes; interfaces, structs, enums, records and delegates are
 * types. Methods, constructors and local functions are functions (methods inside a type). `const` and `static readonly` fields are constants. Namespaces (block and file-scoped)
 * only qualify names. Attribute lists are decorators; doc comments are `///` or `/** *\/` comments
 * directly above the declaration (the XML tags are kept as written). `using` directives are
 * imports; calls are invocations (`a.B()`, `a?.B()`, `B<T>()`) and `new T(...)`.
 */
export const csharp: GrammarSpec = {
  id: "csharp",
  extensions: [".cs"],
  grammar: "c_sharp",
  definitions: `
(namespace_declaration name: (_) @name) @namespace
(file_scoped_namespace_declaration name: (_) @name) @namespace
(class_declaration name: (identifier) @name body: (declaration_list) @body) @definition.class
(interface_declaration name: (identifier) @name body: (declaration_list) @body) @definition.type
(struct_declaration name: (identifier) @name body: (declaration_list) @body) @definition.type
(enum_declaration name: (identifier) @name body: (enum_member_declaration_list) @body)
  @definition.type
(record_declaration name: (identifier) @name) @definition.type
(record_declaration body: (declaration_list) @body) @definition.type
(delegate_declaration name: (identifier) @name) @definition.type
(method_declaration name: (identifier) @name) @definition.function
(method_declaration body: (_) @body) @definition.function
(constructor_declaration name: (identifier) @name) @definition.function
(constructor_declaration body: (_) @body) @definition.function
(local_function_statement name: (identifier) @name body: (_) @body) @definition.function
(field_declaration (modifier) @_const
  (variable_declaration (variable_declarator . (identifier) @name)) (#eq? @_const "const"))
  @definition.constant
(field_declaration (modifier) @_static (modifier) @_readonly
  (variable_declaration (variable_declarator . (identifier) @name))
  (#eq? @_static "static") (#eq? @_readonly "readonly")) @definition.constant
(class_declaration (attribute_list) @decorator) @definition.class
(interface_declaration (attribute_list) @decorator) @definition.type
(struct_declaration (attribute_list) @decorator) @definition.type
(enum_declaration (attribute_list) @decorator) @definition.type
(record_declaration (attribute_list) @decorator) @definition.type
(delegate_declaration (attribute_list) @decorator) @definition.type
(method_declaration (attribute_list) @decorator) @definition.function
(constructor_declaration (attribute_list) @decorator) @definition.function
`,
  imports: `
(using_directive (identifier) @import.source) @import
(using_directive (qualified_name) @import.source) @import
`,
  calls: `
(invocation_expression function: (identifier) @name) @reference.call
(invocation_expression function: (generic_name . (identifier) @name)) @reference.call
(invocation_expression function: (member_access_expression
  expression: (_) @receiver name: (identifier) @name)) @reference.call
(invocation_expression function: (member_access_expression
  expression: (_) @receiver name: (generic_name . (identifier) @name))) @reference.call
(invocation_expression function: (conditional_access_expression
  condition: (_) @receiver (member_binding_expression name: (identifier) @name))) @reference.call
(object_creation_expression type: (identifier) @name) @reference.call
(object_creation_expression type: (qualified_name (identifier) @name .)) @reference.call
(object_creation_expression type: (generic_name . (identifier) @name)) @reference.call
`,
  docComments: { nodeTypes: ["comment"], prefixes: ["///", "/**"] },
  semantics: CSHARP_SEMANTICS,
  complexity: CSHARP_COMPLEXITY,
};
