import type { GrammarSpec } from "../language_spec.ts";
import { CLOJURE_COMPLEXITY } from "../complexity/functional.ts";

/** A top-level form `(<head> <name> ...)` whose head is one of `heads`, captured as `capture`. */
function form(heads: string[], capture: string): string {
  const list = heads.map((h) => `"${h}"`).join(" ");
  return `
(source (list_lit . value: (sym_lit name: (sym_name) @_head) . value: (sym_lit name: (sym_name) @name))
  ${capture} (#any-of? @_head ${list}))
(source (list_lit . value: (sym_lit name: (sym_name) @_head) . value: (sym_lit name: (sym_name) @name)
  . value: (str_lit) @doc) ${capture} (#any-of? @_head ${list}))`;
}

/** Forms that are not calls of a function of the program. */
const SPECIAL_FORMS = [
  "ns",
  "def",
  "defn",
  "defn-",
  "defmacro",
  "defmulti",
  "defmethod",
  "defonce",
  "defprotocol",
  "defrecord",
  "deftype",
  "definterface",
  "let",
  "if",
  "do",
  "fn",
  "loop",
  "recur",
  "when",
  "cond",
  "quote",
  "var",
  "try",
  "catch",
  "finally",
  "throw",
  "new",
  "set!",
].map((h) => `"${h}"`).join(" ");

/**
 * Clojure (and ClojureScript, `.cljc`, EDN-free): top-level `defn`/`defn-` and `defmulti` are
 * functions, `defmacro` a template, `def`/`defonce` constants, `defprotocol`, `defrecord`,
 * `deftype` and `definterface` types. A docstring right after the name is the doc. Imports are the
 * namespaces of the `ns` form's `(:require [a.b :as x])` vectors; calls are lists whose head is a
 * symbol other than a special form or a definition (`(str/join ...)` as `join` on `str`).
 *
 * Grammar: `tree-sitter-clojure` from `@cursorless/tree-sitter-wasms`.
 */
export const clojure: GrammarSpec = {
  id: "clojure",
  extensions: [".clj", ".cljs", ".cljc"],
  grammar: "clojure",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-clojure.wasm",
  definitions: form(["defn", "defn-", "defmulti"], "@definition.function") +
    form(["defmacro"], "@definition.template") +
    form(["def", "defonce"], "@definition.constant") +
    form(["defprotocol", "defrecord", "deftype", "definterface"], "@definition.type"),
  imports: `
(list_lit . value: (sym_lit name: (sym_name) @_ns)
  value: (list_lit . value: (kwd_lit name: (kwd_name) @_require)
    value: (vec_lit . value: (sym_lit name: (sym_name) @import.source)))
  (#eq? @_ns "ns") (#eq? @_require "require")) @import
`,
  calls: `
((list_lit . value: (sym_lit !namespace name: (sym_name) @name)) @reference.call
  (#not-any-of? @name ${SPECIAL_FORMS}))
(list_lit . value: (sym_lit namespace: (sym_ns) @receiver name: (sym_name) @name))
  @reference.call
`,
  docComments: { nodeTypes: ["comment"] },
  complexity: CLOJURE_COMPLEXITY,
};
