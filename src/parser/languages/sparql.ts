import type { GrammarSpec } from "../language_spec.ts";

/**
 * SPARQL queries and updates (`.rq`, `.sparql`; not `.ru`, which is Ruby's `config.ru`): a `PREFIX` declaration is a constant named
 * by its prefix (`foaf` for `PREFIX foaf: <...>`); the queries themselves have no names, so they are
 * found by `search_text`. Comments directly above a prefix are its doc. Calls are extension
 * functions applied by IRI (`ex:distance(?a, ?b)`: `distance` on `ex`); SPARQL has no imports
 * (`FROM <graph>` names data, not code).
 *
 * Grammar: `tree-sitter-sparql` from `@cursorless/tree-sitter-wasms` (BonaBeavis/tree-sitter-sparql
 * 0.1.0).
 */
export const sparql: GrammarSpec = {
  id: "sparql",
  extensions: [".rq", ".sparql"],
  grammar: "sparql",
  grammarModule: "@cursorless/tree-sitter-wasms/out/tree-sitter-sparql.wasm",
  definitions: `
(prefix_declaration (namespace (pn_prefix) @name)) @definition.constant
`,
  calls: `
(function_call identifier: (prefixed_name (namespace (pn_prefix) @receiver) (pn_local) @name))
  @reference.call
`,
  docComments: { nodeTypes: ["comment"] },
};
