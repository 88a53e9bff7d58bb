/**
 * The parser: tree-sitter extraction of symbols, imports and calls for many languages.
 *
 * - `parseSource(file, bytes, language?)` parses one file in this thread.
 * - `ParserPool` parses in a pool of workers (default: one per CPU); the caller never blocks.
 * - `resolveImports(results, allFiles, readFile)` fills `ImportRecord.resolved` with repo files.
 * - `buildOutline(symbols)` turns a file's symbols into a tree.
 * - `languageForPath(path)` / `LANGUAGES` describe the registry (one data entry per language).
 *
 * @module
 */
export type {
  CallRecord,
  ImportRecord,
  ParseResult,
  ParseStatus,
  SymbolKind,
  SymbolRecord,
} from "./types.ts";
export type { DocCommentRule, LanguageSpec, RegionRule, ResolverName } from "./language_spec.ts";
export { LANGUAGES } from "./languages/mod.ts";
export { languageById, languageForPath } from "./registry.ts";
export { parseSource } from "./parse.ts";
export type { ExtractLimits } from "./extract.ts";
export { type RepoView, resolveImports, type Resolver, RESOLVERS } from "./resolve.ts";
export { buildOutline, type OutlineNode } from "./outline.ts";
export { ParserPool, type ParserPoolOptions } from "./pool.ts";
