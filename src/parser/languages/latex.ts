import type { GrammarSpec } from "../language_spec.ts";

/** Sectioning commands, from the outermost. */
const SECTIONS = [
  "part",
  "chapter",
  "section",
  "subsection",
  "subsubsection",
  "paragraph",
  "subparagraph",
];

/**
 * LaTeX: sectioning commands (`\\part` to `\\subparagraph`) are `type` symbols whose range is the
 * whole section, so a document's outline is its section tree (`Introduction.Motivation`);
 * `\\newcommand`/`\\renewcommand`/`\\def` macros and `\\newenvironment` are templates; `\\label`s are
 * constants. Imports: `\\input`/`\\include` (paths, resolved with or without `.tex`),
 * `\\usepackage` and `\\documentclass` (packages, external).
 *
 * Grammar: `tree-sitter-latex` from `@cursorless/tree-sitter-wasms`.
 */
export const latex: GrammarSpec = {
  id: "latex",
  content: "document",
  extensions: [".tex", ".sty", ".cls", ".ltx"],
  grammar: "latex",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-latex.wasm",
  definitions: `
${SECTIONS.map((s) => `(${s} text: (curly_group (_) @name)) @definition.type`).join("\n")}
(new_command_definition declaration: [(curly_group_command_name (command_name) @name)
  (command_name) @name]) @definition.template
(old_command_definition declaration: (command_name) @name) @definition.template
(environment_definition name: (curly_group_text (text) @name)) @definition.template
(label_definition name: (curly_group_text (text) @name)) @definition.constant
`,
  imports: `
(latex_include path: (curly_group_path (path) @import.source)) @import
(package_include paths: (curly_group_path_list (path) @import.source)) @import
(class_include path: (curly_group_path (path) @import.source)) @import
`,
  docComments: { nodeTypes: ["line_comment"] },
  resolver: "tex",
};
