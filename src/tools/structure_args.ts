/** What the code-structure tools share: the `scope` argument (a folder or a glob). */
import { z } from "zod";
import { globMatcher } from "../query/glob.ts";

/** The `scope` argument. */
export const SCOPE = z.string().max(1000).optional().describe(
  "Folder or glob of files",
);

/**
 * Whether a path is in `scope`: under the folder it names, or matching it as a glob when it
 * holds `*`, `?` or `[` (always true without a scope).
 */
export function scopeMatcher(scope: string | undefined): (path: string) => boolean {
  if (scope === undefined || scope === "" || scope === "." || scope === "/") return () => true;
  if (/[*?[]/.test(scope)) return globMatcher(scope);
  const folder = scope.replace(/^\.\//, "").replace(/\/+$/, "");
  return (path) => path === folder || path.startsWith(folder + "/");
}
