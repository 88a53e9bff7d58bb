import type { GrammarSpec } from "../language_spec.ts";
import { VERILOG_COMPLEXITY } from "../complexity/functional.ts";

/**
 * Verilog and SystemVerilog (tree-sitter/tree-sitter-verilog 1.0.0, the build `@optave/codegraph`
 * ships, copied into `grammars/`): `module` and `interface` → class; `package` qualifies names;
 * SystemVerilog `class` → class; `typedef` → type; `function` and `task` → function (method in a
 * class); `` `define `` → template; `localparam`/`parameter` at module level → constant. Module
 * instantiations (`adder u_add (...)`) and task/function calls are calls; `` `include `` is an
 * import (resolved as a path). `//` comments directly above are docstrings.
 */
export const verilog: GrammarSpec = {
  id: "verilog",
  extensions: [".v", ".vh", ".sv", ".svh"],
  grammar: "verilog",
  grammarModule: "codemunch-grammars/tree-sitter-verilog.wasm",
  definitions: `
(module_declaration (module_header (simple_identifier) @name)) @definition.class
(interface_declaration (interface_ansi_header (interface_identifier (simple_identifier) @name))) @definition.class
(interface_declaration (interface_nonansi_header (interface_identifier (simple_identifier) @name))) @definition.class
(package_declaration (package_identifier (simple_identifier) @name)) @namespace
(class_declaration (class_identifier (simple_identifier) @name)) @definition.class
(type_declaration (simple_identifier) @name) @definition.type
(function_declaration (function_body_declaration (function_identifier (function_identifier (simple_identifier) @name)))) @definition.function
(task_declaration (task_body_declaration (task_identifier (task_identifier (simple_identifier) @name)))) @definition.function
(text_macro_definition (text_macro_name (text_macro_identifier (simple_identifier) @name))) @definition.template
(module_or_generate_item (package_or_generate_item_declaration (local_parameter_declaration
  (list_of_param_assignments (param_assignment (parameter_identifier (simple_identifier) @name)))))) @definition.constant
`,
  imports: `
(include_compiler_directive (double_quoted_string) @import.source) @import
`,
  calls: `
(module_instantiation . (simple_identifier) @name) @reference.call
(tf_call (simple_identifier) @name) @reference.call
`,
  docComments: { nodeTypes: ["comment"] },
  resolver: "path",
  complexity: VERILOG_COMPLEXITY,
};
