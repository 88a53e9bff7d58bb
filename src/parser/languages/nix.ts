import type { GrammarSpec } from "../language_spec.ts";
import { NIX_COMPLEXITY } from "../complexity/functional.ts";

/** A value that is a function (`x: ...`, `{ a, b }: ...`): such bindings are functions. */
const FUNCTION_TEXT = String.raw`^([A-Za-z_][A-Za-z0-9_'-]*[ \t\n]*:|[{][^}=;]*[}][ \t\n]*:)`;

/** Bindings of a binding set under `parent`, other than functions, as constants. */
function constants(parent: string): string {
  return `${
    parent.replaceAll(
      "BINDINGS",
      `(binding_set (binding attrpath: (attrpath) @name
    expression: (_) @_value) @definition.constant (#not-match? @_value "${FUNCTION_TEXT}"))`,
    )
  }`;
}

/**
 * Nix: a binding whose value is a function (`helper = x: ...`, `mkShell = { inputs }: ...`) is a
 * function, at any depth; the other bindings of the file's value (its top-level attribute set,
 * its `let` bindings, also when the file is a function `{ pkgs, ... }: ...`) are constants,
 * named by their attribute path (`nested.attr`). Imports are `import ./path.nix` (and
 * `callPackage ./x.nix`), resolved as paths; calls are applications of a named function.
 *
 * Grammar: `tree-sitter-nix` from `@cursorless/tree-sitter-wasms`.
 */
export const nix: GrammarSpec = {
  id: "nix",
  extensions: [".nix"],
  grammar: "nix",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-nix.wasm",
  definitions: `
(binding attrpath: (attrpath) @name expression: (function_expression body: (_) @body))
  @definition.function
${constants("(source_code [(attrset_expression BINDINGS) (rec_attrset_expression BINDINGS)])")}
${constants("(source_code (let_expression BINDINGS))")}
${
    constants(
      "(source_code (let_expression body: [(attrset_expression BINDINGS) (rec_attrset_expression BINDINGS)]))",
    )
  }
${
    constants(
      "(source_code (function_expression body: [(attrset_expression BINDINGS) (rec_attrset_expression BINDINGS)]))",
    )
  }
${constants("(source_code (function_expression body: (let_expression BINDINGS)))")}
${
    constants(
      "(source_code (function_expression body: (let_expression body: [(attrset_expression BINDINGS) (rec_attrset_expression BINDINGS)])))",
    )
  }
`,
  imports: `
(apply_expression function: (variable_expression name: (identifier) @_import)
  argument: (path_expression) @import.source (#eq? @_import "import")) @import
(apply_expression function: (apply_expression function: [(variable_expression name: (identifier) @_call)
  (select_expression attrpath: (attrpath (identifier) @_call .))]
  argument: (path_expression) @import.source) (#eq? @_call "callPackage")) @import
`,
  calls: `
((apply_expression function: (variable_expression name: (identifier) @name)) @reference.call
  (#not-eq? @name "import"))
(apply_expression function: (select_expression expression: (_) @receiver
  attrpath: (attrpath (identifier) @name .))) @reference.call
`,
  docComments: { nodeTypes: ["comment"] },
  resolver: "path",
  complexity: NIX_COMPLEXITY,
};
