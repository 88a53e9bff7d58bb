/**
 * The parser: tree-sitter extraction of symbols, imports and calls (records of `types.ts`,
 * API.md §4.1) for every language of the registry (`languages/`, one data entry per language; see
 * `LANGUAGES.md`).
 *
 * ```ts ignore
 * // One file, in this thread (tests, small jobs). Never throws for a bad file: it comes back
 * // "skipped" (unknown type, grammar fails to load, too large, minified, timeout) or "partial"
 * // (syntax errors, invalid UTF-8) with the reason. Throws only for a query bug in a spec.
 * parseSource(file: string, bytes: Uint8Array, language?: string, limits?: ExtractLimits):
 *   Promise<ParseResult>
 *
 * // Many files: a pool of worker threads (default navigator.hardwareConcurrency); parse() may be
 * // called concurrently (jobs queue); bytes are copied to the worker; always close().
 * new ParserPool(options?: { workers?: number; limits?: ExtractLimits })
 * pool.parse(file: string, bytes: Uint8Array, language?: string): Promise<ParseResult>
 * pool.close(): Promise<void>
 *
 * // After parsing a whole repo: fill ImportRecord.resolved in place. allFiles holds every
 * // repo-relative POSIX path (not only parsed ones); readFile(path) returns a repo file's text or
 * // undefined (used for go.mod, composer.json). Unresolved imports keep resolved: null.
 * resolveImports(results: ParseResult[], allFiles: ReadonlySet<string>,
 *   readFile: (path: string) => string | undefined): void
 *
 * buildOutline(symbols: readonly SymbolRecord[]): OutlineNode[]   // { symbol, children }
 * languageForPath(path: string): LanguageSpec | undefined          // extension or file name
 * languageForSource(path, bytes): LanguageSpec | undefined         // + content, for `.h` headers
 * ```
 *
 * A `deno compile` binary needs the grammars and the worker embedded: `--include
 * node_modules/web-tree-sitter --include src/parser/worker.ts` and one `--include
 * node_modules/<specifier>` per grammar file the registry names (`grammarModules()` in
 * `registry.ts`), or `--include grammars/<file>` for the grammars we build
 * (`codemunch-grammars/<file>`); `scripts/compile.ts` builds the list.
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
export type {
  DocCommentRule,
  ExtractorName,
  ExtractorSpec,
  GrammarSpec,
  LanguageSpec,
  RegionRule,
  ResolverName,
} from "./language_spec.ts";
export { isGrammarSpec } from "./language_spec.ts";
export { GRAMMAR_LANGUAGES, LANGUAGES } from "./languages/mod.ts";
export {
  canonicalLanguageId,
  knownLanguageIds,
  languageById,
  languageForPath,
  languageForSource,
  languageIdForPath,
} from "./registry.ts";
export { isTextLanguage, TEXT_LANGUAGES } from "./text_languages.ts";
export { parseSource } from "./parse.ts";
export type { ExtractLimits } from "./extract.ts";
export { type RepoView, resolveImports, type Resolver, RESOLVERS } from "./resolve.ts";
export { buildOutline, type OutlineNode } from "./outline.ts";
export { ParserPool, type ParserPoolOptions } from "./pool.ts";
export { EXTRACTOR_VERSION } from "./version.ts";
export { SYMBOL_KINDS } from "./types.ts";
