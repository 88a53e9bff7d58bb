import type { GrammarSpec } from "../language_spec.ts";
import { ERLANG_COMPLEXITY } from "../complexity/functional.ts";

/**
 * Erlang (WhatsApp/tree-sitter-erlang, the build `@optave/codegraph` ships, copied into
 * `grammars/`): every function clause group → function (a function written as several clauses
 * separated by `;` is one `fun_decl` per clause in this grammar: the first is the symbol, the
 * others `~1`, `~2`...); `-record` and `-type`/`-opaque` → type; `-define` → template (a macro).
 * `-include`/`-include_lib` are imports (resolved as paths); calls are local and `mod:fun()`
 * calls (type expressions in `-spec`, `-type` and `-record` are not calls). `%%` comments directly above are docstrings.
 */
export const erlang: GrammarSpec = {
  id: "erlang",
  extensions: [".erl", ".hrl", ".escript"],
  grammar: "erlang",
  grammarModule: "codemunch-grammars/tree-sitter-erlang.wasm",
  definitions: `
(fun_decl clause: (function_clause name: (atom) @name body: (_) @body)) @definition.function
(record_decl name: (atom) @name) @definition.type
(type_alias name: (type_name name: (atom) @name)) @definition.type
(opaque name: (type_name name: (atom) @name)) @definition.type
(pp_define lhs: (macro_lhs name: (_) @name)) @definition.template
`,
  imports: `
(pp_include file: (string) @import.source) @import
(pp_include_lib file: (string) @import.source) @import
`,
  calls: `
(spec) @reference.call
(type_alias) @reference.call
(opaque) @reference.call
(record_decl) @reference.call
(call expr: (atom) @name) @reference.call
(remote module: (remote_module module: (atom) @receiver) fun: (call expr: (atom) @name)) @reference.call
`,
  docComments: { nodeTypes: ["comment"] },
  resolver: "path",
  complexity: ERLANG_COMPLEXITY,
};
