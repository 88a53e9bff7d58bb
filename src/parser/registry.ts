/** Lookup of languages by id and by file path (extension or exact file name). */
import type { LanguageSpec } from "./language_spec.ts";
import { LANGUAGES } from "./languages/mod.ts";

const _byId = new Map<string, LanguageSpec>(LANGUAGES.map((l) => [l.id, l]));

/**
 * The language of a file by its exact name (`Rakefile`) or longest matching extension (`.d.ts`
 * before `.ts`), case-insensitively; `undefined` when no language claims it.
 *
 * @example Python by extension
 * ```ts
 * import { deepEqual as assertEquals } from "node:assert/strict";
 * import { languageForPath } from "./mod.ts";
 * assertEquals(languageForPath("src/app/main.py")?.id, "python");
 * assertEquals(languageForPath("README.md"), undefined);
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

/** The language with this registry id, or `undefined`. */
export function languageById(id: string): LanguageSpec | undefined {
  return _byId.get(id);
}
