import type { ComplexityRules } from "../language_spec.ts";

/**
 * Java: `if`, the loops, `?:`, `catch`, a `case` label (not `default`) and `&&`/`||` add a path
 * (as PMD's and Checkstyle's cyclomatic complexity count them); `else if` stays at its level;
 * lambdas are measured on their own.
 */
export const JAVA_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "for_statement",
    "enhanced_for_statement",
    "while_statement",
    "do_statement",
    "catch_clause",
    "ternary_expression",
  ],
  operators: { binary_expression: ["&&", "||"], switch_label: ["case"] },
  nesting: [
    "if_statement",
    "for_statement",
    "enhanced_for_statement",
    "while_statement",
    "do_statement",
    "switch_expression",
    "try_statement",
    "try_with_resources_statement",
  ],
  chains: { if_statement: ["if_statement"] },
  functions: [
    "method_declaration",
    "constructor_declaration",
    "compact_constructor_declaration",
    "lambda_expression",
  ],
  parameters: {
    lists: ["formal_parameters", "inferred_parameters"],
    skip: ["line_comment", "block_comment"],
    single: ["parameters"],
  },
};

/**
 * Groovy: Java's rules, with `def` functions. Closures belong to their method: the grammar reads
 * the braces of a loop or an `if` as a closure too.
 */
export const GROOVY_COMPLEXITY: ComplexityRules = {
  ...JAVA_COMPLEXITY,
  functions: [...JAVA_COMPLEXITY.functions, "function_definition"],
};

/** Apex: Java's rules; each `when` of a `switch on` adds a path. */
export const APEX_COMPLEXITY: ComplexityRules = {
  ...JAVA_COMPLEXITY,
  operators: { binary_expression: ["&&", "||"], switch_rule: ["when"] },
  nesting: JAVA_COMPLEXITY.nesting.filter((n) => n !== "try_with_resources_statement"),
  functions: ["method_declaration", "constructor_declaration"],
  parameters: { lists: ["formal_parameters"], skip: ["line_comment", "block_comment"] },
};

/**
 * C#: Java's counting, with `foreach`, `case` and pattern labels, switch-expression arms, `??`,
 * `??=` and `?.`; local functions, lambdas and anonymous methods are measured on their own.
 */
export const CSHARP_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "for_statement",
    "for_each_statement",
    "while_statement",
    "do_statement",
    "catch_clause",
    "conditional_expression",
    "case_switch_label",
    "case_pattern_switch_label",
    "switch_expression_arm",
    "conditional_access_expression",
  ],
  operators: { binary_expression: ["&&", "||", "??"], assignment_expression: ["??="] },
  nesting: [
    "if_statement",
    "for_statement",
    "for_each_statement",
    "while_statement",
    "do_statement",
    "switch_statement",
    "try_statement",
  ],
  chains: { if_statement: ["if_statement"] },
  functions: [
    "method_declaration",
    "constructor_declaration",
    "local_function_statement",
    "lambda_expression",
    "anonymous_method_expression",
  ],
  parameters: { lists: ["parameter_list"], skip: ["comment"], single: ["parameters"] },
};

/**
 * Kotlin: `if`, the loops, each `when` entry, `catch`, `?:` and `&&`/`||` add a path (as
 * detekt counts); `else if` stays at its level; lambdas and anonymous functions on their own.
 */
export const KOTLIN_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_expression",
    "for_statement",
    "while_statement",
    "do_while_statement",
    "when_entry",
    "catch_block",
    "elvis_expression",
    "conjunction_expression",
    "disjunction_expression",
  ],
  nesting: [
    "if_expression",
    "for_statement",
    "while_statement",
    "do_while_statement",
    "when_expression",
    "try_expression",
  ],
  chains: { control_structure_body: ["if_expression"] },
  functions: [
    "function_declaration",
    "secondary_constructor",
    "anonymous_function",
    "lambda_literal",
  ],
  parameters: {
    lists: ["function_value_parameters", "lambda_parameters"],
    skip: ["line_comment", "multiline_comment"],
  },
};

/**
 * Swift: `if`, `guard`, the loops, each `case` of a `switch`, `catch`, `?:`, `??` and `&&`/`||`
 * add a path; `else if` stays at its level; closures are measured on their own.
 */
export const SWIFT_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "guard_statement",
    "for_statement",
    "while_statement",
    "repeat_while_statement",
    "switch_entry",
    "catch_block",
    "ternary_expression",
    "nil_coalescing_expression",
    "conjunction_expression",
    "disjunction_expression",
  ],
  nesting: [
    "if_statement",
    "guard_statement",
    "for_statement",
    "while_statement",
    "repeat_while_statement",
    "switch_statement",
    "do_statement",
  ],
  chains: { if_statement: ["if_statement"] },
  functions: ["function_declaration", "lambda_literal", "init_declaration", "deinit_declaration"],
  parameters: { lists: ["lambda_function_type_parameters"], items: ["parameter"] },
};

/**
 * Scala: `if` and each `case` (of a `match` or a `catch`) add a path; `else if` stays at its
 * level. The grammar (tree-sitter-wasms 0.1.13) has no loops and no lambdas, and writes `&&`/`||` as plain infix operators: those are not counted.
 */
export const SCALA_COMPLEXITY: ComplexityRules = {
  branches: ["if_expression", "case_clause"],
  nesting: ["if_expression", "match_expression", "try_expression"],
  chains: { if_expression: ["if_expression"] },
  functions: ["function_definition"],
  parameters: { lists: ["parameters"], skip: ["comment"] },
};

/**
 * Dart: `if` (statements and collection elements), the loops, each `case`, `catch`, `?:`, `??`
 * and `&&`/`||` add a path; `else if` stays at its level. A function's signature and body are
 * siblings in Dart's tree: the body is measured, the signature gives the parameters.
 */
export const DART_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "if_element",
    "for_statement",
    "for_element",
    "while_statement",
    "do_statement",
    "switch_statement_case",
    "switch_expression_case",
    "catch_clause",
    "conditional_expression",
    "if_null_expression",
    "logical_and_operator",
    "logical_or_operator",
  ],
  nesting: [
    "if_statement",
    "for_statement",
    "while_statement",
    "do_statement",
    "switch_statement",
    "try_statement",
  ],
  chains: { if_statement: ["if_statement"] },
  functions: ["function_expression", "local_function_declaration", "lambda_expression"],
  parameters: { lists: ["formal_parameter_list"], skip: ["comment"] },
};
