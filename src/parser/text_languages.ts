/**
 * Files indexed as text only: stored whole for `search_text` and `get_file_content`, with a
 * language id, but no symbols (no grammar of ours reads them). They are the languages whose
 * parser no npm package publishes and no scanner of ours reads (CMake; see `LANGUAGES.md`), and plain documents (reStructuredText, AsciiDoc, text, INI-style configuration, BibTeX). Languages with a
 * grammar (Markdown, YAML, JSON, TOML, SQL, XML, Java `.properties`...) are `LanguageSpec`s instead
 * and get symbols too.
 */

import type { ParseResult } from "./types.ts";

/** A text-only language: how its files are recognised. */
export interface TextLanguage {
  /** Stored as the file's language (`protobuf`). Never the id of a `LanguageSpec`. */
  id: string;
  /** Extensions with the dot, lower case; matched like a spec's (longest wins). */
  extensions: string[];
  /** Exact file names (`Dockerfile`, `CMakeLists.txt`). @default [] */
  fileNames?: string[];
  /** File name prefixes (`Dockerfile.` for `Dockerfile.dev`). @default [] */
  prefixes?: string[];
}

export const TEXT_LANGUAGES: readonly TextLanguage[] = [
  { id: "asciidoc", extensions: [".adoc", ".asciidoc", ".asc"] },
  { id: "cmake", extensions: [".cmake"], fileNames: ["CMakeLists.txt"] },
  { id: "ini", extensions: [".ini", ".cfg", ".conf"] },
  { id: "restructuredtext", extensions: [".rst"] },
  { id: "bibtex", extensions: [".bib"] },
  {
    id: "text",
    extensions: [".txt", ".text"],
    fileNames: [
      "AUTHORS",
      "CHANGELOG",
      "CHANGES",
      "CODEOWNERS",
      "CONTRIBUTORS",
      "COPYING",
      "LICENSE",
      "NOTICE",
      "Procfile",
      "README",
    ],
  },
];

const _ids = new Set(TEXT_LANGUAGES.map((l) => l.id));

/**
 * The text-only language of a path: exact file name first (`CMakeLists.txt` before `.txt`), then
 * a name prefix, then the longest matching extension; `undefined` when none claims it.
 *
 * @example
 * ```ts
 * import { deepEqual as assertEquals } from "node:assert/strict";
 * import { textLanguageForPath } from "./text_languages.ts";
 * assertEquals(textLanguageForPath("docs/index.rst"), "restructuredtext");
 * assertEquals(textLanguageForPath("CMakeLists.txt"), "cmake");
 * assertEquals(textLanguageForPath("docs/notes.txt"), "text");
 * assertEquals(textLanguageForPath("logo.png"), undefined);
 * ```
 */
export function textLanguageForPath(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const lower = base.toLowerCase();
  for (const l of TEXT_LANGUAGES) if (l.fileNames?.includes(base)) return l.id;
  for (const l of TEXT_LANGUAGES) if (l.prefixes?.some((p) => base.startsWith(p))) return l.id;
  let best: string | undefined;
  let bestLength = 0;
  for (const l of TEXT_LANGUAGES) {
    for (const ext of l.extensions) {
      if (ext.length > bestLength && lower.endsWith(ext) && lower.length > ext.length) {
        best = l.id;
        bestLength = ext.length;
      }
    }
  }
  return best;
}

/** Whether a language id is a text-only one (stored without symbols). */
export function isTextLanguage(id: string): boolean {
  return _ids.has(id);
}

/**
 * The result of a text-only file (`text_languages.ts`: stored for text search, no symbols to
 * extract), found from its path or given `language`; `undefined` for any other file.
 */
export function textOnlyResult(file: string, language?: string): ParseResult | undefined {
  const id = language ?? textLanguageForPath(file);
  if (id === undefined || !isTextLanguage(id)) return undefined;
  return {
    file,
    language: id,
    status: "ok",
    reason: null,
    symbols: [],
    imports: [],
    calls: [],
  };
}
