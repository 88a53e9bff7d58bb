/**
 * The index store: one SQLite database per repo under `CODE_INDEX_PATH`.
 *
 * - {@linkcode Store}: the index directory — list, resolve, open, write, delete repos; savings.
 * - {@linkcode RepoIndex}: read queries of one repo (files, symbols, search, imports, calls).
 * - {@linkcode RepoWriter}: one atomic re-index of one repo.
 *
 * @module
 */
export { Store, type UnreadableIndex } from "./store.ts";
export {
  type FileEntry,
  RepoIndex,
  type RepoMeta,
  type StoredCall,
  type StoredImport,
  type SymbolHit,
  type SymbolSearchOptions,
} from "./repo_index.ts";
export {
  type FileToStore,
  type ImportRow,
  RepoWriter,
  type StoredFileState,
  type WriterOptions,
} from "./repo_writer.ts";
export { SavingsCounter, type SavingsTotals } from "./savings.ts";
export { localRepoId, repoIdFromSlug, repoSlug } from "./paths.ts";
export { SCHEMA_VERSION } from "./schema.ts";
export { regexLiterals } from "./trigrams.ts";
export { splitIdentifier } from "./fts_text.ts";
