/**
 * LaTeX: `\input{chapters/intro}` is `chapters/intro.tex` (or the name as written), relative to
 * the file, then to the root.
 */
import type { ImportRecord } from "../types.ts";
import { dirName, firstFile, joinPath, type RepoView } from "./repo.ts";

/** The import resolver named `tex`. */
export function resolveTex(file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier;
  if (spec === "" || spec.startsWith("/")) return null;
  const names = spec.endsWith(".tex") ? [spec] : [`${spec}.tex`, spec];
  return firstFile(repo, names.flatMap((n) => [joinPath(dirName(file), n), n]));
}
