import type { ImportWriter } from "../language_spec.ts";
import { folderOf } from "./paths.ts";

/**
 * Python's imports: `from m import a, b`; a module's specifier is dotted, relative to the
 * importing file (`..shapes.circle`), or from the same source root as the absolute specifier it
 * is written like (`shapes.circle` for `src/shapes/circle.py` beside `shapes.square`); two blank
 * lines before a definition (PEP 8).
 */
export const PYTHON_IMPORTS: ImportWriter = {
  name: "python",
  files: /\.py$/,
  blankLines: 2,
  statement: (specifier, names) => `from ${specifier} import ${names.join(", ")}`,
  specifier(file, target, like, files) {
    const module = target.replace(/(?:\/__init__)?\.py$/, "");
    if (like !== null && !like.startsWith(".")) {
      // Same root as the absolute specifier it replaces: `shapes` for src/shapes/__init__.py.
      const root = _sourceRoot(files, like);
      if (root !== null && module.startsWith(root)) {
        return module.slice(root.length).replaceAll("/", ".");
      }
    }
    const from = folderOf(file).split("/").filter((p) => p !== "");
    const to = module.split("/");
    let common = 0;
    while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
    return ".".repeat(from.length - common + 1) + to.slice(common).join(".");
  },
};

/** The folder prefix an absolute module specifier is written from (`src/`). */
function _sourceRoot(files: Iterable<string>, specifier: string): string | null {
  const tail = specifier.replaceAll(".", "/");
  for (const path of files) {
    for (const end of [`${tail}.py`, `${tail}/__init__.py`]) {
      if (path === end) return "";
      if (path.endsWith(`/${end}`)) return path.slice(0, path.length - end.length);
    }
  }
  return null;
}
