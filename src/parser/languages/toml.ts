import type { GrammarSpec } from "../language_spec.ts";

/**
 * TOML: top-level keys, tables (`[server]`, `[server.tls]` as `tls` scoped by `server`), arrays of
 * tables (`[[bin]]`, each one a symbol, numbered `~1`, `~2`...) and the keys directly in a table
 * are constants. No imports or calls.
 */
export const toml: GrammarSpec = {
  id: "toml",
  content: "data",
  extensions: [".toml"],
  fileNames: ["Pipfile"],
  grammar: "toml",
  // Larger files are data (translations, fixtures, generated specs): text only.
  maxSymbolBytes: 64_000,
  definitions: `
(document (pair . [(bare_key) (quoted_key) (dotted_key)] @name) @definition.constant)
${
    ["table", "table_array_element"].map((t) => `
(${t} . [(bare_key) (quoted_key)] @name) @definition.constant
(${t} . (dotted_key (_) @name .) @scope) @definition.constant
(${t} (pair . [(bare_key) (quoted_key) (dotted_key)] @name) @definition.constant)`).join("")
  }
`,
};
