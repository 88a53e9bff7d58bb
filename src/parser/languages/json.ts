import type { GrammarSpec } from "../language_spec.ts";

/**
 * JSON (and JSON with comments: `.jsonc`, `tsconfig.json`): the document's
 * top-level keys, and every key whose value is an object (a named section, at any depth), are
 * constants; nesting is the scope (`compilerOptions.paths`). Keys of other values inside a section
 * are not symbols, so a large data file stays a short outline. No imports or calls.
 */
export const json: GrammarSpec = {
  id: "json",
  content: "data",
  extensions: [".json", ".jsonc"],
  grammar: "json",
  // Larger files are data (translations, fixtures, generated specs): text only.
  maxSymbolBytes: 64_000,
  definitions: `
(document (object (pair key: (string (string_content) @name)) @definition.constant))
(pair key: (string (string_content) @name) value: (object)) @definition.constant
`,
};
