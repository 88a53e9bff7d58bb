/** In-process parsing of one file: language lookup, limits, grammar loading, extraction. */
import type { ParseResult } from "./types.ts";
import { type ExtractorSpec, isGrammarSpec, type LanguageSpec } from "./language_spec.ts";
import { languageById, languageForSource } from "./registry.ts";
import { textOnlyResult } from "./text_languages.ts";
import { loadLanguage } from "./loader.ts";
import { extractFile, type ExtractLimits, precheck } from "./extract.ts";
import { SourceText } from "./source_text.ts";
import { loadExtractor } from "./extractors/mod.ts";
import { buildResult } from "./extractors/records.ts";

/**
 * Parse one file in this thread and extract its symbols, imports and calls. A text-only file
 * (`text_languages.ts`: SQL, reStructuredText, plain text...) comes back `ok` with no records.
 * Throws only when one of
 * the language's queries does not compile (a bug in its spec); never for a bad file: a file that cannot be parsed (unknown language, grammar that fails to load, too large,
 * minified, parse timeout) comes back with `status: "skipped"` and the reason; a file with syntax
 * errors comes back `"partial"` with whatever tree-sitter recovered.
 *
 * @example Parse a Python file
 * ```ts
 * import { deepEqual as assertEquals } from "node:assert/strict";
 * import { parseSource } from "./mod.ts";
 * const bytes = new TextEncoder().encode("def hello():\n    return 1\n");
 * const result = await parseSource("app.py", bytes);
 * assertEquals(result.symbols.map((s) => s.id), ["app.py::hello#function"]);
 * ```
 */
export function parseSource(
  file: string,
  bytes: Uint8Array,
  language?: string,
  limits: ExtractLimits = {},
): Promise<ParseResult> {
  const spec = language === undefined ? languageForSource(file, bytes) : languageById(language);
  const base: ParseResult = {
    file,
    language: spec?.id ?? language ?? "",
    status: "skipped",
    reason: null,
    symbols: [],
    imports: [],
    calls: [],
  };
  const text = spec === undefined ? textOnlyResult(file, language) : undefined;
  if (text !== undefined) return Promise.resolve(text);
  if (spec === undefined) {
    base.reason = language === undefined
      ? "unsupported file type"
      : `unknown language: "${language}"`;
    return Promise.resolve(base);
  }
  return parseWithSpec(spec, file, bytes, limits);
}

/**
 * Parse one file with a given language spec (one not necessarily in the registry). Same contract
 * as `parseSource`.
 */
export async function parseWithSpec(
  spec: LanguageSpec,
  file: string,
  bytes: Uint8Array,
  limits: ExtractLimits = {},
): Promise<ParseResult> {
  const base: ParseResult = {
    file,
    language: spec.id,
    status: "skipped",
    reason: null,
    symbols: [],
    imports: [],
    calls: [],
  };
  const source = new SourceText(bytes);
  const tooBig = precheck(source, limits);
  if (tooBig !== null) {
    base.reason = tooBig;
    return base;
  }
  if (spec.maxSymbolBytes !== undefined && bytes.length > spec.maxSymbolBytes) {
    return {
      ...base,
      status: "ok",
      reason: `data file over ${spec.maxSymbolBytes} bytes: indexed as text only`,
    };
  }
  if (!isGrammarSpec(spec)) return _extractWith(spec, file, source, base);
  let loaded;
  try {
    loaded = await loadLanguage(spec);
  } catch (e) {
    // A query that does not compile is our bug: fail loudly. A grammar that cannot load is data.
    if (e instanceof SyntaxError) throw e;
    base.reason = `grammar failed to load: ${e instanceof Error ? e.message : String(e)}`;
    return base;
  }
  return extractFile(loaded, file, source, limits);
}

/** Read a file with the npm parser its spec names (`extractors/`). */
async function _extractWith(
  spec: ExtractorSpec,
  file: string,
  source: SourceText,
  base: ParseResult,
): Promise<ParseResult> {
  let extractor;
  try {
    extractor = await loadExtractor(spec.extractor);
  } catch (e) {
    base.reason = `parser failed to load: ${e instanceof Error ? e.message : String(e)}`;
    return base;
  }
  let found;
  try {
    found = extractor.extract(source.text, file);
  } catch (e) {
    base.reason = `parser failed: ${e instanceof Error ? e.message : String(e)}`;
    return base;
  }
  return buildResult(spec.id, file, source, found);
}
