/**
 * The index directory and `~` expansion, with no imports at all: the server (`main.ts serve`)
 * and the launcher (`scripts/serve.ts`) need them at start-up, before anything else is loaded,
 * where even `node:path` costs ~15 ms. `paths.ts` re-exports both.
 */

const _SEP = Deno.build.os === "windows" ? "\\" : "/";

/**
 * The index directory: `$CODE_INDEX_PATH`, else `~/.code-index`.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { defaultIndexDir } from "./index_dir.ts";
 * equal(defaultIndexDir((n) => ({ CODE_INDEX_PATH: "/srv/idx" })[n]), "/srv/idx");
 * ```
 */
export function defaultIndexDir(env: (name: string) => string | undefined): string {
  const configured = env("CODE_INDEX_PATH");
  if (configured !== undefined && configured !== "") return expandHome(configured, env);
  const home = env("HOME") ?? env("USERPROFILE");
  if (home === undefined || home === "") {
    throw new Error("Cannot locate the index directory: set CODE_INDEX_PATH or HOME");
  }
  return home.replace(/[\\/]+$/, "") + _SEP + ".code-index";
}

/** Replace a leading `~` with the home directory. */
export function expandHome(path: string, env: (name: string) => string | undefined): string {
  if (path !== "~" && !path.startsWith("~/")) return path;
  const home = env("HOME") ?? env("USERPROFILE") ?? "";
  return home + path.slice(1);
}
