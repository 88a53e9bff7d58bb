/**
 * A module named as its file (Emacs Lisp's `(require 'x)`: `x.el`; ReScript's `open X`: `X.res`,
 * unique in a project; TLA+'s `EXTENDS X`: `X.tla`): the file of that base name, with an
 * extension of the importing file's language, beside the importing file, else anywhere in the
 * repository (the shortest path first). A dotted name (`Js.Promise`) is its first part's file.
 */
import { posix } from "node:path";
import type { ImportRecord } from "../types.ts";
import { dirName, firstFile, joinPath, type RepoView } from "./repo.ts";
import { languageForPath } from "../registry.ts";

/** The import resolver named `module_file`. */
export function resolveModuleFile(
  file: string,
  record: ImportRecord,
  repo: RepoView,
): string | null {
  const language = languageForPath(file);
  if (language === undefined) return null;
  const byName = repo.memo(`module_file.${language.id}`, () => {
    const out = new Map<string, string>();
    const paths = [...repo.files].filter((f) => languageForPath(f)?.id === language.id);
    paths.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    for (const f of paths) {
      const base = posix.basename(f);
      if (!out.has(base)) out.set(base, f);
    }
    return out;
  });
  const spec = record.specifier;
  for (const name of new Set([spec, spec.split(".")[0]!])) {
    if (name === "" || name.includes("/")) continue;
    for (const ext of language.extensions) {
      const beside = firstFile(repo, [joinPath(dirName(file), name + ext)]);
      if (beside !== null) return beside;
    }
    for (const ext of language.extensions) {
      const found = byName.get(name + ext);
      if (found !== undefined) return found;
    }
  }
  return null;
}
