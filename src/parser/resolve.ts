/**
 * Import resolution: fills `ImportRecord.resolved` with the repo file a specifier refers to, using
 * repo-wide knowledge (the set of files, go.mod, composer.json). Each language's spec names its
 * resolver (`LanguageSpec.resolver`); each family's resolver is a file of `resolvers/`, listed
 * here by that name.
 */
import type { ParseResult } from "./types.ts";
import type { ResolverName } from "./language_spec.ts";
import { languageById } from "./registry.ts";
import type { RepoView, Resolver } from "./resolvers/repo.ts";
import { resolveC } from "./resolvers/c.ts";
import { resolveDart } from "./resolvers/dart.ts";
import { resolveGo } from "./resolvers/go.ts";
import { resolveJavaScript } from "./resolvers/javascript.ts";
import { resolveJvm } from "./resolvers/jvm.ts";
import { resolveLua } from "./resolvers/lua.ts";
import { resolveModuleFile } from "./resolvers/module_file.ts";
import { resolvePath } from "./resolvers/path.ts";
import { resolvePhp } from "./resolvers/php.ts";
import { resolvePython } from "./resolvers/python.ts";
import { resolveRuby } from "./resolvers/ruby.ts";
import { resolveRust } from "./resolvers/rust.ts";
import { resolveTex } from "./resolvers/tex.ts";

export type { RepoView, Resolver } from "./resolvers/repo.ts";

/**
 * File names the resolvers read through `RepoView.readFile` (a source that is not a folder on
 * disk, such as a GitHub repository, fetches these ahead of resolution).
 */
export const RESOLVER_MANIFESTS: readonly string[] = ["go.mod", "composer.json", "pubspec.yaml"];

/**
 * Fill `resolved` on every import of every result, in place. `allFiles` holds every repo-relative
 * POSIX path of the repository (not only parsed files: `go.mod`, `composer.json`, `Cargo.toml` are
 * consulted through `readFile`, which returns a file's text or `undefined`). Imports that do not
 * resolve to a file of the repo keep `resolved: null` (external).
 *
 * @example Resolve a relative Python import
 * ```ts
 * import { deepEqual as assertEquals } from "node:assert/strict";
 * import { parseSource, resolveImports } from "./mod.ts";
 * const enc = new TextEncoder();
 * const result = await parseSource("pkg/a.py", enc.encode("from .b import f\n"));
 * resolveImports([result], new Set(["pkg/a.py", "pkg/b.py"]), () => undefined);
 * assertEquals(result.imports[0]?.resolved, "pkg/b.py");
 * ```
 */
export function resolveImports(
  results: ParseResult[],
  allFiles: ReadonlySet<string>,
  readFile: (path: string) => string | undefined,
  options: { rootName?: string } = {},
): void {
  const cache = new Map<string, unknown>();
  const repo: RepoView = {
    files: allFiles,
    readFile,
    ...(options.rootName !== undefined ? { rootName: options.rootName } : {}),
    memo<T>(key: string, compute: () => T): T {
      if (!cache.has(key)) cache.set(key, compute());
      return cache.get(key) as T;
    },
  };
  for (const result of results) {
    const name = languageById(result.language)?.resolver;
    if (name === undefined) continue;
    const resolver = RESOLVERS[name];
    for (const record of result.imports) {
      const target = resolver(result.file, record, repo);
      record.resolved = target === result.file ? null : target;
    }
  }
}

/** Resolvers by the name a `LanguageSpec` gives in `resolver`. */
export const RESOLVERS: Record<ResolverName, Resolver> = {
  path: resolvePath,
  tex: resolveTex,
  lua: resolveLua,
  dart: resolveDart,
  python: resolvePython,
  javascript: resolveJavaScript,
  go: resolveGo,
  rust: resolveRust,
  jvm: resolveJvm,
  c: resolveC,
  ruby: resolveRuby,
  php: resolvePhp,
  module_file: resolveModuleFile,
};
