import type { GrammarSpec } from "../language_spec.ts";
import { GDSCRIPT_COMPLEXITY } from "../complexity/scripting.ts";

/**
 * GDScript (Godot): `func` is a function (a method inside an inner `class`); `class_name X` and
 * inner `class X:` are classes (the `class_name` symbol is its statement: the file's functions
 * are not nested in it); `enum` is a type; `const` is a constant; a `signal` is a function (it is
 * declared with parameters and emitted like a call). Doc comments are the `##` lines directly
 * above. Imports: `extends` (a class name or a `res://` path) and `preload`/`load` of a path,
 * `res://` being the repository root. Calls are plain and method calls.
 *
 * Grammar: `tree-sitter-gdscript` from `@cursorless/tree-sitter-wasms`.
 */
export const gdscript: GrammarSpec = {
  id: "gdscript",
  extensions: [".gd"],
  grammar: "gdscript",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-gdscript.wasm",
  definitions: `
(function_definition name: (name) @name body: (body) @body) @definition.function
(class_definition name: (name) @name body: (body) @body) @definition.class
(class_name_statement (name) @name) @definition.class
(enum_definition name: (name) @name) @definition.type
(const_statement name: (name) @name) @definition.constant
(signal_statement (name) @name) @definition.function
`,
  imports: `
(extends_statement [(type (identifier) @import.source) (string) @import.source]) @import
(call . (identifier) @_load (arguments . (string) @import.source)
  (#any-of? @_load "preload" "load")) @import
`,
  calls: `
((call . (identifier) @name) @reference.call (#not-any-of? @name "preload" "load"))
(attribute (identifier) @receiver . (attribute_call (identifier) @name)) @reference.call
`,
  docComments: { nodeTypes: ["comment"], prefixes: ["##"] },
  resolver: "path",
  complexity: GDSCRIPT_COMPLEXITY,
};
