/**
 * The text of an import a refactoring plan writes: the language's import writer
 * (`LanguageSemantics.importWriter`: its statement, Python's `from m import a` or an ES
 * `import { a } from "./m"`, and the specifier of a target file as seen from the importing file)
 * over the repo's files.
 */
import { ToolError } from "../errors.ts";
import type { ImportWriter } from "../parser/language_spec.ts";
import { knownLanguageIds } from "../parser/registry.ts";
import { semanticsOf } from "../parser/semantics/mod.ts";
import { FILES } from "./files.ts";
import type { RepoView } from "./view.ts";

/**
 * The import writer of a language, or an `unsupported_language` error naming the languages that
 * have one.
 */
export function importWriterOf(language: string): ImportWriter {
  const writer = semanticsOf(language).importWriter;
  if (writer !== undefined) return writer;
  const written = knownLanguageIds().filter((id) => semanticsOf(id).importWriter !== undefined);
  throw new ToolError(
    "unsupported_language",
    `Cannot rewrite imports for ${language}: moves are planned for ${
      written.join(", ")
    }; use refactor_type rename, or move it by hand with check_references`,
  );
}

/** The name a whole-module import binds (`import x`, `import * as x`, `x = require(…)`). */
export function boundModule(line: string): string | null {
  return /\bas\s+([\p{L}_$][\p{L}\p{N}_$]*)/u.exec(line)?.[1] ??
    /^\s*import\s+([\p{L}_][\p{L}\p{N}_.]*)\s*$/u.exec(line)?.[1] ?? null;
}

/**
 * An import, written in `file`, of `names` from `target`, its specifier written like `like` (the
 * specifier it replaces, or one of the file's own).
 */
export function importLine(
  view: RepoView,
  file: string,
  target: string,
  names: string[],
  writer: ImportWriter,
  like: string | null,
): string {
  return writer.statement(importSpecifier(view, file, target, writer, like), names);
}

/** The specifier of `target` as written in `file`, like `like`. */
export function importSpecifier(
  view: RepoView,
  file: string,
  target: string,
  writer: ImportWriter,
  like: string | null,
): string {
  return writer.specifier(file, target, like, view.get(FILES).keys());
}
