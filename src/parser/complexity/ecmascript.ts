import type { ComplexityRules } from "../language_spec.ts";

/**
 * JavaScript and TypeScript, as ESLint's `complexity` rule counts (classic variant): `if`, `?:`,
 * `&&`/`||`/`??` and their assignments, the three `for` loops, `while`, `do`, `catch`, a `case`
 * with a test, a default value and an optional chain `?.` each add a path; `max-depth`'s
 * structures nest (`else if` stays at its level); every function, arrow and method is measured on
 * its own.
 */
export const ECMASCRIPT_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "ternary_expression",
    "for_statement",
    "for_in_statement",
    "while_statement",
    "do_statement",
    "catch_clause",
    "switch_case",
    "assignment_pattern",
    "object_assignment_pattern",
    "optional_chain",
  ],
  operators: {
    binary_expression: ["&&", "||", "??"],
    augmented_assignment_expression: ["&&=", "||=", "??="],
  },
  nesting: [
    "if_statement",
    "switch_statement",
    "try_statement",
    "do_statement",
    "while_statement",
    "with_statement",
    "for_statement",
    "for_in_statement",
  ],
  chains: { else_clause: ["if_statement"] },
  functions: [
    "function_declaration",
    "function_expression",
    "generator_function_declaration",
    "generator_function",
    "arrow_function",
    "method_definition",
    "class_static_block",
  ],
  parameters: { lists: ["formal_parameters"], skip: ["comment"], single: ["parameter"] },
};

/**
 * TypeScript (and TSX): JavaScript's rules; a parameter's default value is written in its node,
 * and an optional call `f?.()` keeps its `?.` as a token of the call (JavaScript's grammar wraps
 * it in an `optional_chain` node).
 */
export const TYPESCRIPT_COMPLEXITY: ComplexityRules = {
  ...ECMASCRIPT_COMPLEXITY,
  operators: {
    ...ECMASCRIPT_COMPLEXITY.operators,
    call_expression: ["?."],
    required_parameter: ["="],
    optional_parameter: ["="],
  },
};
