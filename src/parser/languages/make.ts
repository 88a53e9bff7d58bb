import type { GrammarSpec } from "../language_spec.ts";

/**
 * Makefiles: a rule is a function named by its first target (`build: main.o`; special targets
 * such as `.PHONY` are not symbols, and a rule's other targets are not either); top-level
 * variable assignments (`CC := gcc`), also in either branch of a top-level `ifeq`/`ifdef` (and of
 * one nested in it), are constants (one per branch: `EXE#constant~1`, `~2`); `define NAME ...
 * endef` is a template.
 * Imports: `include`/`-include` file names, resolved as paths.
 *
 * Grammar: `tree-sitter-make` (its own wasm, ABI 14).
 */
export const make: GrammarSpec = {
  id: "make",
  extensions: [".mk", ".mak", ".make"],
  fileNames: ["Makefile", "makefile", "GNUmakefile"],
  grammar: "make",
  grammarModule: "tree-sitter-make/tree-sitter-make.wasm",
  definitions: `
(rule (targets . (word) @name) (#not-match? @name "^[.]")) @definition.function
(makefile (variable_assignment name: (word) @name) @definition.constant)
(makefile (conditional (variable_assignment name: (word) @name) @definition.constant))
(makefile (conditional (conditional (variable_assignment name: (word) @name) @definition.constant)))
(makefile (conditional (else_directive (variable_assignment name: (word) @name) @definition.constant)))
(define_directive name: (word) @name) @definition.template
`,
  imports: `(include_directive filenames: (list (word) @import.source)) @import`,
  docComments: { nodeTypes: ["comment"] },
  resolver: "path",
};
