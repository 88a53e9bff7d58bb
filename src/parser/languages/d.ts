import type { GrammarSpec } from "../language_spec.ts";
import { D_COMPLEXITY } from "../complexity/systems.ts";

/**
 * D (gdamore/tree-sitter-d, built by us): classes → class; structs, unions, interfaces, enums,
 * `alias` declarations and templates (`template`, `mixin template`) → type (functions inside
 * them are methods); functions, constructors (`this`) and destructors (`~this`) → function;
 * manifest constants (`enum X = 1`) and `immutable`/`const` variables at module or aggregate level
 * → constant, other variables there → variable (`field` inside an aggregate); enum members →
 * constant. Locals are not symbols. `import a.b;` is an import (unresolved: no resolver maps D's
 * module names to files yet), calls
 * are `f()` and `a.b.f()`. Doc comments are `///` lines and `/**` or `/++` blocks.
 */
export const d: GrammarSpec = {
  id: "d",
  extensions: [".d", ".di"],
  grammar: "d",
  grammarModule: "codemunch-grammars/tree-sitter-d.wasm",
  definitions: `
(class_declaration (identifier) @name (aggregate_body) @body) @definition.class
(struct_declaration (identifier) @name) @definition.type
(union_declaration (identifier) @name) @definition.type
(interface_declaration (identifier) @name) @definition.type
(enum_declaration (identifier) @name) @definition.type
(enum_member (identifier) @name) @definition.constant
(template_declaration (identifier) @name) @definition.type
(alias_declaration (alias_initializer (identifier) @name)) @definition.type
(alias_declaration (type) . (identifier) @name) @definition.type
(function_declaration (identifier) @name (function_body) @body) @definition.function
(constructor (this) @name (function_body) @body) @definition.function
(destructor (this) @name (function_body) @body) @definition.function
(module_def (manifest_constant (manifest_declarator (identifier) @name)) @definition.constant)
(aggregate_body (manifest_constant (manifest_declarator (identifier) @name)) @definition.constant)
(module_def (variable_declaration (type (type_ctor [(immutable) (const)])) @declaration . (declarator (identifier) @name) @definition.constant))
(module_def (variable_declaration (type (type_ctor [(immutable) (const)])) (declarator) @_previous (declarator (identifier) @name) @definition.constant))
(module_def (variable_declaration (type . [(int) (double) (identifier) (float) (long) (bool) (string) (char) (uint) (ulong) (size_t) (real) (byte) (ubyte) (short) (ushort) (dchar) (wchar)]) @declaration . (declarator (identifier) @name) @definition.variable))
(module_def (variable_declaration (type . [(int) (double) (identifier) (float) (long) (bool) (string) (char) (uint) (ulong) (size_t) (real) (byte) (ubyte) (short) (ushort) (dchar) (wchar)]) (declarator) @_previous (declarator (identifier) @name) @definition.variable))
(aggregate_body (variable_declaration (type) @declaration . (declarator (identifier) @name) @definition.field))
(aggregate_body (variable_declaration (declarator) @_previous (declarator (identifier) @name) @definition.field))
`,
  imports: `
(import_declaration (imported (module_fqn) @import.source)) @import
`,
  calls: `
(call_expression (identifier) @name) @reference.call
(call_expression (property_expression (_) @receiver (identifier) @name .)) @reference.call
`,
  docComments: { nodeTypes: ["comment"], prefixes: ["///", "/**", "/++"] },
  complexity: D_COMPLEXITY,
};
