import type { GrammarSpec } from "../language_spec.ts";

/**
 * SQL (PostgreSQL, MySQL, SQLite and standard DDL): `CREATE TABLE`, `VIEW`, `MATERIALIZED VIEW`
 * and `TYPE` are types (nominal record types); `CREATE FUNCTION` and `CREATE TRIGGER` are
 * functions; `CREATE INDEX name` and `CREATE SEQUENCE` are constants (named schema objects that
 * are neither types nor code). Names are the object's own (`users` in `public.users`: a schema is
 * not a scope). Doc comments are the `--` or `/* ... *\/` lines directly above the statement.
 * Calls are invocations of named functions (`lower(name)`); SQL has no imports.
 *
 * Grammar: DerekStride/tree-sitter-sql 0.3.11, built by us from its npm source package
 * (`grammars/`, `scripts/build_grammars.sh`): no package publishes it as WebAssembly. It does not
 * parse `CREATE PROCEDURE` or PL/pgSQL bodies (`$$ BEGIN ... END $$`): those are syntax errors.
 */
export const sql: GrammarSpec = {
  id: "sql",
  extensions: [".sql", ".psql", ".pgsql", ".mysql"],
  grammar: "sql",
  grammarModule: "codemunch-grammars/tree-sitter-sql.wasm",
  definitions: `
(create_table (object_reference name: (identifier) @name)) @definition.type
(create_view (object_reference name: (identifier) @name)) @definition.type
(create_materialized_view (object_reference name: (identifier) @name)) @definition.type
(create_type (object_reference name: (identifier) @name)) @definition.type
(create_function (object_reference name: (identifier) @name)) @definition.function
(create_trigger (keyword_trigger) . (object_reference name: (identifier) @name))
  @definition.function
(create_index column: (identifier) @name) @definition.constant
(create_sequence (object_reference name: (identifier) @name)) @definition.constant
`,
  calls: `
(invocation (object_reference name: (identifier) @name)) @reference.call
`,
  docComments: { nodeTypes: ["comment", "marginalia"], wrapperTypes: ["statement"] },
};
