/** Lookup of languages by id and by file path (extension or exact file name). */
import { type GrammarSpec, grammarSpecifier, type LanguageSpec } from "./language_spec.ts";
import { LANGUAGES } from "./languages/mod.ts";
import { isTextLanguage, TEXT_LANGUAGES, textLanguageForPath } from "./text_languages.ts";

const _byId = new Map<string, LanguageSpec>(LANGUAGES.map((l) => [l.id, l]));
/** Old or other names of a language (`protobuf`), to its id (`proto`). */
const _aliases = new Map<string, string>(
  LANGUAGES.flatMap((l) => (l.aliases ?? []).map((a) => [a, l.id] as const)),
);

/**
 * The language of a file by its exact name (`Rakefile`) or longest matching extension (`.d.ts`
 * before `.ts`), case-insensitively; `undefined` when no language claims it.
 *
 * @example Python by extension
 * ```ts
 * import { deepEqual as assertEquals } from "node:assert/strict";
 * import { languageForPath } from "./mod.ts";
 * assertEquals(languageForPath("src/app/main.py")?.id, "python");
 * assertEquals(languageForPath("notes.rst"), undefined);
 * ```
 */
export function languageForPath(path: string): LanguageSpec | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const lower = base.toLowerCase();
  let best: LanguageSpec | undefined;
  let bestLength = 0;
  for (const spec of LANGUAGES) {
    if (spec.fileNames?.includes(base)) return spec;
    for (const ext of spec.extensions) {
      if (ext.length > bestLength && lower.endsWith(ext) && lower.length > ext.length) {
        best = spec;
        bestLength = ext.length;
      }
    }
  }
  return best;
}

/**
 * The language id a file is indexed under: its `LanguageSpec`'s (parsed for symbols), else a
 * text-only language's (`sql`, `text`: stored for text search, no symbols, see
 * `text_languages.ts`); `undefined` for a file that is not indexed at all.
 *
 * @example
 * ```ts
 * import { deepEqual as assertEquals } from "node:assert/strict";
 * import { languageIdForPath } from "./registry.ts";
 * assertEquals(languageIdForPath("README.md"), "markdown");
 * assertEquals(languageIdForPath("migrations/001.sql"), "sql");
 * assertEquals(languageIdForPath("image.png"), undefined);
 * assertEquals(languageIdForPath("docker/Dockerfile.dev"), "dockerfile");
 * ```
 */
export function languageIdForPath(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.indexOf(".");
  const claimed = _detectByPath(path);
  if (claimed !== undefined) return claimed.id;
  if (dot <= 0 || _exactNames.has(base) || _prefixes.some((p) => base.startsWith(p))) {
    return languageForPath(path)?.id ?? textLanguageForPath(path);
  }
  // Any other name's answer depends only on the part from its first dot: memoised by that.
  const suffix = base.slice(dot).toLowerCase();
  let id = _bySuffix.get(suffix);
  if (id === undefined && !_bySuffix.has(suffix)) {
    id = languageForPath("x" + suffix)?.id ?? textLanguageForPath("x" + suffix);
    _bySuffix.set(suffix, id);
  }
  return id;
}

const _exactNames = new Set([
  ...LANGUAGES.flatMap((l) => l.fileNames ?? []),
  ...TEXT_LANGUAGES.flatMap((l) => l.fileNames ?? []),
]);
const _prefixes = TEXT_LANGUAGES.flatMap((l) => l.prefixes ?? []);
const _bySuffix = new Map<string, string | undefined>();

/**
 * The language of a file from its path and, where the extension is ambiguous, its content. A `.h`
 * header is Objective-C when it declares `@interface`/`@protocol`, C++ when it uses C++ (a class,
 * namespace or template, access specifiers, `std::`, C++-only keywords or standard headers), and
 * C otherwise — parsing a plain C header with the C grammar is both right and cheap (the C++
 * grammar's wasm takes V8 ~2.8 s of CPU and ~200 MB of transient memory to compile).
 *
 * @example A C header and a C++ header
 * ```ts
 * import { deepEqual as assertEquals } from "node:assert/strict";
 * import { languageForSource } from "./mod.ts";
 * const enc = new TextEncoder();
 * assertEquals(languageForSource("list.h", enc.encode("int list_len(void);\n"))?.id, "c");
 * assertEquals(languageForSource("shape.h", enc.encode("class Shape {\n public:\n};\n"))?.id, "cpp");
 * assertEquals(languageForSource("shape.hpp", enc.encode("int x;\n"))?.id, "cpp");
 * ```
 */
export function languageForSource(path: string, bytes: Uint8Array): LanguageSpec | undefined {
  const detected = _detect(path, bytes);
  if (detected !== undefined) return detected;
  const spec = languageForPath(path);
  if (spec?.id !== "cpp" || !path.toLowerCase().endsWith(".h")) return spec;
  const text = _latin1.decode(bytes);
  if (_OBJC_HEADER.test(text)) return _byId.get("objc") ?? spec;
  return _CPP_HEADER.test(text) ? spec : _byId.get("c") ?? spec;
}

const _DETECTING = LANGUAGES.filter((l) => l.detect !== undefined);

