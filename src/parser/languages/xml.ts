import type { GrammarSpec } from "../language_spec.ts";

/**
 * An element whose start tag `tag` has an `id` (or `xml:id`) attribute, named by its value; not an
 * XSLT attribute value template (`id="{$id}"`), computed when the stylesheet runs.
 */
function withId(tag: string): string {
  return `(element (${tag} (Attribute (Name) @_id (AttValue) @name) (#any-of? @_id "id" "xml:id")
  (#not-match? @name "[{]"))) @definition.constant`;
}

/** An element named by `tags` (a regex of its tag name) with a `name` attribute, as `capture`. */
function named(tags: string, capture: string, tag = "STag"): string {
  return `((element (${tag} (Name) @_tag (Attribute (Name) @_attr (AttValue) @name))) ${capture}
  (#match? @_tag "${tags}") (#eq? @_attr "name"))`;
}

/** A child of the document's root element that `named` would match: a top-level declaration. */
function topLevel(tags: string, capture: string): string {
  return ["STag", "EmptyElemTag"].map((tag) =>
    `(document root: (element (content ${named(tags, capture, tag)})))`
  ).join("\n");
}

/**
 * XML (and XSD, XSLT, property lists, MSBuild projects): an element with an `id` or `xml:id`
 * attribute is a constant named by the id (quotes removed), its range the whole element, as ctags
 * tags it. XSLT: `xsl:template name` and `xsl:function` are functions, the stylesheet's top-level
 * `xsl:variable` and `xsl:param` constants. XSD: named `complexType` and `simpleType` are types,
 * top-level `element`s and `attribute`s constants. Nothing else is a symbol, so a large document
 * stays a short outline. Imports are the `href` or `schemaLocation` of `include`, `import` and
 * `redefine` elements (XInclude, XSLT, XSD), resolved as paths relative to the file. Files over
 * 1 MB are data: text only.
 *
 * Grammar: `tree-sitter-xml` from `@cursorless/tree-sitter-wasms`
 * (tree-sitter-grammars/tree-sitter-xml).
 */
export const xml: GrammarSpec = {
  id: "xml",
  content: "data",
  extensions: [".xml", ".xsd", ".xsl", ".xslt", ".plist", ".csproj", ".fsproj"],
  grammar: "xml",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-xml.wasm",
  maxSymbolBytes: 1_000_000,
  nameTrim: /^["']|["']$/g,
  definitions: `
${withId("STag")}
${withId("EmptyElemTag")}
${named("^xsl:(template|function)$", "@definition.function")}
${named("^xsl:template$", "@definition.function", "EmptyElemTag")}
${topLevel("^xsl:(variable|param)$", "@definition.constant")}
${named("^xsd?:(complexType|simpleType)$", "@definition.type")}
${topLevel("^xsd?:(element|attribute)$", "@definition.constant")}
`,
  imports: `
((_ (Name) @_tag (Attribute (Name) @_href (AttValue) @import.source)) @import
  (#match? @_tag "(^|:)(include|import|redefine)$") (#any-of? @_href "href" "schemaLocation"))
`,
  resolver: "path",
  docComments: { nodeTypes: ["Comment"], skipTypes: ["CharData"] },
};
