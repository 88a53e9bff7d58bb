/**
 * The folders a server may index, from `CODEMUNCH_ALLOWED_ROOTS` — one rule shared by the
 * launcher (`scripts/serve.ts`, which turns them into read permissions), the server (`main.ts`,
 * through {@linkcode ingestConfigFromEnv}) and the banner, so "unset" means the same everywhere:
 *
 * - set: its paths (a path list, `:`-separated, `;` on Windows; `~` is the home directory),
 *   resolved against the working directory;
 * - unset or empty: the folder the server was started in — unless that folder is a filesystem
 *   root (`/`, `C:\`) or the home directory, where desktop clients start their servers: then no
 *   folder at all, so such a server never silently opens the whole disk or home.
 *
 * Imports only `node:path` and the import-free index_dir.ts: the launcher loads it at start-up.
 *
 * @module
 */
import { delimiter, dirname, resolve } from "node:path";
import { expandHome } from "../store/index_dir.ts";

/** The allowed roots and where they came from. */
export interface AllowedRoots {
  /** Absolute folders; empty when no folder may be indexed. */
  roots: string[];
  /**
   * `env`: from `CODEMUNCH_ALLOWED_ROOTS`; `cwd`: the working directory (variable unset);
   * `none`: unset, and the working directory is a filesystem root or the home directory.
   */
  source: "env" | "cwd" | "none";
}

/**
 * The allowed roots for this environment and working directory.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { allowedRoots } from "./allowed_roots.ts";
 * const env = (vars: Record<string, string>) => (n: string) => vars[n];
 * deepEqual(allowedRoots(env({}), "/home/u/src"), { roots: ["/home/u/src"], source: "cwd" });
 * deepEqual(allowedRoots(env({}), "/"), { roots: [], source: "none" });
 * deepEqual(allowedRoots(env({ HOME: "/home/u" }), "/home/u"), { roots: [], source: "none" });
 * ```
 */
export function allowedRoots(
  env: (name: string) => string | undefined,
  cwd: string,
): AllowedRoots {
  const text = env("CODEMUNCH_ALLOWED_ROOTS");
  if (text !== undefined && text.trim() !== "") {
    const roots = text.split(delimiter).map((r) => r.trim()).filter((r) => r !== "")
      .map((r) => resolve(cwd, expandHome(r, env)));
    return { roots: [...new Set(roots)], source: "env" };
  }
  const here = resolve(cwd);
  const home = env("HOME") ?? env("USERPROFILE");
  const isHome = home !== undefined && home !== "" && resolve(home) === here;
  if (dirname(here) === here || isHome) return { roots: [], source: "none" };
  return { roots: [here], source: "cwd" };
}

/** One line for humans: which folders may be indexed, and why. */
export function describeAllowedRoots(a: AllowedRoots, cwd: string): string {
  switch (a.source) {
    case "env":
      return `${a.roots.join(", ")} (CODEMUNCH_ALLOWED_ROOTS)`;
    case "cwd":
      return `${
        a.roots[0]
      } (the folder the server started in; set CODEMUNCH_ALLOWED_ROOTS to change)`;
    case "none":
      return `none — started in ${cwd} with CODEMUNCH_ALLOWED_ROOTS unset; set it to the folders to index`;
  }
}
