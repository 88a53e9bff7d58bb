import type { GrammarSpec } from "../language_spec.ts";

/**
 * Java `.properties` files (resource bundles, configuration): every key is a constant, named as
 * written (escapes kept, as in the file: `key\ with\ space`), its doc the `#`/`!` comments directly
 * above. No imports or calls.
 *
 * Grammar: `tree-sitter-properties` from `@cursorless/tree-sitter-wasms`
 * (tree-sitter-grammars/tree-sitter-properties).
 */
export const properties: GrammarSpec = {
  id: "properties",
  content: "data",
  extensions: [".properties"],
  grammar: "properties",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-properties.wasm",
  // Larger files are data (generated message catalogues): text only.
  maxSymbolBytes: 256_000,
  definitions: `(property (key) @name) @definition.constant`,
  docComments: { nodeTypes: ["comment"] },
};
