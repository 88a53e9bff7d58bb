/**
 * JavaScript / TypeScript: relative specifiers, extensions, index files, `.js` written for `.ts`.
 */
import type { ImportRecord } from "../types.ts";
import { dirName, firstFile, joinPath, type RepoView } from "./repo.ts";

const _JS_EXTENSIONS = [
  ".ts",
  ".tsx",
  ".d.ts",
  ".js",
  ".jsx",
  ".mjs",
  ".cjs",
  ".mts",
  ".cts",
  ".vue",
];

/** The import resolver named `javascript`. */
export function resolveJavaScript(
  file: string,
  record: ImportRecord,
  repo: RepoView,
): string | null {
  const spec = record.specifier;
  if (!spec.startsWith("./") && !spec.startsWith("../") && spec !== "." && spec !== "..") {
    return null;
  }
  const base = joinPath(dirName(file), spec);
  const stem = base.replace(/\.(m|c)?js$|\.jsx$/, "");
  return firstFile(repo, [
    base,
    ..._JS_EXTENSIONS.map((e) => base + e),
    ...(stem !== base ? _JS_EXTENSIONS.map((e) => stem + e) : []),
    ..._JS_EXTENSIONS.map((e) => joinPath(base, "index" + e)),
  ]);
}
