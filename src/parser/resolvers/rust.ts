/**
 * Rust: `crate::a::b` from the crate root (the `src/` of the nearest Cargo.toml, or the directory
 * of lib.rs/main.rs), `self::`/`super::` from the current module, and `mod x;` declarations.
 */
import { posix } from "node:path";
import type { ImportRecord } from "../types.ts";
import { dirName, firstFile, joinPath, type RepoView } from "./repo.ts";

function _rustModuleDir(file: string): string {
  const base = posix.basename(file);
  if (base === "mod.rs" || base === "lib.rs" || base === "main.rs") return dirName(file);
  return joinPath(dirName(file), base.replace(/\.rs$/, ""));
}

function _rustCrateRoot(file: string, repo: RepoView): string {
  for (let d = dirName(file);; d = dirName(d)) {
    if (repo.files.has(joinPath(d, "Cargo.toml"))) return joinPath(d, "src");
    if (d === "") break;
  }
  for (let d = dirName(file);; d = dirName(d)) {
    if (repo.files.has(joinPath(d, "lib.rs")) || repo.files.has(joinPath(d, "main.rs"))) return d;
    if (d === "") return "";
  }
}

function _rustPath(repo: RepoView, dir: string, segments: string[]): string | null {
  // Longest prefix of the path that names a module file (`a::b::Item` → `a/b.rs`).
  for (let n = segments.length; n >= 1; n--) {
    const path = joinPath(dir, ...segments.slice(0, n));
    const hit = firstFile(repo, [path + ".rs", joinPath(path, "mod.rs")]);
    if (hit !== null) return hit;
  }
  return null;
}

/** The import resolver named `rust`. */
export function resolveRust(file: string, record: ImportRecord, repo: RepoView): string | null {
  const segments = record.specifier.split("::").filter((s) => s !== "" && s !== "{");
  const head = segments[0];
  if (head === undefined) return null;
  if (segments.length === 1 && !["crate", "self", "super"].includes(head)) {
    // `mod name;` (or `use name;` of an external crate, which finds no file)
    const here = _rustModuleDir(file);
    return firstFile(repo, [joinPath(here, head + ".rs"), joinPath(here, head, "mod.rs")]);
  }
  let dir: string;
  let rest = segments.slice(1);
  if (head === "crate") dir = _rustCrateRoot(file, repo);
  else if (head === "self") dir = _rustModuleDir(file);
  else if (head === "super") {
    dir = dirName(_rustModuleDir(file));
    while (rest[0] === "super") {
      dir = dirName(dir);
      rest = rest.slice(1);
    }
  } else return null;
  const names = rest.length > 0 ? rest : record.names;
  if (rest.length === 0) {
    for (const n of names) {
      const hit = _rustPath(repo, dir, [n]);
      if (hit !== null) return hit;
    }
    return firstFile(repo, [
      joinPath(dir, "mod.rs"),
      joinPath(dir, "lib.rs"),
      joinPath(dir, "main.rs"),
    ]);
  }
  // `a::b::Item` where no prefix names a file: the item lives in the module of `dir` itself.
  return _rustPath(repo, dir, rest) ??
    firstFile(repo, [
      joinPath(dir, "mod.rs"),
      joinPath(dir, "lib.rs"),
      joinPath(dir, "main.rs"),
      ...(dir === "" ? [] : [dir + ".rs"]),
    ]);
}
