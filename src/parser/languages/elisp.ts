import type { GrammarSpec } from "../language_spec.ts";
import { ELISP_COMPLEXITY } from "../complexity/functional.ts";

/** A top-level list form `(<head> <name> ...)` whose head is one of `heads`, as `capture`. */
function form(heads: string[], capture: string): string {
  const list = heads.map((h) => `"${h}"`).join(" ");
  return `
(source_file (list . (symbol) @_head . (symbol) @name) ${capture} (#any-of? @_head ${list}))
(source_file (list . (symbol) @_head . (symbol) @name . (_) . (string) @doc) ${capture}
  (#any-of? @_head ${list}))
(source_file (list . (symbol) @_head . (quote (symbol) @name)) ${capture}
  (#any-of? @_head ${list}))`;
}

/**
 * Emacs Lisp: top-level `defun`, `defsubst` (the grammar's `function_definition`), `cl-defun`,
 * `cl-defgeneric`, `cl-defmethod`, `define-inline`, `defalias`, `define-minor-mode`,
 * `define-derived-mode`, `define-globalized-minor-mode` and `define-obsolete-function-alias` are
 * functions; `defmacro` and
 * `cl-defmacro` templates; `defvar`, `defvar-local`, `defconst` (the grammar's `special_form`),
 * `defcustom`, `defface` and `defgroup` constants; `cl-defstruct` and `defclass` types. The
 * docstring is the string after the parameters (or the value), else the `;;` comments above.
 * Imports are `(require 'feature)`, resolved to `feature.el`; calls are lists headed by a symbol other than a definition
 * (parameter lists and quoted data are not calls).
 *
 * Grammar: `tree-sitter-elisp` from `tree-sitter-wasms` (Wilfred/tree-sitter-elisp).
 */
export const elisp: GrammarSpec = {
  id: "elisp",
  extensions: [".el"],
  grammar: "elisp",
  definitions: `
(source_file (function_definition name: (symbol) @name) @definition.function)
(source_file (function_definition name: (symbol) @name docstring: (string) @doc) @definition.function)
(source_file (macro_definition name: (symbol) @name) @definition.template)
(source_file (macro_definition name: (symbol) @name docstring: (string) @doc) @definition.template)
(source_file (special_form . _ @_head . (symbol) @name) @definition.constant
  (#any-of? @_head "defvar" "defconst" "defvar-local"))
(source_file (special_form . _ @_head . (symbol) @name . (_) . (string) @doc) @definition.constant
  (#any-of? @_head "defvar" "defconst" "defvar-local"))
` +
    form(
      [
        "cl-defun",
        "cl-defsubst",
        "cl-defgeneric",
        "cl-defmethod",
        "define-inline",
        "define-minor-mode",
        "define-derived-mode",
        "define-globalized-minor-mode",
        "defalias",
        "define-obsolete-function-alias",
      ],
      "@definition.function",
    ) +
    form(["cl-defmacro", "define-compiler-macro"], "@definition.template") +
    form(["defvar-local", "defcustom", "defface", "defgroup"], "@definition.constant") +
    form(["cl-defstruct", "defclass"], "@definition.type"),
  imports: `
(list . (symbol) @_require . (quote (symbol) @import.source) (#eq? @_require "require")) @import
`,
  calls: `
(function_definition parameters: (list) @reference.call)
(macro_definition parameters: (list) @reference.call)
((list . (symbol) @_head . (symbol) . (list) @reference.call) (#match? @_head "^(cl-)?def"))
(quote) @reference.call
((list . (symbol) @_declare) @reference.call (#eq? @_declare "declare"))
((list . (symbol) @name) @reference.call
  (#not-match? @name "^(cl-)?def|^define-|^(require|provide|quote|function|lambda|interactive|declare)$"))
`,
  resolver: "module_file",
  docComments: { nodeTypes: ["comment"] },
  complexity: ELISP_COMPLEXITY,
};
