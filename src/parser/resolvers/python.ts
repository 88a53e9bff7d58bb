/**
 * Python: packages (`a/b/__init__.py`), modules (`a/b.py`), relative imports, `src/` layouts and
 * a repository whose root is itself the package (django's checkout: `django.db` → `db/`).
 */
import type { ImportRecord } from "../types.ts";
import { dirName, firstFile, joinPath, type RepoView } from "./repo.ts";

function _pythonModule(repo: RepoView, base: string, dotted: string): string | null {
  const path = dotted.split(".").filter((s) => s !== "").join("/");
  return firstFile(repo, [
    joinPath(base, path + ".py"),
    joinPath(base, path, "__init__.py"),
    joinPath(base, path + ".pyi"),
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

/** The package name a root folder is imported by, or null when it is no Python identifier. */
function _ownPackage(rootName: string | undefined): string | null {
  return rootName !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(rootName) ? rootName : null;
}

/** The import resolver named `python`. */
export function resolvePython(file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier;
  const relative = /^(\.+)(.*)$/.exec(spec);
  if (relative) {
    let base = dirName(file);
    for (let i = 1; i < relative[1]!.length; i++) base = dirName(base);
    const rest = relative[2]!;
    if (rest === "") {
      for (const n of record.names) {
        const hit = _pythonModule(repo, base, n);
        if (hit !== null) return hit;
      }
      return firstFile(repo, [joinPath(base, "__init__.py")]);
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
    const own = _ownPackage(repo.rootName);
    if (own !== null) {
      // The checkout is the package `own` (site-packages/django): `django.db` is `db/`, `django`
      // is the root `__init__.py`; any other first part is another package, never this one.
      if (spec === own) return firstFile(repo, ["__init__.py"]);
      if (!spec.startsWith(own + ".")) return null;
      const rest = spec.slice(own.length + 1);
      return _pythonModule(repo, "", rest) ?? _pythonSubmodule(repo, "", rest, record.names);
    }
    // The folder's name is unknown or no Python name: drop the first part when the rest names a
    // module of the repo and the first part is no top-level dir or module.
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
