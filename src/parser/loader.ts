/**
 * Grammar loading: web-tree-sitter's runtime and the prebuilt grammars of `tree-sitter-wasms` (or
 * the `.wasm` a spec names with `grammarModule`, e.g. `@tree-sitter-grammars/tree-sitter-lua`),
 * located through module resolution (`import.meta.resolve`) so the same code works under
 * `deno run`, in tests and in a `deno compile` binary that embeds `node_modules/web-tree-sitter`
 * and each grammar file the registry names (`grammarModules()`, `scripts/compile.ts`).
 * Each grammar is loaded lazily, once per process (worker), and every query of a language is
 * compiled when the language loads, failing loudly with the language and query named.
 */
import { isMainThread } from "node:worker_threads";
import { Language, Parser, Query } from "web-tree-sitter";
import { type GrammarSpec, grammarSpecifier } from "./language_spec.ts";
import { compileComplexity, type CompiledComplexity } from "./complexity/measure.ts";
import { loadExtractor } from "./extractors/mod.ts";
import type { Extractor } from "./extractors/records.ts";

/** A language ready to parse: its grammar, a parser bound to it and its compiled queries. */
export interface LoadedLanguage {
  spec: GrammarSpec;
  parser: Parser;
  /**
   * The definitions, imports and calls queries as one, so a file's tree is walked once. Captures
   * keep their names except the calls query's `@name`, renamed `@callee`.
   */
  combined: Query;
  /**
   * Host parser and region query when the spec has `regions`, and the loaded `regions.variants`
   * (each with these same `regions`).
   */
  regions: { parser: Parser; query: Query; variants: Map<string, LoadedLanguage> } | null;
  /**
   * The spec's `embeds`: each query compiled on the outer grammar (the region host's, else the
   * spec's own), with the loaded languages that parse its regions.
   */
  embeds: LoadedEmbed[];
  /** The spec's `macroBodies` query, compiled on its own grammar. */
  macroBodies: Query | null;
  /** The spec's complexity rules compiled for its grammar, or null when it has none. */
  complexity: CompiledComplexity | null;
  /** The spec's `errorScanner`, loaded, or null when it has none. */
  errorScanner: Extractor | null;
}

/** One loaded `EmbedRule`. */
export interface LoadedEmbed {
  query: Query;
  language: LoadedLanguage;
  variants: Map<string, LoadedLanguage>;
}

/** Capture names each query may use (captures starting with `_` are free for predicates). */
const _ALLOWED_CAPTURES: Record<"definitions" | "imports" | "calls" | "regions", RegExp> = {
  definitions:
    /^(definition\.(function|class|method|constant|type|template|field|property|variable)|container|namespace|name|scope|body|declaration|doc|decorator)$/,
  imports: /^import(\.source|\.names?|\.alias)?$/,
  calls: /^(reference\.call|name|receiver)$/,
  regions: /^region(\.language|\.inner)?$/,
};

let _runtime: Promise<void> | undefined;
/** Grammar loads run one at a time: web-tree-sitter's dynamic linking is not re-entrant. */
let _loading: Promise<unknown> = Promise.resolve();
const _grammars = new Map<string, Promise<Language>>();
const _languages = new Map<string, Promise<LoadedLanguage>>();

/**
 * URL of a grammar's `.wasm` file, found through the import map: `module` (a spec's
 * `grammarModule`) or by default `tree-sitter-wasms/out/tree-sitter-<grammar>.wasm`.
 */
export function grammarUrl(grammar: string, module?: string): URL {
  return new URL(import.meta.resolve(grammarSpecifier(grammar, module)));
}

function _initRuntime(): Promise<void> {
  _runtime ??= (async () => {
    const url = new URL("tree-sitter.wasm", import.meta.resolve("web-tree-sitter"));
    const wasmBinary = await Deno.readFile(url);
    await Parser.init({ wasmBinary });
  })();
  return _runtime;
}

/**
 * Load a grammar once per process (per `.wasm` file: `module` as in `grammarUrl`); a failure is
 * remembered and rethrown to every caller.
 */
