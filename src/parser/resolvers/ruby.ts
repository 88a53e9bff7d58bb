/**
 * Ruby: `require_relative "x"` from the file's directory; `require "x"` from `lib/`, then the root.
 */
import type { ImportRecord } from "../types.ts";
import { dirName, firstFile, joinPath, type RepoView } from "./repo.ts";

/** The import resolver named `ruby`. */
export function resolveRuby(file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier.replace(/\.rb$/, "");
  return firstFile(repo, [
    joinPath(dirName(file), spec + ".rb"),
    joinPath("lib", spec + ".rb"),
    spec + ".rb",
  ]);
}
