import type { GrammarSpec } from "../language_spec.ts";
import { COMMONLISP_COMPLEXITY } from "../complexity/functional.ts";

/** Forms that are not calls of a function of the program. */
const _SPECIAL =
  "^(let\\\\*?|if|when|unless|cond|case|progn|lambda|setf|setq|loop|do|dolist|dotimes|flet|labels|and|or|not|quote|function|declare|return|return-from|block|multiple-value-bind|destructuring-bind|handler-case|unwind-protect|in-package|defun|defmacro|defgeneric|defmethod|defvar|defparameter|defconstant|defclass|defstruct|defpackage|define-condition|deftype|eval-when)$";

/**
 * Common Lisp (theHamsta/tree-sitter-commonlisp, built by us): `defun`, `defgeneric` and
 * `defmethod` → function (each `defmethod` of a generic is a duplicate, `~1`...); `defmacro` →
 * template; `defclass`, `defstruct`, `define-condition` and `deftype` → type; `defconstant` →
 * constant; `defvar` and `defparameter` → variable. A function's docstring is the string after its
 * lambda list; `;;` comments directly above are docstrings of the others. Calls are forms headed
 * by a symbol, special forms and macros of the standard left out.
 */
export const commonlisp: GrammarSpec = {
  id: "commonlisp",
  extensions: [".lisp", ".lsp", ".cl", ".asd"],
  grammar: "commonlisp",
  grammarModule: "codemunch-grammars/tree-sitter-commonlisp.wasm",
  definitions: `
(list_lit (defun (defun_header keyword: (defun_keyword) @_k function_name: (_) @name)
  (#match? @_k "^(defun|defgeneric|defmethod)$"))) @definition.function
(list_lit (defun (defun_header keyword: (defun_keyword) @_k function_name: (_) @name)
  (#match? @_k "^defmacro$"))) @definition.template
(list_lit (defun (defun_header) @_h . value: (str_lit) @doc . value: (_))) @definition.function
(list_lit . value: (sym_lit) @_k . value: (sym_lit) @name
  (#match? @_k "^(defclass|define-condition|deftype)$")) @definition.type
(list_lit . value: (sym_lit) @_k . value: [(sym_lit) @name (list_lit . value: (sym_lit) @name)]
  (#match? @_k "^defstruct$")) @definition.type
(list_lit . value: (sym_lit) @_k . value: (sym_lit) @name
  (#match? @_k "^defconstant$")) @definition.constant
(list_lit . value: (sym_lit) @_k . value: (sym_lit) @name
  (#match? @_k "^(defvar|defparameter)$")) @definition.variable
`,
  calls: `
(defun_header) @reference.call
(list_lit . value: (sym_lit) @name (#not-match? @name "${_SPECIAL}")) @reference.call
`,
  docComments: { nodeTypes: ["comment"] },
  complexity: COMMONLISP_COMPLEXITY,
};