export function loadGrammar(grammar: string, module?: string): Promise<Language> {
  const key = module ?? grammar;
  let pending = _grammars.get(key);
  if (pending === undefined) {
    const previous = _loading;
    pending = (async () => {
      await previous.catch(() => {});
      await _initRuntime();
      let bytes: Uint8Array;
      try {
        bytes = await Deno.readFile(grammarUrl(grammar, module));
      } catch (e) {
        throw new Error(`Cannot read grammar "${grammar}": ${_message(e)}`);
      }
      try {
        // Off the main thread only: there a compile at once would stop the server answering.
        const language = await (isMainThread ? Language.load(bytes) : _compiledNow(() =>
          Language.load(bytes)
        ));
        // An ABI the runtime does not support only shows when a parser takes the language.
        const probe = new Parser();
        try {
          probe.setLanguage(language);
        } finally {
          probe.delete();
        }
        return language;
      } catch (e) {
        throw new Error(`Cannot load grammar "${grammar}": ${_message(e)}`);
      }
    })();
    _grammars.set(key, pending);
    _loading = pending;
  }
  return pending;
}

/**
 * Run `load` (web-tree-sitter's `Language.load`) with `WebAssembly.instantiate` of bytes done at
 * once, on this thread: `new WebAssembly.Module` and `new WebAssembly.Instance`, the same module
 * and instance. V8's asynchronous compile queues behind the optimising (tier-up) compiles of the
 * grammars already parsing, so a grammar loaded between parses waited seconds on a busy 2-core
 * machine: the 67 grammars of fixtures/languages loaded between their files' parses took 60 s
 * instead of 9 s (Lua alone, 8 ms on its own, 11 s). Grammar loads run one at a time
 * (`_loading`), and the replacement is put back when `load` settles.
 */
async function _compiledNow<T>(load: () => Promise<T>): Promise<T> {
  const instantiate = WebAssembly.instantiate;
  const now = (source: BufferSource, imports?: WebAssembly.Imports) => {
    const module = new WebAssembly.Module(source);
    return Promise.resolve({ module, instance: new WebAssembly.Instance(module, imports) });
  };
  WebAssembly.instantiate =
    ((source: BufferSource | WebAssembly.Module, imports) =>
      source instanceof WebAssembly.Module
        ? instantiate(source, imports)
        : now(source, imports)) as typeof WebAssembly.instantiate;
  try {
    return await load();
  } finally {
    WebAssembly.instantiate = instantiate;
  }
}

/** Compile one query of a language, checking its capture names; throws naming both. */
export function compileQuery(
  language: Language,
  specId: string,
  which: keyof typeof _ALLOWED_CAPTURES,
  source: string,
): Query {
  let query: Query;
  try {
    query = new Query(language, source);
  } catch (e) {
    throw new SyntaxError(
      `Cannot compile ${which} query of language "${specId}": ${_message(e)}`,
    );
  }
  for (const name of query.captureNames) {
    if (!name.startsWith("_") && !_ALLOWED_CAPTURES[which].test(name)) {
      query.delete();
      throw new SyntaxError(
        `Cannot compile ${which} query of language "${specId}": unknown capture "@${name}"`,
      );
    }
  }
  return query;
}

/** The definitions query alone of each loaded language, compiled on first use. */
const _definitions = new WeakMap<LoadedLanguage, Query>();

/**
 * A loaded language's definitions query alone (compiled on first use, then kept): what a
 * symbols-only parse runs instead of the combined query.
 */
export function definitionsQuery(loaded: LoadedLanguage): Query {
  let query = _definitions.get(loaded);
  if (query === undefined) {
    const language = loaded.parser.language;
    if (language === null) throw new Error(`The parser of "${loaded.spec.id}" has no language`);
    query = compileQuery(language, loaded.spec.id, "definitions", loaded.spec.definitions);
    _definitions.set(loaded, query);
  }
  return query;
}

