/**
 * Dart: relative URIs from the file's directory; `package:NAME/path` is `lib/path` under the
 * pubspec.yaml whose `name:` is NAME; `dart:` libraries and other packages stay external.
 */
import type { ImportRecord } from "../types.ts";
import { dirName, firstFile, joinPath, type RepoView } from "./repo.ts";

function _dartPackages(repo: RepoView): Map<string, string> {
  return repo.memo("dart.packages", () => {
    const out = new Map<string, string>();
    for (const f of repo.files) {
      if (f !== "pubspec.yaml" && !f.endsWith("/pubspec.yaml")) continue;
      const name = /^name:\s*['"]?([A-Za-z0-9_]+)/m.exec(repo.readFile(f) ?? "");
      if (name !== null && !out.has(name[1]!)) out.set(name[1]!, dirName(f));
    }
    return out;
  });
}

/** The import resolver named `dart`. */
export function resolveDart(file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier;
  const pkg = /^package:([^/]+)\/(.+)$/.exec(spec);
  if (pkg !== null) {
    const dir = _dartPackages(repo).get(pkg[1]!);
    return dir === undefined ? null : firstFile(repo, [joinPath(dir, "lib", pkg[2]!)]);
  }
  if (/^[a-z]+:/.test(spec)) return null;
  return firstFile(repo, [joinPath(dirName(file), spec)]);
}
