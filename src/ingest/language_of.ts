/** The language of a repo-relative path, as every source's selection asks it. */
import { languageIdForPath } from "../parser/mod.ts";

/**
 * The language id a path is indexed under (a grammar's, or a text-only one's such as SQL,
 * reStructuredText or plain text), `undefined` for a file that is not indexed.
 */
export function languageOf(path: string): string | undefined {
  return languageIdForPath(path);
}
