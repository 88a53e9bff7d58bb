import type { GrammarSpec } from "../language_spec.ts";
import { RUBY_SEMANTICS } from "../semantics/scripting.ts";
import { RUBY_COMPLEXITY } from "../complexity/scripting.ts";

/**
 * Ruby: `class` and `module` are classes (`class A::B` is `B` qualified by `A`); `def` is a
 * function (a method inside a class or module, `def self.x` included; `def Foo.x` is qualified by
 * `Foo`); `alias new old` and `alias_method :new, :old` are functions (methods) named `new`. Each
 * name of `attr_accessor`, `attr_reader` and `attr_writer` is a field of its class (`C.name`).
 * Constants are assignments to a constant name at file, class or module level. Ruby has no decorators. Doc comments are the `#`
 * lines directly above a definition. `require`, `require_relative` and `load` with a string
 * argument are imports (not calls); every other method call is a call, with or without
 * parentheses.
 */
export const ruby: GrammarSpec = {
  id: "ruby",
  extensions: [".rb", ".rake", ".gemspec", ".ru"],
  fileNames: ["Rakefile", "Gemfile", "Guardfile", "Vagrantfile"],
  grammar: "ruby",
  definitions: `
(class name: (constant) @name) @definition.class
(class name: (scope_resolution scope: (_) @scope name: (_) @name)) @definition.class
(class superclass: (superclass) @_super . (body_statement) @body) @definition.class
(class name: (_) . (body_statement) @body) @definition.class
(module name: (constant) @name) @definition.class
(module name: (scope_resolution scope: (_) @scope name: (_) @name)) @definition.class
(module name: (_) . (body_statement) @body) @definition.class
(method name: (_) @name) @definition.function
(method body: (body_statement) @body) @definition.function
(singleton_method name: (_) @name) @definition.function
(singleton_method object: (constant) @scope) @definition.function
(singleton_method body: (body_statement) @body) @definition.function
(call !receiver method: (identifier) @_attr arguments: (argument_list
  [(simple_symbol) @name (string (string_content) @name)] @definition.field)
  (#any-of? @_attr "attr_accessor" "attr_reader" "attr_writer"))
(alias name: (_) @name) @definition.function
(call !receiver method: (identifier) @_alias arguments: (argument_list
  . [(simple_symbol) @name (string (string_content) @name)])
  (#eq? @_alias "alias_method")) @definition.function
(program (assignment left: (constant) @name) @definition.constant)
(class (body_statement (assignment left: (constant) @name) @definition.constant))
(module (body_statement (assignment left: (constant) @name) @definition.constant))
`,
  imports: `
(call !receiver method: (identifier) @_method
  arguments: (argument_list . (string) @import.source .)
  (#match? @_method "^(require|require_relative|load)$")) @import
`,
  calls: `
((call !receiver method: (_) @name) @reference.call
  (#not-match? @name "^(require|require_relative|load)$"))
(call receiver: (_) @receiver method: (_) @name) @reference.call
`,
  // The first statement of a class or module body is inside `body_statement`, and the comment
  // above it is a sibling of that body.
  docComments: { nodeTypes: ["comment"], wrapperTypes: ["body_statement"] },
  // `attr_accessor :name`: the symbol's colon is no part of the name.
  nameTrim: /^:/,
  resolver: "ruby",
  semantics: RUBY_SEMANTICS,
  complexity: RUBY_COMPLEXITY,
};
