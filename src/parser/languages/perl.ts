import type { GrammarSpec } from "../language_spec.ts";
import { PERL_COMPLEXITY } from "../complexity/scripting.ts";

/**
 * Perl: `sub name {...}` is a function (a `method` of Corinna's `class` is a method); `package
 * A::B;` and `class A::B` are classes: the statement form's range is the statement (the subs after
 * it are not nested in it), the block form (`package A::B { ... }`) contains its subs. `use constant
 * NAME => ...` and each key of `use constant { A => 1, B => 2 }` is a constant. Doc comments are
 * the `#` lines directly above. Imports are `use`/`no` of a module (`List::Util`, with the
 * `qw(...)` names) and `require Module`; calls are calls of named functions (`f(x)`, `f x`,
 * `A::f(x)`) and method calls (`$obj->m`, `Class->new`).
 *
 * Grammar: tree-sitter-perl/tree-sitter-perl 2.0.0, built by us from its npm source package
 * (`grammars/`, `scripts/build_grammars.sh`): no package publishes it as WebAssembly.
 */
export const perl: GrammarSpec = {
  id: "perl",
  extensions: [".pl", ".pm", ".t"],
  grammar: "perl",
  grammarModule: "codemunch-grammars/tree-sitter-perl.wasm",
  definitions: `
(subroutine_declaration_statement name: (bareword) @name body: (block) @body) @definition.function
(method_declaration_statement name: (bareword) @name body: (block) @body) @definition.method
(package_statement name: (package) @name) @definition.class
(class_statement name: (package) @name) @definition.class
(use_statement module: (package) @_constant (list_expression . (autoquoted_bareword) @name)
  (#eq? @_constant "constant")) @definition.constant
(use_statement module: (package) @_constant
  (anonymous_hash_expression (list_expression (autoquoted_bareword) @name @definition.constant))
  (#eq? @_constant "constant"))
`,
  imports: `
(use_statement module: (package) @import.source (#not-eq? @import.source "constant")) @import
(use_statement module: (package) @import.source
  (quoted_word_list content: (string_content) @import.names)
  (#not-eq? @import.source "constant")) @import
(require_expression (bareword) @import.source) @import
`,
  calls: `
(function_call_expression function: (function) @name) @reference.call
(ambiguous_function_call_expression function: (function) @name) @reference.call
(method_call_expression invocant: (_) @receiver method: (method) @name) @reference.call
`,
  docComments: { nodeTypes: ["comment"] },
  complexity: PERL_COMPLEXITY,
};
