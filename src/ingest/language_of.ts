/** The language of a repo-relative path, as every source's selection asks it (memoised). */
import { languageForPath, LANGUAGES } from "../parser/mod.ts";

const _languageFileNames = new Set(LANGUAGES.flatMap((l) => l.fileNames ?? []));
const _languageBySuffix = new Map<string, string | undefined>();

/**
 * The language id of a path. The registry matches exact file names and extensions, so for any
 * other name the answer depends only on the part from the first dot: memoised by that suffix.
 */
export function languageOf(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.indexOf(".");
  if (_languageFileNames.has(base) || dot <= 0) return languageForPath(path)?.id;
  const suffix = base.slice(dot).toLowerCase();
  if (!_languageBySuffix.has(suffix)) {
    _languageBySuffix.set(suffix, languageForPath("x" + suffix)?.id);
  }
  return _languageBySuffix.get(suffix);
}
