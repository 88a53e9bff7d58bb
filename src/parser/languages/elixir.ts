import type { GrammarSpec } from "../language_spec.ts";
import { ELIXIR_COMPLEXITY } from "../complexity/functional.ts";

const _FUNCTIONS = `"def" "defp" "defdelegate"`;
const _MACROS = `"defmacro" "defmacrop" "defguard" "defguardp"`;
/** Module attributes with a meaning of their own (docs, types, callbacks, compiler options). */
const _RESERVED_ATTRIBUTES = `"doc" "moduledoc" "typedoc" "spec" "type" "typep" "opaque"
  "callback" "macrocallback" "optional_callbacks" "impl" "behaviour" "derive" "enforce_keys"
  "deprecated" "dialyzer" "compile" "on_load" "before_compile" "after_compile" "after_verify"
  "external_resource" "file" "vsn"`;
/** Attributes that annotate the function after them. */
const _DECORATORS = `"impl" "spec" "deprecated" "decorate"`;
/** Macros that define or structure code: calls of them are not recorded as calls. */
const _NOT_CALLS = `"def" "defp" "defdelegate" "defmacro" "defmacrop" "defguard" "defguardp"
  "defmodule" "defprotocol" "defimpl" "defstruct" "defexception" "defoverridable" "alias"
  "import" "require" "use" "quote" "unquote" "if" "unless" "case" "cond" "with" "for" "try"
  "receive" "fn"`;

/** `def`-like definitions (`@definition.<kind>` for the given keywords). */
function _defs(keywords: string, kind: string): string {
  const head = `[(call target: (identifier) @name)
      (binary_operator left: (call target: (identifier) @name))
      (identifier) @name]`;
  const attr = (capture: string) =>
    `(unary_operator operand: (call target: (identifier) @${capture}))`;
  const doc =
    `(unary_operator operand: (call target: (identifier) @_doc (arguments . (string) @doc)))`;
  const def = `(call target: (identifier) @_def) @definition.${kind}`;
  const when = `(#any-of? @_def ${keywords})`;
  return `
((call target: (identifier) @_def (arguments . ${head}) (do_block) @body) @definition.${kind}
  ${when})
((call target: (identifier) @_def (arguments . ${head} (keywords) @body)) @definition.${kind}
  ${when})
((call target: (identifier) @_def (arguments . ${head} .)) @definition.${kind} ${when})
(${doc} . ${def} (#eq? @_doc "doc") ${when})
(${doc} . (unary_operator) . ${def} (#eq? @_doc "doc") ${when})
(${doc} . (unary_operator) . (unary_operator) . ${def} (#eq? @_doc "doc") ${when})
(${attr("_a")} @decorator . ${def} (#any-of? @_a ${_DECORATORS}) ${when})
(${attr("_a")} @decorator . ${attr("_b")} @decorator . ${def}
  (#any-of? @_a ${_DECORATORS}) (#any-of? @_b ${_DECORATORS}) ${when})
`;
}

/** `defmodule`-like definitions, with their `@moduledoc`. */
function _modules(keyword: string, capture: string): string {
  return `
((call target: (identifier) @_def (arguments . (alias) @name) (do_block) @body) @${capture}
  (#eq? @_def "${keyword}"))
((call target: (identifier) @_def (do_block (unary_operator operand: (call
  target: (identifier) @_doc (arguments . (string) @doc))))) @${capture}
  (#eq? @_def "${keyword}") (#eq? @_doc "moduledoc"))
`;
}

/**
 * Elixir: `defmodule` is a class (like a Ruby module), `defprotocol` a type; `defimpl P, for: T`
 * scopes its functions under the protocol (`P.f`, a duplicate of the protocol's `f`). `def`,
 * `defp` and `defdelegate` are methods inside a module (functions at file level); each clause of
 * a multi-clause function is its own symbol (`~1`, `~2`). `defmacro`, `defmacrop`, `defguard` and
 * `defguardp` are templates. `@type`/`@typep`/`@opaque` are types. Module attributes holding a
 * value (`@max_retries 3`, not `@doc`, `@spec`, ...) are constants, named without the `@`.
 * Docstrings are `@doc`/`@moduledoc`/`@typedoc` strings (`#` comments are not documentation);
 * the `@impl`, `@spec`, `@deprecated` and `@decorate` attributes right before a `def` are its
 * decorators. Imports: `alias`, `import`, `require`, `use` (the module; `alias A.{B, C}` gives
 * `A` with names `B`, `C`). Calls: `f(x)`, `x |> f()`, `Mod.f(x)` (receiver `Mod`); definition
 * heads, module attributes (types, specs) and structuring macros (`def`, `if`, `case`, ...) are
 * not calls, nor is map field access `m.field`.
 */
export const elixir: GrammarSpec = {
  id: "elixir",
  extensions: [".ex", ".exs"],
  grammar: "elixir",
  definitions: _modules("defmodule", "definition.class") +
    _modules("defprotocol", "definition.type") + `
((call target: (identifier) @_def (arguments . (alias) @name) (do_block) @body) @container
  (#eq? @_def "defimpl"))
` + _defs(_FUNCTIONS, "function") + _defs(_MACROS, "template") + `
((unary_operator operand: (call target: (identifier) @_type (arguments (binary_operator
  left: [(identifier) @name (call target: (identifier) @name)])))) @definition.type
  (#any-of? @_type "type" "typep" "opaque"))
((unary_operator operand: (call target: (identifier) @_doc (arguments . (string) @doc))) .
  (unary_operator operand: (call target: (identifier) @_type)) @definition.type
  (#eq? @_doc "typedoc") (#any-of? @_type "type" "typep" "opaque"))
(do_block (unary_operator operand: (call target: (identifier) @name (arguments)))
  @definition.constant (#not-any-of? @name ${_RESERVED_ATTRIBUTES}))
`,
  imports: `
((call target: (identifier) @_use (arguments . (alias) @import.source)) @import
  (#any-of? @_use "alias" "import" "require" "use"))
((call target: (identifier) @_use
  (arguments . (dot left: (alias) @import.source right: (tuple (alias) @import.name)))) @import
  (#any-of? @_use "alias" "import" "require" "use"))
`,
  calls: `
((call target: (identifier) @name) @reference.call (#not-any-of? @name ${_NOT_CALLS}))
(call target: (dot left: (_) @receiver right: (identifier) @name) (arguments)) @reference.call
(call target: (identifier) @_def (arguments . [(call) @reference.call
  (binary_operator left: (call) @reference.call)]) (#any-of? @_def ${_FUNCTIONS} ${_MACROS}))
(unary_operator operator: "@" operand: (call) @reference.call)
`,
  complexity: ELIXIR_COMPLEXITY,
};
