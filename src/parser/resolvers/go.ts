/**
 * Go: module paths from every go.mod of the repo (module `std` is the standard library, whose
 * packages are imported without a prefix), then `vendor/`. A package resolves to one of its files:
 * the one named like the package directory, else `doc.go`, else its first non-test file.
 */
import type { ImportRecord } from "../types.ts";
import { dirName, joinPath, type RepoView } from "./repo.ts";

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
      if (m) modules.push({ dir: dirName(f), path: m[2]! });
    }
    return modules.sort((a, b) => b.path.length - a.path.length);
  });
}

function _goPackages(repo: RepoView): Map<string, string[]> {
  return repo.memo("go.packages", () => {
    const dirs = new Map<string, string[]>();
    for (const f of repo.files) {
      if (!f.endsWith(".go")) continue;
      const d = dirName(f);
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

/** The import resolver named `go`. */
export function resolveGo(_file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier;
  for (const mod of _goModules(repo)) {
    let rest: string | null = null;
    if (mod.path === "std" && !spec.split("/")[0]!.includes(".")) rest = spec;
    else if (spec === mod.path) rest = "";
    else if (spec.startsWith(mod.path + "/")) rest = spec.slice(mod.path.length + 1);
    if (rest === null) continue;
    // The module's root package is the directory "" (posix.join of nothing is ".").
    const dir = joinPath(mod.dir, rest);
    const hit = _goPackageFile(repo, dir === "." ? "" : dir);
    if (hit !== null) return hit;
  }
  for (const mod of _goModules(repo)) {
    const hit = _goPackageFile(repo, joinPath(mod.dir, "vendor", spec));
    if (hit !== null) return hit;
  }
  return _goPackageFile(repo, joinPath("vendor", spec));
}
