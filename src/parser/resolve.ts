/**
 * Import resolution: fills `ImportRecord.resolved` with the repo file a specifier refers to, using
 * repo-wide knowledge (the set of files, go.mod, composer.json). Each language's spec names its
 * resolver (`LanguageSpec.resolver`); the resolvers live here, keyed by that name.
 */
import { posix } from "node:path";
import type { ImportRecord, ParseResult } from "./types.ts";
import type { ResolverName } from "./language_spec.ts";
import { languageById } from "./registry.ts";

/** What a resolver may consult about the repository. */
export interface RepoView {
  files: ReadonlySet<string>;
  readFile: (path: string) => string | undefined;
  /** Lazily computed per-repo facts, cached by key. */
  memo<T>(key: string, compute: () => T): T;
}

/** Resolve one import of `file`; null when the specifier is external or unknown. */
export type Resolver = (file: string, record: ImportRecord, repo: RepoView) => string | null;

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
): void {
  const cache = new Map<string, unknown>();
  const repo: RepoView = {
    files: allFiles,
    readFile,
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

function _first(repo: RepoView, candidates: Iterable<string>): string | null {
  for (const c of candidates) {
    const n = posix.normalize(c);
    if (!n.startsWith("../") && n !== ".." && repo.files.has(n)) return n;
  }
  return null;
}

function _dir(file: string): string {
  const d = posix.dirname(file);
  return d === "." ? "" : d;
}

function _join(...parts: string[]): string {
  return posix.join(...parts.filter((p) => p !== ""));
}

// ---------------------------------------------------------------------------------------------
// Python: packages (`a/b/__init__.py`), modules (`a/b.py`), relative imports, `src/` layouts and
// a repository whose root is itself the package (django's checkout: `django.db` → `db/`).

function _pythonModule(repo: RepoView, base: string, dotted: string): string | null {
  const path = dotted.split(".").filter((s) => s !== "").join("/");
  return _first(repo, [
    _join(base, path + ".py"),
    _join(base, path, "__init__.py"),
    _join(base, path + ".pyi"),
  ]);
}

function _pythonRoots(
  repo: RepoView,
): { roots: string[]; rootIsPackage: boolean; topDirs: Set<string> } {
  return repo.memo("python.roots", () => {
    const roots = [""];
    const topDirs = new Set<string>();
    for (const f of repo.files) {
      const slash = f.indexOf("/");
      if (slash > 0) topDirs.add(f.slice(0, slash));
    }
    for (const r of ["src", "lib"]) {
      if (topDirs.has(r)) roots.push(r);
    }
    // A root `__init__.py` means the checkout is a package whose own name prefixes imports.
    return { roots, rootIsPackage: repo.files.has("__init__.py"), topDirs };
  });
}

function _resolvePython(file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier;
  const relative = /^(\.+)(.*)$/.exec(spec);
  if (relative) {
    let base = _dir(file);
    for (let i = 1; i < relative[1]!.length; i++) base = _dir(base);
    const rest = relative[2]!;
    if (rest === "") {
      for (const n of record.names) {
        const hit = _pythonModule(repo, base, n);
        if (hit !== null) return hit;
      }
      return _first(repo, [_join(base, "__init__.py")]);
    }
    return _pythonModule(repo, base, rest) ??
      _pythonSubmodule(repo, base, rest, record.names);
  }
  const { roots, rootIsPackage, topDirs } = _pythonRoots(repo);
  for (const root of roots) {
    const hit = _pythonModule(repo, root, spec) ??
      _pythonSubmodule(repo, root, spec, record.names);
    if (hit !== null) return hit;
  }
  if (rootIsPackage) {
    // `django.db.models` inside a checkout of the django package itself: drop the first part
    // when the rest names a module of the repo and the first part is no top-level dir or module.
    const dot = spec.indexOf(".");
    const head = dot === -1 ? spec : spec.slice(0, dot);
    if (
      dot !== -1 && !topDirs.has(head) && _pythonModule(repo, "", head) === null
    ) {
      const rest = spec.slice(dot + 1);
      return _pythonModule(repo, "", rest) ?? _pythonSubmodule(repo, "", rest, record.names);
    }
  }
  return null;
}

/** `from a import b` where `b` is a module: resolve to `a/b.py` when `a` itself is not found. */
function _pythonSubmodule(
  repo: RepoView,
  base: string,
  dotted: string,
  names: readonly string[],
): string | null {
  for (const n of names) {
    if (n === "*") continue;
    const hit = _pythonModule(repo, base, `${dotted}.${n}`);
    if (hit !== null) return hit;
  }
  return null;
}

/** Resolvers by the name a `LanguageSpec` gives in `resolver`. */
export const RESOLVERS: Record<ResolverName, Resolver> = {
  python: _resolvePython,
  javascript: () => null,
  go: () => null,
  rust: () => null,
  jvm: () => null,
  c: () => null,
  ruby: () => null,
  php: () => null,
};
