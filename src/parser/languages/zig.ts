import type { GrammarSpec } from "../language_spec.ts";
import { ZIG_COMPLEXITY } from "../complexity/systems.ts";

/**
 * Zig: `fn` declarations are functions (methods inside a container); a `const` bound to a
 * `struct`, `union` or `enum` (or `opaque`) is a `type`, and an `error{...}` set too; other
 * `const` declarations at file or container level holding a literal or an expression of literals
 * are constants (`const x = @import(...)` is an import, `const f = a.b` an alias: neither).
 * `test "..."` blocks are not symbols. `@import("x")` is an import (the file or package path);
 * calls are `f()` and `a.b.f()` (receiver `a.b`); builtins (`@intCast`) are not calls.
 * Doc comments are `///` lines.
 */
export const zig: GrammarSpec = {
  id: "zig",
  extensions: [".zig"],
  grammar: "zig",
  definitions: `
(function_declaration name: (identifier) @name body: (block) @body) @definition.function
(function_declaration name: (identifier) @name !body) @definition.function
(variable_declaration "const" (identifier) @name
  [(struct_declaration) (union_declaration) (enum_declaration) (opaque_declaration)
   (error_set_declaration)]) @definition.type
(source_file (variable_declaration "const" (identifier) @name
    [(integer) (float) (string) (multiline_string) (binary_expression) (unary_expression)
     (character)]) @definition.constant)
(struct_declaration (variable_declaration "const" (identifier) @name
    [(integer) (float) (string) (multiline_string) (binary_expression) (unary_expression)
     (character)]) @definition.constant)
(union_declaration (variable_declaration "const" (identifier) @name
    [(integer) (float) (string) (multiline_string) (binary_expression) (unary_expression)
     (character)]) @definition.constant)
(enum_declaration (variable_declaration "const" (identifier) @name
    [(integer) (float) (string) (multiline_string) (binary_expression) (unary_expression)
     (character)]) @definition.constant)
`,
  imports: `
(builtin_function (builtin_identifier) @_b (arguments (string) @import.source)
  (#eq? @_b "@import")) @import
`,
  calls: `
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression object: (_) @receiver member: (identifier) @name))
  @reference.call
`,
  docComments: { nodeTypes: ["comment"], prefixes: ["///"] },
  resolver: "path",
  complexity: ZIG_COMPLEXITY,
};
