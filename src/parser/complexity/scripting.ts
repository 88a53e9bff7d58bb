import type { ComplexityRules } from "../language_spec.ts";

/**
 * Python, as radon and mccabe count: `if`/`elif`, the loops, `except`, a conditional expression,
 * each `case` of a `match`, each `for` and `if` of a comprehension and `and`/`or` add a path;
 * `elif` is a branch of its `if`, not a nested one; lambdas are measured on their own.
 */
export const PYTHON_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "elif_clause",
    "for_statement",
    "while_statement",
    "except_clause",
    "except_group_clause",
    "conditional_expression",
    "case_clause",
    "for_in_clause",
    "if_clause",
  ],
  operators: { boolean_operator: ["and", "or"] },
  nesting: [
    "if_statement",
    "for_statement",
    "while_statement",
    "try_statement",
    "with_statement",
    "match_statement",
  ],
  functions: ["function_definition", "lambda"],
  parameters: {
    lists: ["parameters", "lambda_parameters"],
    skip: ["comment", "keyword_separator", "positional_separator"],
  },
};

/**
 * Ruby, as RuboCop's `CyclomaticComplexity` counts: `if`/`elsif`/`unless`, the loops and their
 * modifiers, each `when` and `in`, `rescue`, `?:`, `&&`/`||`/`and`/`or` and `||=`/`&&=` add a
 * path; blocks belong to their method, lambdas are measured on their own.
 */
export const RUBY_COMPLEXITY: ComplexityRules = {
  branches: [
    "if",
    "elsif",
    "unless",
    "while",
    "until",
    "for",
    "when",
    "in_clause",
    "rescue",
    "conditional",
    "if_modifier",
    "unless_modifier",
    "while_modifier",
    "until_modifier",
    "rescue_modifier",
  ],
  operators: { binary: ["&&", "||", "and", "or"], operator_assignment: ["||=", "&&="] },
  nesting: ["if", "unless", "while", "until", "for", "case", "case_match", "begin"],
  functions: ["method", "singleton_method", "lambda"],
  parameters: {
    lists: ["method_parameters", "lambda_parameters", "block_parameters"],
    skip: ["comment"],
  },
};

/**
 * PHP, as PHPMD counts: `if`/`elseif`, the loops, `catch`, `?:`, each `case` and `match` arm,
 * `&&`/`||`/`and`/`or`/`??` add a path; closures and arrow functions are measured on their own.
 */
export const PHP_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "else_if_clause",
    "for_statement",
    "foreach_statement",
    "while_statement",
    "do_statement",
    "catch_clause",
    "conditional_expression",
    "case_statement",
    "match_conditional_expression",
  ],
  operators: { binary_expression: ["&&", "||", "and", "or", "??"] },
  nesting: [
    "if_statement",
    "for_statement",
    "foreach_statement",
    "while_statement",
    "do_statement",
    "switch_statement",
    "try_statement",
  ],
  functions: [
    "function_definition",
    "method_declaration",
    "anonymous_function_creation_expression",
    "arrow_function",
  ],
  parameters: { lists: ["formal_parameters"], skip: ["comment"] },
};

/**
 * Perl: `if`/`unless`/`elsif`, the loops and the statement modifiers, `?:` and the logical
 * operators (`&&`, `||`, `//`, `and`, `or`) add a path; anonymous subs on their own.
 */
export const PERL_COMPLEXITY: ComplexityRules = {
  branches: [
    "conditional_statement",
    "elsif",
    "loop_statement",
    "for_statement",
    "cstyle_for_statement",
    "postfix_conditional_expression",
    "postfix_loop_expression",
    "postfix_for_expression",
    "conditional_expression",
  ],
  operators: { binary_expression: ["&&", "||", "//", "and", "or"] },
  nesting: ["conditional_statement", "loop_statement", "for_statement", "cstyle_for_statement"],
  functions: [
    "subroutine_declaration_statement",
    "method_declaration_statement",
    "anonymous_subroutine_expression",
    "anonymous_method_expression",
  ],
  parameters: {
    lists: ["signature"],
    skip: ["comment"],
  },
};

