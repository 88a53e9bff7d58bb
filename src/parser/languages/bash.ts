import type { GrammarSpec } from "../language_spec.ts";
import { BASH_COMPLEXITY } from "../complexity/scripting.ts";

/**
 * Bash (and POSIX sh): `name() {}` and `function name {}` are functions (a function defined
 * inside another is nested: `outer.inner`); variables made read-only at file level (`readonly X=`,
 * `declare -r X=`, `typeset -r X=`) are constants: the statement is the symbol, named by its first assignment. `source f` and `. f` are
 * imports (the path as written), resolved to a repo file relative to the script's directory, then the
 * root (at run time it is relative to the working directory; a path built from a variable stays
 * unresolved).
 * Every command is a call, its name the callee (`log::info` stays whole: `::` is only a naming
 * convention). Doc comments are the `#` lines directly above a definition.
 */
export const bash: GrammarSpec = {
  id: "bash",
  extensions: [".sh", ".bash"],
  fileNames: [".bashrc", ".bash_profile", ".bash_login", ".bash_logout"],
  grammar: "bash",
  definitions: `
(function_definition name: (word) @name body: (_) @body) @definition.function
(program (declaration_command "readonly" .
  (variable_assignment name: (variable_name) @name)) @definition.constant)
(program (declaration_command ["declare" "typeset"] . (word) @_flags .
  (variable_assignment name: (variable_name) @name)) @definition.constant
  (#match? @_flags "^-[a-zA-Z]*r"))
`,
  imports: `
(command name: (command_name (word) @_cmd) argument: (_) @import.source
  (#any-of? @_cmd "source" ".")) @import
`,
  calls: `
(command name: (command_name (word) @name)
  (#not-any-of? @name "source" ".")) @reference.call
`,
  docComments: { nodeTypes: ["comment"] },
  resolver: "path",
  complexity: BASH_COMPLEXITY,
};
