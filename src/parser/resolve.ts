/**
 * Import resolution: fills `ImportRecord.resolved` with the repo file a specifier refers to, using
 * repo-wide knowledge (the set of files, go.mod, composer.json). Each language's spec names its
 * resolver (`LanguageSpec.resolver`); the resolvers live here, keyed by that name.
 */
import { posix } from "node:path";
import type { ImportRecord, ParseResult } from "./types.ts";
import type { ResolverName } from "./language_spec.ts";
import { languageById, languageForPath } from "./registry.ts";

/** What a resolver may consult about the repository. */
export interface RepoView {
  files: ReadonlySet<string>;
  readFile: (path: string) => string | undefined;
  /** Lazily computed per-repo facts, cached by key. */
  memo<T>(key: string, compute: () => T): T;
}

/**
 * File names the resolvers read through `RepoView.readFile` (a source that is not a folder on
 * disk, such as a GitHub repository, fetches these ahead of resolution).
 */
export const RESOLVER_MANIFESTS: readonly string[] = ["go.mod", "composer.json", "pubspec.yaml"];

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

// ---------------------------------------------------------------------------------------------
// JavaScript / TypeScript: relative specifiers, extensions, index files, `.js` written for `.ts`.

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

function _resolveJavaScript(file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier;
  if (!spec.startsWith("./") && !spec.startsWith("../") && spec !== "." && spec !== "..") {
    return null;
  }
  const base = _join(_dir(file), spec);
  const stem = base.replace(/\.(m|c)?js$|\.jsx$/, "");
  return _first(repo, [
    base,
    ..._JS_EXTENSIONS.map((e) => base + e),
    ...(stem !== base ? _JS_EXTENSIONS.map((e) => stem + e) : []),
    ..._JS_EXTENSIONS.map((e) => _join(base, "index" + e)),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Go: module paths from every go.mod of the repo (module `std` is the standard library, whose
// packages are imported without a prefix), then `vendor/`. A package resolves to one of its files:
// the one named like the package directory, else `doc.go`, else its first non-test file.

interface _GoModule {
  dir: string;
  path: string;
}

function _goModules(repo: RepoView): _GoModule[] {
  return repo.memo("go.modules", () => {
    const modules: _GoModule[] = [];
    for (const f of repo.files) {
      if (f !== "go.mod" && !f.endsWith("/go.mod")) continue;
      const m = /^\s*module\s+("?)([^\s"]+)\1/m.exec(repo.readFile(f) ?? "");
      if (m) modules.push({ dir: _dir(f), path: m[2]! });
    }
    return modules.sort((a, b) => b.path.length - a.path.length);
  });
}

function _goPackages(repo: RepoView): Map<string, string[]> {
  return repo.memo("go.packages", () => {
    const dirs = new Map<string, string[]>();
    for (const f of repo.files) {
      if (!f.endsWith(".go")) continue;
      const d = _dir(f);
      const list = dirs.get(d);
      if (list === undefined) dirs.set(d, [f]);
      else list.push(f);
    }
    return dirs;
  });
}

function _goPackageFile(repo: RepoView, dir: string): string | null {
  const files = _goPackages(repo).get(dir);
  if (files === undefined) return null;
  const sources = files.filter((f) => !f.endsWith("_test.go")).sort();
  if (sources.length === 0) return null;
  const name = dir.slice(dir.lastIndexOf("/") + 1);
  return sources.find((f) => f.endsWith(`/${name}.go`) || f === `${name}.go`) ??
    sources.find((f) => f.endsWith("/doc.go") || f === "doc.go") ?? sources[0]!;
}

function _resolveGo(_file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier;
  for (const mod of _goModules(repo)) {
    let rest: string | null = null;
    if (mod.path === "std" && !spec.split("/")[0]!.includes(".")) rest = spec;
    else if (spec === mod.path) rest = "";
    else if (spec.startsWith(mod.path + "/")) rest = spec.slice(mod.path.length + 1);
    if (rest === null) continue;
    // The module's root package is the directory "" (posix.join of nothing is ".").
    const dir = _join(mod.dir, rest);
    const hit = _goPackageFile(repo, dir === "." ? "" : dir);
    if (hit !== null) return hit;
  }
  for (const mod of _goModules(repo)) {
    const hit = _goPackageFile(repo, _join(mod.dir, "vendor", spec));
    if (hit !== null) return hit;
  }
  return _goPackageFile(repo, _join("vendor", spec));
}

// ---------------------------------------------------------------------------------------------
// Rust: `crate::a::b` from the crate root (the `src/` of the nearest Cargo.toml, or the directory
// of lib.rs/main.rs), `self::`/`super::` from the current module, and `mod x;` declarations.

function _rustModuleDir(file: string): string {
  const base = posix.basename(file);
  if (base === "mod.rs" || base === "lib.rs" || base === "main.rs") return _dir(file);
  return _join(_dir(file), base.replace(/\.rs$/, ""));
}

function _rustCrateRoot(file: string, repo: RepoView): string {
  for (let d = _dir(file);; d = _dir(d)) {
    if (repo.files.has(_join(d, "Cargo.toml"))) return _join(d, "src");
    if (d === "") break;
  }
  for (let d = _dir(file);; d = _dir(d)) {
    if (repo.files.has(_join(d, "lib.rs")) || repo.files.has(_join(d, "main.rs"))) return d;
    if (d === "") return "";
  }
}

function _rustPath(repo: RepoView, dir: string, segments: string[]): string | null {
  // Longest prefix of the path that names a module file (`a::b::Item` → `a/b.rs`).
  for (let n = segments.length; n >= 1; n--) {
    const path = _join(dir, ...segments.slice(0, n));
    const hit = _first(repo, [path + ".rs", _join(path, "mod.rs")]);
    if (hit !== null) return hit;
  }
  return null;
}

function _resolveRust(file: string, record: ImportRecord, repo: RepoView): string | null {
  const segments = record.specifier.split("::").filter((s) => s !== "" && s !== "{");
  const head = segments[0];
  if (head === undefined) return null;
  if (segments.length === 1 && !["crate", "self", "super"].includes(head)) {
    // `mod name;` (or `use name;` of an external crate, which finds no file)
    const here = _rustModuleDir(file);
    return _first(repo, [_join(here, head + ".rs"), _join(here, head, "mod.rs")]);
  }
  let dir: string;
  let rest = segments.slice(1);
  if (head === "crate") dir = _rustCrateRoot(file, repo);
  else if (head === "self") dir = _rustModuleDir(file);
  else if (head === "super") {
    dir = _dir(_rustModuleDir(file));
    while (rest[0] === "super") {
      dir = _dir(dir);
      rest = rest.slice(1);
    }
  } else return null;
  const names = rest.length > 0 ? rest : record.names;
  if (rest.length === 0) {
    for (const n of names) {
      const hit = _rustPath(repo, dir, [n]);
      if (hit !== null) return hit;
    }
    return _first(repo, [_join(dir, "mod.rs"), _join(dir, "lib.rs"), _join(dir, "main.rs")]);
  }
  // `a::b::Item` where no prefix names a file: the item lives in the module of `dir` itself.
  return _rustPath(repo, dir, rest) ??
    _first(repo, [
      _join(dir, "mod.rs"),
      _join(dir, "lib.rs"),
      _join(dir, "main.rs"),
      ...(dir === "" ? [] : [dir + ".rs"]),
    ]);
}

// ---------------------------------------------------------------------------------------------
// Java, Kotlin, Scala, Groovy: `com.acme.Foo` is a file `com/acme/Foo.<ext>` under any source
// root (`src/main/java/`...); `com.acme.Foo.member` falls back to `com.acme.Foo`.

const _JVM_EXTENSIONS = [".java", ".kt", ".kts", ".scala", ".groovy"];

function _jvmIndex(repo: RepoView): Map<string, string> {
  return repo.memo("jvm.index", () => {
    const index = new Map<string, string>();
    for (const f of [...repo.files].sort()) {
      const ext = _JVM_EXTENSIONS.find((e) => f.endsWith(e));
      if (ext === undefined) continue;
      const parts = f.slice(0, -ext.length).split("/");
      for (let i = 0; i < parts.length; i++) {
        const key = parts.slice(i).join("/");
        if (!index.has(key)) index.set(key, f);
      }
    }
    return index;
  });
}

function _resolveJvm(_file: string, record: ImportRecord, repo: RepoView): string | null {
  const parts = record.specifier.replace(/\.\*$/, "").split(".");
  const index = _jvmIndex(repo);
  for (let n = parts.length; n >= 2; n--) {
    const hit = index.get(parts.slice(0, n).join("/"));
    if (hit !== undefined) return hit;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// C/C++: `#include "x.h"` relative to the including file, then the repo root, then any directory
// of the repo whose path ends with the specifier (include directories).

function _cIndex(repo: RepoView): Map<string, string[]> {
  return repo.memo("c.index", () => {
    const index = new Map<string, string[]>();
    for (const f of [...repo.files].sort()) {
      const base = posix.basename(f);
      const list = index.get(base);
      if (list === undefined) index.set(base, [f]);
      else list.push(f);
    }
    return index;
  });
}

function _resolveC(file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier;
  const direct = _first(repo, [_join(_dir(file), spec), spec]);
  if (direct !== null) return direct;
  const candidates = _cIndex(repo).get(posix.basename(spec)) ?? [];
  return candidates.find((f) => f.endsWith("/" + spec)) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Ruby: `require_relative "x"` from the file's directory; `require "x"` from `lib/`, then the root.

function _resolveRuby(file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier.replace(/\.rb$/, "");
  return _first(repo, [
    _join(_dir(file), spec + ".rb"),
    _join("lib", spec + ".rb"),
    spec + ".rb",
  ]);
}

// ---------------------------------------------------------------------------------------------
// PHP: `require`/`include` paths (with `__DIR__ . '/x.php'` or `dirname(__FILE__) . '/x.php'`),
// relative to the file, then the root; `use A\B\C` through composer.json PSR-4 prefixes.

function _psr4(repo: RepoView): [string, string][] {
  return repo.memo("php.psr4", () => {
    const out: [string, string][] = [];
    for (const f of repo.files) {
      if (f !== "composer.json" && !f.endsWith("/composer.json")) continue;
      try {
        const json = JSON.parse(repo.readFile(f) ?? "{}") as {
          autoload?: { "psr-4"?: Record<string, string | string[]> };
          "autoload-dev"?: { "psr-4"?: Record<string, string | string[]> };
        };
        for (const section of [json.autoload, json["autoload-dev"]]) {
          for (const [prefix, dirs] of Object.entries(section?.["psr-4"] ?? {})) {
            for (const d of Array.isArray(dirs) ? dirs : [dirs]) {
              out.push([prefix, _join(_dir(f), d)]);
            }
          }
        }
      } catch {
        // an unreadable composer.json contributes no prefixes
      }
    }
    return out.sort((a, b) => b[0].length - a[0].length);
  });
}

function _resolvePhp(file: string, record: ImportRecord, repo: RepoView): string | null {
  const raw = record.specifier;
  if (raw.includes("\\") || /^[A-Z][A-Za-z0-9_]*$/.test(raw)) {
    const name = raw.replace(/^\\/, "");
    for (const [prefix, dir] of _psr4(repo)) {
      if (name.startsWith(prefix)) {
        const hit = _first(repo, [
          _join(dir, name.slice(prefix.length).replaceAll("\\", "/") + ".php"),
        ]);
        if (hit !== null) return hit;
      }
    }
    return null;
  }
  const fromDir = /(__DIR__|dirname\s*\(\s*__FILE__\s*\))\s*\.\s*(['"])(.*)\2/.exec(raw);
  const path = fromDir ? fromDir[3]!.replace(/^\//, "") : raw.replace(/^(['"])(.*)\1$/, "$2");
  return _first(repo, [_join(_dir(file), path), path]);
}

// ---------------------------------------------------------------------------------------------
// Paths as written (Zig `@import("x.zig")`, Solidity `import "./A.sol"`, Bash `source lib.sh`,
// GDScript `preload("res://x.gd")`):
// relative to the file's directory, then to the root. Package names (`std`, `@openzeppelin/...`),
// paths built from variables (`"$DIR/lib.sh"`) and absolute paths (`/etc/profile`) stay external.

function _resolvePath(file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier;
  // Godot's `res://` is the project root (the repository root, for a repository of one project).
  if (spec.startsWith("res://")) return _first(repo, [spec.slice("res://".length)]);
  if (spec === "" || spec.includes("$") || spec.startsWith("/")) return null;
  return _first(repo, [_join(_dir(file), spec), spec]);
}

// ---------------------------------------------------------------------------------------------
// LaTeX: `\input{chapters/intro}` is `chapters/intro.tex` (or the name as written), relative to
// the file, then to the root.

function _resolveTex(file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier;
  if (spec === "" || spec.startsWith("/")) return null;
  const names = spec.endsWith(".tex") ? [spec] : [`${spec}.tex`, spec];
  return _first(repo, names.flatMap((n) => [_join(_dir(file), n), n]));
}

// ---------------------------------------------------------------------------------------------
// Lua: `require("a.b")` is `a/b.lua` or `a/b/init.lua`, from the root, then `lua/` and `src/`
// (the usual module roots); a module name may also be written with slashes.

function _resolveLua(_file: string, record: ImportRecord, repo: RepoView): string | null {
  const path = record.specifier.replace(/\.lua$/, "").replaceAll(".", "/");
  if (path === "") return null;
  const candidates: string[] = [];
  for (const root of ["", "lua", "src"]) {
    candidates.push(_join(root, path + ".lua"), _join(root, path, "init.lua"));
  }
  return _first(repo, candidates);
}

// ---------------------------------------------------------------------------------------------
// Dart: relative URIs from the file's directory; `package:NAME/path` is `lib/path` under the
// pubspec.yaml whose `name:` is NAME; `dart:` libraries and other packages stay external.

function _dartPackages(repo: RepoView): Map<string, string> {
  return repo.memo("dart.packages", () => {
    const out = new Map<string, string>();
    for (const f of repo.files) {
      if (f !== "pubspec.yaml" && !f.endsWith("/pubspec.yaml")) continue;
      const name = /^name:\s*['"]?([A-Za-z0-9_]+)/m.exec(repo.readFile(f) ?? "");
      if (name !== null && !out.has(name[1]!)) out.set(name[1]!, _dir(f));
    }
    return out;
  });
}

function _resolveDart(file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier;
  const pkg = /^package:([^/]+)\/(.+)$/.exec(spec);
  if (pkg !== null) {
    const dir = _dartPackages(repo).get(pkg[1]!);
    return dir === undefined ? null : _first(repo, [_join(dir, "lib", pkg[2]!)]);
  }
  if (/^[a-z]+:/.test(spec)) return null;
  return _first(repo, [_join(_dir(file), spec)]);
}

// ---------------------------------------------------------------------------------------------
// A module named as its file (Emacs Lisp's `(require 'x)`: `x.el`; ReScript's `open X`: `X.res`,
// unique in a project; TLA+'s `EXTENDS X`: `X.tla`): the file of that base name, with an
// extension of the importing file's language, beside the importing file, else anywhere in the
// repository (the shortest path first). A dotted name (`Js.Promise`) is its first part's file.

function _resolveModuleFile(file: string, record: ImportRecord, repo: RepoView): string | null {
  const language = languageForPath(file);
  if (language === undefined) return null;
  const byName = repo.memo(`module_file.${language.id}`, () => {
    const out = new Map<string, string>();
    const paths = [...repo.files].filter((f) => languageForPath(f)?.id === language.id);
    paths.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    for (const f of paths) {
      const base = posix.basename(f);
      if (!out.has(base)) out.set(base, f);
    }
    return out;
  });
  const spec = record.specifier;
  for (const name of new Set([spec, spec.split(".")[0]!])) {
    if (name === "" || name.includes("/")) continue;
    for (const ext of language.extensions) {
      const beside = _first(repo, [_join(_dir(file), name + ext)]);
      if (beside !== null) return beside;
    }
    for (const ext of language.extensions) {
      const found = byName.get(name + ext);
      if (found !== undefined) return found;
    }
  }
  return null;
}

/** Resolvers by the name a `LanguageSpec` gives in `resolver`. */
export const RESOLVERS: Record<ResolverName, Resolver> = {
  path: _resolvePath,
  tex: _resolveTex,
  lua: _resolveLua,
  dart: _resolveDart,
  python: _resolvePython,
  javascript: _resolveJavaScript,
  go: _resolveGo,
  rust: _resolveRust,
  jvm: _resolveJvm,
  c: _resolveC,
  ruby: _resolveRuby,
  php: _resolvePhp,
  module_file: _resolveModuleFile,
};
