import type { GrammarSpec } from "../language_spec.ts";
import { GROOVY_COMPLEXITY } from "../complexity/jvm.ts";

/**
 * Groovy and Gradle scripts: `class` is a class; `interface`, `enum` and `trait`-like
 * declarations the grammar knows are types; methods (with a body) are methods; a top-level
 * `def f(...)` is a function. Doc comments are `/**` blocks and `//` lines directly above.
 * Imports are `import a.b.C` (resolved like Java's); calls are method invocations and
 * parenthesis-free calls (`println "x"`, Gradle's `id 'java'`).
 *
 * Grammar: `tree-sitter-groovy` (its own wasm, ABI 14).
 */
export const groovy: GrammarSpec = {
  id: "groovy",
  extensions: [".groovy", ".gradle", ".gvy", ".gy", ".gsh"],
  fileNames: ["Jenkinsfile"],
  grammar: "groovy",
  grammarModule: "tree-sitter-groovy/tree-sitter-groovy.wasm",
  definitions: `
(class_declaration name: (identifier) @name body: (_) @body) @definition.class
(interface_declaration name: (identifier) @name body: (_) @body) @definition.type
(enum_declaration name: (identifier) @name body: (_) @body) @definition.type
(method_declaration name: (identifier) @name body: (_) @body) @definition.method
(constructor_declaration name: (identifier) @name body: (_) @body) @definition.method
(function_definition name: (identifier) @name body: (_) @body) @definition.function
(juxt_function_call name: (identifier) @_task args: (argument_list . (identifier) @name)
  (#eq? @_task "task")) @definition.function
(method_invocation object: (identifier) @_tasks name: (identifier) @_register
  arguments: (argument_list . (string_literal (string_fragment) @name)) body: (closure) @body
  (#eq? @_tasks "tasks") (#any-of? @_register "register" "create")) @definition.function
`,
  imports: `(import_declaration (scoped_identifier) @import.source) @import`,
  calls: `
(method_invocation object: (_) @receiver name: (identifier) @name) @reference.call
(method_invocation !object name: (identifier) @name) @reference.call
(juxt_function_call name: (identifier) @name) @reference.call
`,
  docComments: { nodeTypes: ["block_comment", "line_comment"], prefixes: ["/**", "//"] },
  resolver: "jvm",
  complexity: GROOVY_COMPLEXITY,
};
