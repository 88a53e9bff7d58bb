/**
 * C/C++: `#include "x.h"` relative to the including file, then the repo root, then any directory
 * of the repo whose path ends with the specifier (include directories).
 */
import { posix } from "node:path";
import type { ImportRecord } from "../types.ts";
import { dirName, firstFile, joinPath, type RepoView } from "./repo.ts";

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

/** The import resolver named `c`. */
export function resolveC(file: string, record: ImportRecord, repo: RepoView): string | null {
  const spec = record.specifier;
  const direct = firstFile(repo, [joinPath(dirName(file), spec), spec]);
  if (direct !== null) return direct;
  const candidates = _cIndex(repo).get(posix.basename(spec)) ?? [];
  return candidates.find((f) => f.endsWith("/" + spec)) ?? null;
}
