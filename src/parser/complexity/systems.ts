import type { ComplexityRules } from "../language_spec.ts";

/**
 * Go, as gocyclo counts: `if`, `for`, each `case` of a `switch` or `select` (not `default`) and
 * `&&`/`||` add a path; `else if` stays at its level; function literals are measured on their
 * own; `a, b int` is two parameters, the receiver none.
 */
export const GO_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "for_statement",
    "expression_case",
    "type_case",
    "communication_case",
  ],
  operators: { binary_expression: ["&&", "||"] },
  nesting: [
    "if_statement",
    "for_statement",
    "expression_switch_statement",
    "type_switch_statement",
    "select_statement",
  ],
  chains: { if_statement: ["if_statement"] },
  functions: ["function_declaration", "method_declaration", "func_literal"],
  parameters: {
    lists: ["parameter_list"],
    skip: ["comment"],
    nameField: "name",
    skipFields: ["receiver", "type_parameters"],
  },
};

/**
 * Rust: `if`, the loops, each `match` arm, `?` and `&&`/`||` add a path; `else if` stays at its
 * level; closures are measured on their own.
 */
export const RUST_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_expression",
    "for_expression",
    "while_expression",
    "loop_expression",
    "match_arm",
    "try_expression",
  ],
  operators: { binary_expression: ["&&", "||"] },
  nesting: [
    "if_expression",
    "for_expression",
    "while_expression",
    "loop_expression",
    "match_expression",
  ],
  chains: { else_clause: ["if_expression"] },
  functions: ["function_item", "function_signature_item", "closure_expression"],
  parameters: {
    lists: ["parameters", "closure_parameters"],
    skip: ["line_comment", "block_comment", "attribute_item"],
  },
};

/**
 * Zig: `if`, the loops, each `switch` prong, `catch`, `orelse` and `and`/`or` add a path; `else
 * if` stays at its level.
 */
export const ZIG_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "if_expression",
    "for_statement",
    "for_expression",
    "while_statement",
    "while_expression",
    "switch_case",
    "catch_expression",
  ],
  operators: { binary_expression: ["and", "or", "orelse"] },
  nesting: [
    "if_statement",
    "for_statement",
    "while_statement",
    "if_expression",
    "for_expression",
    "while_expression",
    "switch_expression",
  ],
  chains: { else_clause: ["if_statement", "if_expression"] },
  functions: ["function_declaration"],
  parameters: { lists: ["parameters"], skip: ["comment"] },
};

/** Solidity: `if`, the loops, `catch`, `?:` and `&&`/`||` add a path; `else if` stays. */
export const SOLIDITY_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "for_statement",
    "while_statement",
    "do_while_statement",
    "catch_clause",
    "ternary_expression",
  ],
  operators: { binary_expression: ["&&", "||"] },
  nesting: [
    "if_statement",
    "for_statement",
    "while_statement",
    "do_while_statement",
    "try_statement",
  ],
  chains: { if_statement: ["if_statement"] },
  functions: [
    "function_definition",
    "modifier_definition",
    "constructor_definition",
    "fallback_receive_definition",
  ],
  parameters: { lists: [], items: ["parameter"] },
};

/**
 * D: `if`, the loops (`foreach` too), each `case` (not `default`), `catch`, `?:` and `&&`/`||`
 * add a path; `else if` stays at its level; function literals are measured on their own.
 */
export const D_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "while_statement",
    "do_statement",
    "for_statement",
    "foreach_statement",
    // The grammar names its keywords: a `case` label's keyword (a `default` has none).
    "case",
    "catch_statement",
    "ternary_expression",
  ],
  operators: { logical_and_expression: ["&&"], logical_or_expression: ["||"] },
  nesting: [
    "if_statement",
    "while_statement",
    "do_statement",
    "for_statement",
    "foreach_statement",
    "switch_statement",
    "final_switch_statement",
    "try_statement",
  ],
  chains: { scope_statement: ["if_statement"] },
  functions: ["function_declaration", "function_literal", "constructor", "destructor"],
  parameters: { lists: ["parameters"], skip: ["comment"] },
};
