import type { ExtractorSpec, GrammarSpec } from "../language_spec.ts";

/**
 * Markdown: each ATX heading (`#`...`######`) is a `type` symbol whose range is its whole
 * section (the heading, its text and its subsections), so the outline of a document is its
 * heading tree and `Install.From source` names a subsection. Setext headings (underlined with
 * `===`/`---`) are symbols of their own lines. No imports or calls.
 *
 * Read by our scanner of CommonMark's block structure (`extractors/markdown.ts`), which stands in
 * for the block grammar of `tree-sitter-markdown` ({@linkcode MARKDOWN_GRAMMAR}, kept as the
 * reference it is measured against): the same records, ten times faster.
 */
export const markdown: ExtractorSpec = {
  id: "markdown",
  content: "document",
  extensions: [".md", ".markdown", ".mdx", ".mkd"],
  extractor: "markdown",
};

/**
 * The tree-sitter reading Markdown had before the scanner (the block grammar of
 * `tree-sitter-markdown` from `@cursorless/tree-sitter-wasms`): not in the registry, kept so that
 * `tests/parser/markdown_test.ts` and `deno task bench markdown` compare the scanner with it.
 */
export const MARKDOWN_GRAMMAR: GrammarSpec = {
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
