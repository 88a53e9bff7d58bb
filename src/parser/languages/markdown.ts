import type { GrammarSpec } from "../language_spec.ts";

/**
 * Markdown: each ATX heading (`#`...`######`) is a `type` symbol whose range is its whole
 * section (the heading, its text and its subsections), so the outline of a document is its
 * heading tree and `Install.From source` names a subsection. Setext headings (underlined with
 * `===`/`---`) are symbols of their own two lines (the grammar gives them no section). No
 * imports or calls.
 *
 * Grammar: the block grammar of `tree-sitter-markdown` from `@cursorless/tree-sitter-wasms`.
 */
export const markdown: GrammarSpec = {
  id: "markdown",
  content: "document",
  extensions: [".md", ".markdown", ".mdx", ".mkd"],
  grammar: "markdown",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-markdown.wasm",
  definitions: `
(section (atx_heading heading_content: (_) @name)) @definition.type
(setext_heading heading_content: (paragraph) @name) @definition.type
`,
};
