import type { GrammarSpec } from "../language_spec.ts";

/**
 * XML Document Type Definitions: an `<!ELEMENT>` declaration is a type named by the element; an
 * `<!ATTLIST>` scopes its attributes (`para.role`), each a constant; general and parameter
 * `<!ENTITY>` declarations and `<!NOTATION>`s are constants. Comments directly above are docs.
 * Imports are the system identifiers of external parameter entities
 * (`<!ENTITY % x SYSTEM "x.mod">`), resolved as paths relative to the file.
 *
 * Grammar: `tree-sitter-dtd` from `@cursorless/tree-sitter-wasms` (tree-sitter-grammars/tree-sitter-xml).
 */
export const dtd: GrammarSpec = {
  id: "dtd",
  content: "data",
  extensions: [".dtd"],
  grammar: "dtd",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-dtd.wasm",
  definitions: `
(elementdecl (Name) @name) @definition.type
(AttlistDecl . (Name) @name) @container
(AttDef (Name) @name) @definition.constant
(GEDecl (Name) @name) @definition.constant
(PEDecl (Name) @name) @definition.constant
(NotationDecl (Name) @name) @definition.constant
`,
  imports: `
(PEDecl (ExternalID (SystemLiteral (URI) @import.source))) @import
`,
  resolver: "path",
  docComments: { nodeTypes: ["Comment"] },
};
