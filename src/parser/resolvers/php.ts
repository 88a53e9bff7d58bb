/**
 * PHP: `require`/`include` paths (with `__DIR__ . '/x.php'` or `dirname(__FILE__) . '/x.php'`),
 * relative to the file, then the root; `use A\B\C` through composer.json PSR-4 prefixes.
 */
import type { ImportRecord } from "../types.ts";
import { dirName, firstFile, joinPath, type RepoView } from "./repo.ts";

/** A composer.json's PSR-4 prefixes and their folders (none when it cannot be read). */
function _composerPrefixes(file: string, text: string): [string, string][] {
  type Psr4 = { "psr-4"?: Record<string, string | string[]> };
  let json: { autoload?: Psr4; "autoload-dev"?: Psr4 };
  try {
    json = JSON.parse(text);
  } catch {
    return []; // an unreadable composer.json contributes no prefixes
  }
  if (typeof json !== "object" || json === null) return [];
  const out: [string, string][] = [];
  for (const section of [json.autoload, json["autoload-dev"]]) {
    for (const [prefix, dirs] of Object.entries(section?.["psr-4"] ?? {})) {
      for (const d of Array.isArray(dirs) ? dirs : [dirs]) {
        out.push([prefix, joinPath(dirName(file), d)]);
      }
    }
  }
  return out;
}

function _psr4(repo: RepoView): [string, string][] {
  return repo.memo("php.psr4", () => {
    const out: [string, string][] = [];
    for (const f of repo.files) {
      if (f !== "composer.json" && !f.endsWith("/composer.json")) continue;
      out.push(..._composerPrefixes(f, repo.readFile(f) ?? "{}"));
    }
    return out.sort((a, b) => b[0].length - a[0].length);
  });
}

/** The import resolver named `php`. */
export function resolvePhp(file: string, record: ImportRecord, repo: RepoView): string | null {
  const raw = record.specifier;
  if (raw.includes("\\") || /^[A-Z][A-Za-z0-9_]*$/.test(raw)) {
    const name = raw.replace(/^\\/, "");
    for (const [prefix, dir] of _psr4(repo)) {
      if (name.startsWith(prefix)) {
        const hit = firstFile(repo, [
          joinPath(dir, name.slice(prefix.length).replaceAll("\\", "/") + ".php"),
        ]);
        if (hit !== null) return hit;
      }
    }
    return null;
  }
  const fromDir = /(__DIR__|dirname\s*\(\s*__FILE__\s*\))\s*\.\s*(['"])(.*)\2/.exec(raw);
  const path = fromDir ? fromDir[3]!.replace(/^\//, "") : raw.replace(/^(['"])(.*)\1$/, "$2");
  return firstFile(repo, [joinPath(dirName(file), path), path]);
}
