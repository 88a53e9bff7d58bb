/**
 * The text of an import a refactoring plan writes: its statement in the language (Python's
 * `from m import a`, an ES `import { a } from "./m"`), and the specifier of a target file as seen
 * from the importing file — relative when the one it replaces is (or for JavaScript), dotted from
 * the same source root as an absolute Python specifier.
 */
import { FILES } from "./files.ts";
import { dirOf } from "./import_graph.ts";
import type { RepoView } from "./view.ts";

/** The language families whose imports are written. */
export type ImportFamily = "python" | "ecmascript" | "go";

/** The name a whole-module import binds (`import x`, `import * as x`, `x = require(…)`). */
export function boundModule(line: string): string | null {
  return /\bas\s+([\p{L}_$][\p{L}\p{N}_$]*)/u.exec(line)?.[1] ??
    /^\s*import\s+([\p{L}_][\p{L}\p{N}_.]*)\s*$/u.exec(line)?.[1] ?? null;
}

/** The import statement of `names` from `specifier`. */
export function importText(family: ImportFamily, specifier: string, names: string[]): string {
  return family === "python"
    ? `from ${specifier} import ${names.join(", ")}`
    : `import { ${names.join(", ")} } from "${specifier}";`;
}

/**
 * An import, written in `file`, of `names` from `target`: relative when `like` (the specifier it
 * replaces) is relative or for JavaScript, dotted from the same root as `like` otherwise.
 */
export function importLine(
  view: RepoView,
  file: string,
  target: string,
  names: string[],
  family: ImportFamily,
  like: string | null,
): string {
  return importText(family, importSpecifier(view, file, target, family, like), names);
}

export function importSpecifier(
  view: RepoView,
  file: string,
  target: string,
  family: ImportFamily,
  like: string | null,
): string {
  if (family === "python") {
    const module = target.replace(/(?:\/__init__)?\.py$/, "");
    if (like !== null && !like.startsWith(".")) {
      // Same root as the absolute specifier it replaces: `shapes` for src/shapes/__init__.py.
      const root = _pythonRoot(view, like);
      if (root !== null && module.startsWith(root)) {
        return module.slice(root.length).replaceAll("/", ".");
      }
    }
    const from = dirOf(file).split("/").filter((p) => p !== "");
    const to = module.split("/");
    let common = 0;
    while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
    return ".".repeat(from.length - common + 1) + to.slice(common).join(".");
  }
  const rel = _relative(dirOf(file), target);
  const keepExt = like === null ? true : /\.[cm]?[jt]sx?$/.test(like);
  const path = keepExt
    ? rel.replace(/\.tsx?$/, (e) => (like?.endsWith(".js") ? ".js" : e))
    : rel.replace(/\.[cm]?[jt]sx?$/, "");
  return path.startsWith(".") ? path : `./${path}`;
}

/** The folder prefix an absolute Python module specifier is written from (`src/`). */
function _pythonRoot(view: RepoView, specifier: string): string | null {
  const tail = specifier.replaceAll(".", "/");
  for (const path of view.get(FILES).keys()) {
    for (const end of [`${tail}.py`, `${tail}/__init__.py`]) {
      if (path === end) return "";
      if (path.endsWith(`/${end}`)) return path.slice(0, path.length - end.length);
    }
  }
  return null;
}

function _relative(fromDir: string, to: string): string {
  const a = fromDir === "" ? [] : fromDir.split("/");
  const b = to.split("/");
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  const up = a.length - i;
  return (up === 0 ? "./" : "../".repeat(up)) + b.slice(i).join("/");
}
