import type { ComplexityRules } from "../language_spec.ts";

/**
 * Elixir: `if`/`unless`/`for` and each clause of a `case`, `cond`, `with`, `receive` or `try`
 * add a path, as do `and`/`or`/`&&`/`||`; `def`/`defp` (calls with a head word) and `fn` are
 * functions; `def f(a, b)` has the parameters of the call `f(a, b)`.
 */
export const ELIXIR_COMPLEXITY: ComplexityRules = {
  branches: ["stab_clause"],
  operators: { binary_operator: ["and", "or", "&&", "||"] },
  nesting: [],
  functions: ["anonymous_function"],
  parameters: { lists: ["arguments"], unwrap: ["call", "binary_operator"] },
  forms: {
    nodeTypes: ["call"],
    branches: ["if", "unless", "for"],
    nesting: ["if", "unless", "for", "case", "cond", "with", "receive", "try"],
    functions: ["def", "defp", "defmacro", "defmacrop"],
  },
};

/**
 * Erlang: each clause of a `case`, `if`, `receive` and `catch` and `andalso`/`orelse` add a path;
 * funs are measured on their own.
 */
export const ERLANG_COMPLEXITY: ComplexityRules = {
  branches: ["cr_clause", "if_clause", "catch_clause"],
  operators: { binary_op_expr: ["andalso", "orelse"] },
  nesting: ["case_expr", "if_expr", "receive_expr", "try_expr"],
  functions: ["fun_decl", "anonymous_fun"],
  parameters: { lists: ["expr_args"] },
};

/**
 * Haskell: `if`, each `case` alternative and guard, a multi-way `if` and `&&`/`||` add a path;
 * lambdas are measured on their own; parameters are the patterns of the equation.
 */
export const HASKELL_COMPLEXITY: ComplexityRules = {
  branches: ["conditional", "alternative", "multi_way_if"],
  operatorTexts: { operator: ["&&", "||"] },
  nesting: ["conditional", "case", "multi_way_if"],
  chains: { conditional: ["conditional"] },
  functions: ["function", "lambda"],
  parameters: { lists: ["patterns"] },
};

/**
 * OCaml: `if`, each `match` (and `try`) case, the loops and `&&`/`||` add a path; `else if`
 * stays at its level; `fun`/`function` are measured on their own (local `let` functions count in
 * their enclosing one).
 */
export const OCAML_COMPLEXITY: ComplexityRules = {
  branches: ["if_expression", "match_case", "while_expression", "for_expression"],
  operatorTexts: { and_operator: ["&&"], or_operator: ["||"] },
  nesting: [
    "if_expression",
    "match_expression",
    "while_expression",
    "for_expression",
    "try_expression",
  ],
  chains: { else_clause: ["if_expression"] },
  functions: ["fun_expression", "function_expression"],
  parameters: { lists: [], items: ["parameter"] },
};

/**
 * F#: `if`/`elif`, each `match` rule, the loops and `&&`/`||` add a path; lambdas are measured
 * on their own (local `let` functions count in their enclosing one).
 */
export const FSHARP_COMPLEXITY: ComplexityRules = {
  branches: ["if_expression", "elif_expression", "rule", "for_expression", "while_expression"],
  operatorTexts: { infix_op: ["&&", "||"] },
  nesting: [
    "if_expression",
    "match_expression",
    "for_expression",
    "while_expression",
    "try_expression",
  ],
  functions: ["fun_expression"],
  parameters: { lists: ["argument_patterns"] },
};

/** Elm: `if`, each `case` branch and `&&`/`||` add a path; `else if` stays at its level. */
export const ELM_COMPLEXITY: ComplexityRules = {
  branches: ["if_else_expr", "case_of_branch"],
  operatorTexts: { operator: ["&&", "||"] },
  nesting: ["if_else_expr", "case_of_expr"],
  chains: { if_else_expr: ["if_else_expr"] },
  functions: ["anonymous_function_expr"],
  parameters: { lists: ["function_declaration_left"], skip: ["lower_case_identifier"] },
};

/** Gleam: each `case` clause and `&&`/`||` add a path; anonymous functions on their own. */
export const GLEAM_COMPLEXITY: ComplexityRules = {
  branches: ["case_clause"],
  operators: { binary_expression: ["&&", "||"] },
  nesting: ["case"],
  functions: ["function", "anonymous_function"],
  parameters: { lists: ["function_parameters"] },
};

/**
 * ReScript: `if`/`else if`, each `switch` case, `?:`, the loops and `&&`/`||` add a path;
 * every function is measured on its own.
 */
export const RESCRIPT_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_expression",
    "else_if_clause",
    "switch_match",
    "ternary_expression",
    "for_expression",
    "while_expression",
  ],
  operators: { binary_expression: ["&&", "||"] },
  nesting: [
    "if_expression",
    "switch_expression",
    "for_expression",
    "while_expression",
    "try_expression",
  ],
  functions: ["function"],
  parameters: { lists: ["formal_parameters"] },
};