/**
 * The language whose `detect` rule claims a file of another language's extension (an OpenAPI
 * document in `.yaml`, an Ansible task file), by its path or its first 4 KB.
 */
function _detect(path: string, bytes: Uint8Array): LanguageSpec | undefined {
  const byPath = _detectByPath(path);
  if (byPath !== undefined) return byPath;
  const lower = path.toLowerCase();
  let head: string | undefined;
  for (const spec of _DETECTING) {
    const rule = spec.detect!;
    if (!rule.extensions.some((e) => lower.endsWith(e))) continue;
    if (rule.content !== undefined) {
      head ??= _latin1.decode(bytes.subarray(0, 4096));
      if (rule.content.test(head)) return spec;
    }
  }
  return undefined;
}

/** The language whose `detect.path` rule claims a path (`roles/web/tasks/main.yml`). */
function _detectByPath(path: string): LanguageSpec | undefined {
  if (_DETECTING.length === 0) return undefined;
  const lower = path.toLowerCase();
  return _DETECTING.find((spec) =>
    spec.detect!.path?.test(path) === true &&
    spec.detect!.extensions.some((e) => lower.endsWith(e))
  );
}

/** Bytes as characters one for one: enough for the ASCII markers below, and never fails. */
const _latin1 = new TextDecoder("latin1");

const _OBJC_HEADER = /^[ \t]*@(interface|protocol|end)\b/m;

/** Markers of C++ in a header (after GitHub Linguist's heuristics for `.h`). */
const _CPP_HEADER = new RegExp(
  [
    String
      .raw`^[ \t]*#[ \t]*include[ \t]*<(cstdint|cstddef|cstdlib|cstring|cstdio|cmath|string|string_view|vector|map|set|list|array|memory|functional|algorithm|utility|tuple|optional|variant|bitset|queue|stack|deque|forward_list|unordered_map|unordered_set|iostream|istream|ostream|sstream|fstream|chrono|thread|mutex|atomic|type_traits|limits|new)>`,
    String.raw`^[ \t]*template[ \t]*<`,
    String
      .raw`^[ \t]*(class|struct)[ \t]+\w+[ \t]*(final[ \t]*)?:[ \t]*(public|protected|private)\b`,
    String.raw`^[ \t]*class[ \t]+\w+`,
    String.raw`^[ \t]*(using[ \t]+)?namespace\b`,
    String.raw`^[ \t]*(public|protected|private)[ \t]*:`,
    String.raw`^[ \t]*extern[ \t]+"C\+\+"`,
    String.raw`\bstd::\w`,
    String
      .raw`\b(constexpr|nullptr|static_cast|dynamic_cast|reinterpret_cast|const_cast|noexcept|decltype)\b`,
    String.raw`^[ \t]*virtual\b`,
  ].join("|"),
  "m",
);

/** The language with this registry id (or one of its `aliases`), or `undefined`. */
export function languageById(id: string): LanguageSpec | undefined {
  return _byId.get(id) ?? _byId.get(_aliases.get(id) ?? "");
}

/**
 * The language id a user's `language` value means: a known id as it is, an alias (`protobuf`) as
 * its language's id (`proto`), anything else `undefined`.
 *
 * @example
 * ```ts
 * import { deepEqual as assertEquals } from "node:assert/strict";
 * import { canonicalLanguageId } from "./registry.ts";
 * assertEquals(canonicalLanguageId("python"), "python");
 * assertEquals(canonicalLanguageId("protobuf"), "proto");
 * assertEquals(canonicalLanguageId("ada"), "ada");
 * assertEquals(canonicalLanguageId("klingon"), undefined);
 * ```
 */
export function canonicalLanguageId(id: string): string | undefined {
  if (_byId.has(id) || isTextLanguage(id)) return id;
  return _aliases.get(id);
}

/**
 * The module specifier of every grammar `.wasm` the registry may load (each spec's, its region
 * host's and variants', its embeds'), sorted: what a `deno compile` binary must embed.
 */
export function grammarModules(): string[] {
  const found = new Set<string>();
  const add = (spec: { grammar: string; grammarModule?: string | undefined }) =>
    found.add(grammarSpecifier(spec.grammar, spec.grammarModule));
  const visit = (spec: LanguageSpec) => {
    if (spec.extractor !== undefined) return;
    visitGrammar(spec);
  };
  const visitGrammar = (spec: GrammarSpec) => {
    add(spec);
    if (spec.regions !== undefined) {
      add(spec.regions);
      for (const v of Object.values(spec.regions.variants ?? {})) add(v);
    }
    for (const e of spec.embeds ?? []) {
      visitGrammar(e.language);
      for (const v of Object.values(e.variants ?? {})) visitGrammar(v);
    }
  };
  for (const spec of LANGUAGES) visit(spec);
  return [...found].sort();
}

/**
 * Every language id a file can be indexed under: the registry's (with symbols) and the text-only
 * ones (`text_languages.ts`), sorted. Every language name of the reference server is one of them.
 */
export function knownLanguageIds(): string[] {
  // Aliases are left out: an error's list names each language once, by the id it is stored as.
  return [...new Set([...LANGUAGES.map((l) => l.id), ...TEXT_LANGUAGES.map((l) => l.id)])].sort();
}