/** Lua: `if`/`elseif`, the loops and `and`/`or` add a path; every function on its own. */
export const LUA_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "elseif_statement",
    "while_statement",
    "repeat_statement",
    "for_statement",
  ],
  operators: { binary_expression: ["and", "or"] },
  nesting: ["if_statement", "while_statement", "repeat_statement", "for_statement"],
  functions: ["function_declaration", "function_definition"],
  parameters: { lists: ["parameters"], skip: ["comment"] },
};

/** Luau: Lua's rules, with `if … then … else` expressions. */
export const LUAU_COMPLEXITY: ComplexityRules = {
  ...LUA_COMPLEXITY,
  branches: [...LUA_COMPLEXITY.branches, "if_expression", "elseif_clause"],
};

/**
 * Bash: `if`/`elif`, the loops, each `case` item, `?:` in arithmetic and `&&`/`||` (in lists and
 * in `[[ ]]`) add a path. Functions declare no parameters.
 */
export const BASH_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "elif_clause",
    "for_statement",
    "c_style_for_statement",
    "while_statement",
    "case_item",
    "ternary_expression",
  ],
  operators: { list: ["&&", "||"], binary_expression: ["&&", "||"] },
  nesting: [
    "if_statement",
    "for_statement",
    "c_style_for_statement",
    "while_statement",
    "case_statement",
  ],
  functions: ["function_definition"],
  parameters: { lists: [] },
};

/**
 * PowerShell: `if`/`elseif`, the loops, each `switch` clause, `catch` and `-and`/`-or` add a
 * path; script blocks belong to their function; parameters from `f($a)` or `param($a)`.
 */
export const POWERSHELL_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "elseif_clause",
    "switch_clause",
    "foreach_statement",
    "for_statement",
    "while_statement",
    "do_statement",
    "catch_clause",
  ],
  operators: { logical_expression: ["-and", "-or"] },
  nesting: [
    "if_statement",
    "switch_statement",
    "foreach_statement",
    "for_statement",
    "while_statement",
    "do_statement",
    "try_statement",
  ],
  functions: ["function_statement", "class_method_definition"],
  parameters: {
    lists: ["parameter_list", "class_method_parameter_list"],
    skip: ["comment"],
  },
};

/** R: `if`, the loops and `&&`/`||` add a path; `else if` stays at its level. */
export const R_COMPLEXITY: ComplexityRules = {
  branches: ["if_statement", "for_statement", "while_statement", "repeat_statement"],
  operators: { binary_operator: ["&&", "||"] },
  nesting: ["if_statement", "for_statement", "while_statement", "repeat_statement"],
  chains: { if_statement: ["if_statement"] },
  functions: ["function_definition"],
  parameters: { lists: ["parameters"], skip: ["comment", "comma"] },
};

/**
 * Julia: `if`/`elseif`, the loops, `catch`, `?:`, comprehension `for`/`if` and `&&`/`||` add a
 * path; `do` blocks and arrow functions are measured on their own.
 */
export const JULIA_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "elseif_clause",
    "for_statement",
    "while_statement",
    "catch_clause",
    "ternary_expression",
    "for_clause",
    "if_clause",
  ],
  nesting: ["if_statement", "for_statement", "while_statement", "try_statement"],
  functions: ["function_definition", "arrow_function_expression"],
  parameters: { lists: ["argument_list"], skip: ["line_comment", "block_comment"] },
};

/**
 * GDScript: `if`/`elif`, the loops, each `match` branch, `?:` and `and`/`or` add a path; lambdas
 * are measured on their own.
 */
export const GDSCRIPT_COMPLEXITY: ComplexityRules = {
  branches: [
    "if_statement",
    "elif_clause",
    "for_statement",
    "while_statement",
    "pattern_section",
    "conditional_expression",
  ],
  operators: { binary_operator: ["and", "or", "&&", "||"] },
  nesting: ["if_statement", "for_statement", "while_statement", "match_statement"],
  functions: ["function_definition", "lambda"],
  parameters: { lists: ["parameters"], skip: ["comment"] },
};
