import type { ComplexityRules } from "../language_spec.ts";

/**
 * C, C++, Objective-C (and Arduino, which reads as C++): `if`, the loops, `?:`, `catch`, a `case`
 * label (not `default`) and `&&`/`||` add a path, as ESLint counts JavaScript; `else if` stays at
 * its level; C++ lambdas and Objective-C blocks are measured on their own.
 */
export const C_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "for_statement",
    "while_statement",
    "do_statement",
    "conditional_expression",
  ],
  operators: { binary_expression: ["&&", "||"], case_statement: ["case"] },
  nesting: ["if_statement", "for_statement", "while_statement", "do_statement", "switch_statement"],
  chains: { else_clause: ["if_statement"] },
  functions: ["function_definition"],
  parameters: { lists: ["parameter_list"], skip: ["comment"] },
};

/** C++: C's rules, with range `for`, `try`/`catch`, lambdas and the `and`/`or` spellings. */
export const CPP_COMPLEXITY: ComplexityRules = {
  ...C_COMPLEXITY,
  branches: [...C_COMPLEXITY.branches, "for_range_loop", "catch_clause"],
  operators: { binary_expression: ["&&", "||", "and", "or"], case_statement: ["case"] },
  nesting: [...C_COMPLEXITY.nesting, "for_range_loop", "try_statement"],
  functions: ["function_definition", "lambda_expression"],
};

/** Objective-C: C's rules, with `@try`/`@catch`, methods and blocks. */
export const OBJC_COMPLEXITY: ComplexityRules = {
  ...C_COMPLEXITY,
  branches: [...C_COMPLEXITY.branches, "catch_clause"],
  nesting: [...C_COMPLEXITY.nesting, "try_statement"],
  functions: ["function_definition", "method_definition", "block_literal"],
  parameters: { lists: ["parameter_list"], skip: ["comment"], items: ["method_parameter"] },
};
