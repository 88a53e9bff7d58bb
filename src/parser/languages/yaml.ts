import type { GrammarSpec } from "../language_spec.ts";

/** A mapping key, plain or quoted (the quotes stay in the name). */
const KEY = `key: (flow_node [(plain_scalar) (double_quote_scalar) (single_quote_scalar)] @name)`;

/**
 * YAML: the top-level keys of each document, and every key whose value is a block mapping (a
 * named section, at any depth: `services.web`, `jobs.build`), are constants; nesting is the
 * scope. Keys of scalar or sequence values inside a section are not symbols. No imports or calls.
 *
 * Grammar: `@tree-sitter-grammars/tree-sitter-yaml` (its own wasm, ABI 14): the build in
 * tree-sitter-wasms does not load in web-tree-sitter 0.25 ("resolved is not a function").
 */
export const yaml: GrammarSpec = {
  id: "yaml",
  content: "data",
  extensions: [".yaml", ".yml"],
  grammar: "yaml",
  grammarModule: "@tree-sitter-grammars/tree-sitter-yaml/tree-sitter-yaml.wasm",
  // Larger files are data (translations, fixtures, generated specs): text only.
  maxSymbolBytes: 64_000,
  definitions: `
(document (block_node (block_mapping (block_mapping_pair ${KEY}) @definition.constant)))
(block_mapping_pair ${KEY} value: (block_node (block_mapping))) @definition.constant
`,
};