/** Load a language's grammar and compile all its queries, once per process. */
export function loadLanguage(spec: GrammarSpec): Promise<LoadedLanguage> {
  let pending = _languages.get(spec.id);
  if (pending === undefined) {
    pending = (async () => {
      const loaded = await _compileSpec(spec);
      if (spec.regions !== undefined) {
        const host = await loadGrammar(spec.regions.grammar, spec.regions.grammarModule);
        const hostParser = new Parser();
        hostParser.setLanguage(host);
        const variants = new Map<string, LoadedLanguage>();
        const regions = {
          parser: hostParser,
          query: compileQuery(host, spec.id, "regions", spec.regions.query),
          variants,
        };
        loaded.regions = regions;
        for (const [key, v] of Object.entries(spec.regions.variants ?? {})) {
          const variant: GrammarSpec = { ...spec, grammar: v.grammar, definitions: v.definitions };
          delete variant.grammarModule;
          if (v.grammarModule !== undefined) variant.grammarModule = v.grammarModule;
          if (v.imports !== undefined) variant.imports = v.imports;
          if (v.calls !== undefined) variant.calls = v.calls;
          if (v.docComments !== undefined) variant.docComments = v.docComments;
          // The rules name node types of the variant's grammar: only its own apply.
          delete variant.complexity;
          if (v.complexity !== undefined) variant.complexity = v.complexity;
          delete variant.errorScanner;
          variants.set(key, { ...await _compileSpec(variant), regions });
        }
      }
      if (spec.embeds !== undefined && spec.embeds.length > 0) {
        const outer = spec.regions !== undefined
          ? await loadGrammar(spec.regions.grammar, spec.regions.grammarModule)
          : await loadGrammar(spec.grammar, spec.grammarModule);
        for (const rule of spec.embeds) {
          const variants = new Map<string, LoadedLanguage>();
          for (const [key, v] of Object.entries(rule.variants ?? {})) {
            variants.set(key, await loadLanguage(v));
          }
          loaded.embeds.push({
            query: compileQuery(outer, spec.id, "regions", rule.query),
            language: await loadLanguage(rule.language),
            variants,
          });
        }
      }
      return loaded;
    })();
    _languages.set(spec.id, pending);
  }
  return pending;
}

/**
 * A spec's grammar, a parser bound to it and its compiled queries (no regions yet). Only the
 * combined query is compiled (compiling a query is a large part of a worker's start-up): each
 * part's capture names are checked on its source, and the parts are compiled one by one only when
 * the combined query does not compile, to name the one at fault.
 */
async function _compileSpec(spec: GrammarSpec): Promise<LoadedLanguage> {
  const language = await loadGrammar(spec.grammar, spec.grammarModule);
  const parts: [keyof typeof _ALLOWED_CAPTURES, string | undefined][] = [
    ["definitions", spec.definitions],
    ["imports", spec.imports],
    ["calls", spec.calls],
  ];
  for (const [which, source] of parts) {
    if (source === undefined) continue;
    for (const name of querySourceCaptures(source)) {
      if (!name.startsWith("_") && !_ALLOWED_CAPTURES[which].test(name)) {
        throw new SyntaxError(
          `Cannot compile ${which} query of language "${spec.id}": unknown capture "@${name}"`,
        );
      }
    }
  }
  let combined: Query;
  try {
    combined = new Query(
      language,
      [
        spec.definitions,
        spec.imports ?? "",
        (spec.calls ?? "").replace(/@name\b/g, "@callee"),
      ].join("\n"),
    );
  } catch (e) {
    for (const [which, source] of parts) {
      if (source !== undefined) compileQuery(language, spec.id, which, source).delete();
    }
    throw new SyntaxError(
      `Cannot compile the combined queries of language "${spec.id}": ${_message(e)}`,
    );
  }
  const complexity = spec.complexity === undefined
    ? null
    : compileComplexity(language, spec.id, spec.complexity);
  const parser = new Parser();
  parser.setLanguage(language);
  const macroBodies = spec.macroBodies === undefined
    ? null
    : compileQuery(language, spec.id, "regions", spec.macroBodies);
  const errorScanner = spec.errorScanner === undefined
    ? null
    : await loadExtractor(spec.errorScanner);
  return {
    spec,
    parser,
    combined,
    regions: null,
    embeds: [],
    macroBodies,
    complexity,
    errorScanner,
  };
}

/**
 * The capture names (without `@`) written in a query's source, in order of appearance, repeats
 * included; strings and `;` comments are skipped.
 */
export function querySourceCaptures(source: string): string[] {
  const names: string[] = [];
  const n = source.length;
  for (let i = 0; i < n; i++) {
    const c = source[i];
    if (c === '"') {
      for (i++; i < n && source[i] !== '"'; i++) if (source[i] === "\\") i++;
    } else if (c === ";") {
      while (i < n && source[i] !== "\n") i++;
    } else if (c === "@") {
      const m = /^[\p{L}\p{N}_.\-]+/u.exec(source.slice(i + 1, i + 201));
      if (m !== null) {
        names.push(m[0]);
        i += m[0].length;
      }
    }
  }
  return names;
}

function _message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
