/**
 * Paths as written (Zig `@import("x.zig")`, Solidity `import "./A.sol"`, Bash `source lib.sh`,
 * GDScript `preload("res://x.gd")`):
 * relative to the file's directory, then to the root. Package names (`std`, `@openzeppelin/...`),
 * paths built from variables (`"$DIR/lib.sh"`) and absolute paths (`/etc/profile`) stay external.
 */
import type { ImportRecord } from "../types.ts";
import { dirName, firstFile, joinPath, type RepoView } from "./repo.ts";

/** The import resolver named `path`. */
export function resolvePath(file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier;
  // Godot's `res://` is the project root (the repository root, for a repository of one project).
  if (spec.startsWith("res://")) return firstFile(repo, [spec.slice("res://".length)]);
  if (spec === "" || spec.includes("$") || spec.startsWith("/")) return null;
  return firstFile(repo, [joinPath(dirName(file), spec), spec]);
}