/**
 * Nix: `if` and `&&`/`||`/`->` add a path; `else if` stays at its level. A function's parameters
 * are its attribute-set pattern's, or one for `x:` (a curried `a: b:` counts its first); lambdas
 * belong to the binding that defines them.
 */
export const NIX_COMPLEXITY: ComplexityRules = {
  branches: ["if_expression"],
  operators: { binary_expression: ["&&", "||", "->"] },
  nesting: ["if_expression"],
  chains: { if_expression: ["if_expression"] },
  functions: [],
  parameters: { lists: ["formals"], skip: ["comment"], single: ["universal"] },
};

/** Clojure's conditional and looping forms, by head word. */
const _CLOJURE_BRANCHES = [
  "if",
  "if-not",
  "if-let",
  "if-some",
  "when",
  "when-not",
  "when-let",
  "when-some",
  "when-first",
  "cond",
  "condp",
  "case",
  "doseq",
  "dotimes",
  "for",
  "loop",
  "while",
  "catch",
];

/**
 * Clojure: the conditional and looping forms (`if`, `when`, `cond`, `case`, `doseq`, `loop`, …),
 * `catch` and `and`/`or` add a path; `fn` and `defn` are functions; parameters are the first
 * vector of the definition.
 */
export const CLOJURE_COMPLEXITY: ComplexityRules = {
  branches: [],
  nesting: [],
  functions: [],
  parameters: { lists: ["vec_lit"], skip: ["comment"] },
  forms: {
    nodeTypes: ["list_lit"],
    branches: [..._CLOJURE_BRANCHES, "and", "or"],
    nesting: [..._CLOJURE_BRANCHES.filter((h) => h !== "catch"), "try"],
    functions: ["fn", "fn*", "defn", "defn-", "defmacro", "letfn"],
  },
};

/** Common Lisp's conditional and looping forms, by head word. */
const _LISP_BRANCHES = [
  "if",
  "when",
  "unless",
  "cond",
  "case",
  "ecase",
  "typecase",
  "etypecase",
  "dolist",
  "dotimes",
  "do",
  "loop",
  "handler-case",
];

/**
 * Common Lisp: the conditional and looping forms (`if`, `when`, `unless`, `cond`, `case`,
 * `dolist`, `loop`, …) and `and`/`or` add a path; `defun` and `lambda` are functions; parameters
 * are the lambda list.
 */
export const COMMONLISP_COMPLEXITY: ComplexityRules = {
  branches: [],
  nesting: [],
  functions: ["defun"],
  parameters: { lists: ["list_lit"], skip: ["comment"], skipFields: ["value"] },
  forms: {
    nodeTypes: ["list_lit"],
    branches: [..._LISP_BRANCHES, "and", "or"],
    nesting: _LISP_BRANCHES,
    functions: ["lambda"],
  },
};

/**
 * Emacs Lisp: Common Lisp's forms with `while`, `pcase`, `condition-case` and `cl-loop`
 * (`if`, `cond`, `and`, `or` and `while` are special forms in its grammar, the rest lists).
 */
export const ELISP_COMPLEXITY: ComplexityRules = {
  branches: [],
  nesting: [],
  functions: ["function_definition"],
  parameters: { lists: ["list"], single: ["parameters"] },
  forms: {
    nodeTypes: ["special_form", "list"],
    branches: [..._LISP_BRANCHES, "while", "pcase", "condition-case", "cl-loop", "and", "or"],
    nesting: [..._LISP_BRANCHES, "while", "pcase", "condition-case", "cl-loop"],
    functions: ["lambda"],
  },
};

/**
 * Pascal and Delphi: `if`, the loops, each `case` label, `except` handlers and `and`/`or` add a
 * path; `else if` stays at its level; anonymous methods are measured on their own.
 */
export const PASCAL_COMPLEXITY: ComplexityRules = {
  branches: [
    "if",
    "ifElse",
    "while",
    "repeat",
    "for",
    "foreach",
    "exceptionHandler",
    "caseCase",
    "kAnd",
    "kOr",
  ],
  nesting: ["if", "ifElse", "while", "repeat", "for", "foreach", "case", "try"],
  chains: { ifElse: ["if", "ifElse"] },
  functions: ["defProc", "lambda"],
  parameters: { lists: ["declArgs"], skip: ["comment"] },
};

/**
 * Verilog and SystemVerilog functions and tasks: each `if` and `else if` of a conditional, the
 * loops, each `case` item, `?:` and `&&`/`||` add a path; `else if` stays at its level (so does
 * an `if` written directly, without `begin`, as the branch of another).
 */
export const VERILOG_COMPLEXITY: ComplexityRules = {
  branches: ["loop_statement", "case_item", "conditional_expression"],
  operators: { conditional_statement: ["if"], expression: ["&&", "||"] },
  nesting: ["conditional_statement", "loop_statement", "case_statement"],
  chains: { conditional_statement: ["conditional_statement"] },
  chainWrappers: ["statement_item", "statement", "statement_or_null"],
  functions: ["function_declaration", "task_declaration"],
  parameters: { lists: ["tf_port_list"], skip: ["comment"] },
};
