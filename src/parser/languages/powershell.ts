import type { GrammarSpec } from "../language_spec.ts";
import { POWERSHELL_COMPLEXITY } from "../complexity/scripting.ts";

/**
 * PowerShell: `function`/`filter` statements are functions (`function global:prompt` is named
 * `prompt`); `class` is a class with its methods; `enum` is a type. Doc comments are the `#` lines (or `<# #>` block) directly above. Imports are
 * `Import-Module x` and dot-sourcing (`. ./x.ps1`), resolved as paths. Calls are commands
 * (`Get-Item`, `Write-Output`) and method calls (`$x.Do()`).
 *
 * Grammar: `tree-sitter-powershell` (its own wasm, ABI 15).
 */
export const powershell: GrammarSpec = {
  id: "powershell",
  extensions: [".ps1", ".psm1", ".psd1"],
  grammar: "powershell",
  grammarModule: "tree-sitter-powershell/tree-sitter-powershell.wasm",
  definitions: `
(function_statement (function_name) @name (script_block) @body) @definition.function
(class_statement . (simple_name) @name) @definition.class
(class_method_definition (simple_name) @name (script_block) @body) @definition.method
(enum_statement . (simple_name) @name) @definition.type
`,
  imports: `
(command command_name: (command_name) @_import command_elements: (command_elements
  . (command_argument_sep)? . (generic_token) @import.source)
  (#match? @_import "^(?i:import-module)$")) @import
(command (command_invokation_operator) @_dot command_name: (command_name_expr) @import.source
  (#eq? @_dot ".")) @import
`,
  calls: `
((command command_name: (command_name) @name) @reference.call
  (#not-match? @name "^(?i:import-module)$"))
(invokation_expression (_) @receiver . "." . (member_name) @name) @reference.call
`,
  docComments: { nodeTypes: ["comment"] },
  // `function global:prompt` is one `function_name` token: the scope modifier is not the name.
  nameTrim: /^(global|local|script|private):/i,
  resolver: "path",
  complexity: POWERSHELL_COMPLEXITY,
};
