/**
 * Lua: `require("a.b")` is `a/b.lua` or `a/b/init.lua`, from the root, then `lua/` and `src/`
 * (the usual module roots); a module name may also be written with slashes.
 */
import type { ImportRecord } from "../types.ts";
import { firstFile, joinPath, type RepoView } from "./repo.ts";

/** The import resolver named `lua`. */
export function resolveLua(_file: string, record: ImportRecord, repo: RepoView): string | null {
  const path = record.specifier.replace(/\.lua$/, "").replaceAll(".", "/");
  if (path === "") return null;
  const candidates: string[] = [];
  for (const root of ["", "lua", "src"]) {
    candidates.push(joinPath(root, path + ".lua"), joinPath(root, path, "init.lua"));
  }
  return firstFile(repo, candidates);
}
