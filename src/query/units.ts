/**
 * Units of the graph: the name space a file belongs to. A file is its own unit, except in a
 * language whose unit is its folder (`LanguageSemantics.unit` `package_folder`: a Go package),
 * where every file of that language in the folder is one unit — in scope of each other, and
 * imported together. The one place that rule is written; every graph module asks here.
 */
import type { LanguageSemantics } from "../parser/language_spec.ts";
import { semanticsOf } from "../parser/semantics/mod.ts";
import { FILES } from "./files.ts";
import { facet, type RepoView } from "./view.ts";

/** The directory of a repo-relative path (`""` at the root). */
export function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i === -1 ? "" : path.slice(0, i);
}

/**
 * The unit key of a file of `language`: its folder for a package-folder language, else the file
 * (a folder is never a file's path, so the two kinds of key cannot meet).
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { unitKey } from "./units.ts";
 * equal(unitKey("store/extra.go", "go"), "store");
 * equal(unitKey("py/util.py", "python"), "py/util.py");
 * ```
 */
export function unitKey(path: string, language: string): string {
  return semanticsOf(language).unit === "package_folder" ? dirOf(path) : path;
}

/** The units of one index state. */
export class Units {
  readonly #languages = new Map<string, string>();
  /** Files of package-folder languages by `language\0folder`. */
  readonly #folders = new Map<string, string[]>();

  constructor(view: RepoView) {
    for (const [path, entry] of view.get(FILES)) {
      this.#languages.set(path, entry.language);
      if (semanticsOf(entry.language).unit !== "package_folder") continue;
      const key = `${entry.language}\0${dirOf(path)}`;
      const list = this.#folders.get(key);
      if (list === undefined) this.#folders.set(key, [path]);
      else list.push(path);
    }
  }

  /** The language id a file is indexed under (`""` for a path not indexed). */
  languageOf(file: string): string {
    return this.#languages.get(file) ?? "";
  }

  /** The semantics of a file's language. */
  semanticsOf(file: string): LanguageSemantics {
    return semanticsOf(this.languageOf(file));
  }

  /** Whether a file's unit is its folder. */
  isFolderUnit(file: string): boolean {
    return this.semanticsOf(file).unit === "package_folder";
  }

  /** The unit key of a file (see {@linkcode unitKey}). */
  keyOf(file: string): string {
    return this.isFolderUnit(file) ? dirOf(file) : file;
  }

  /** Whether two files share a unit. */
  same(a: string, b: string): boolean {
    return a === b || this.keyOf(a) === this.keyOf(b);
  }

  /** The files of a file's unit: every file of its language in its folder, or the file. */
  filesOf(file: string): string[] {
    if (!this.isFolderUnit(file)) return [file];
    return this.#folders.get(`${this.languageOf(file)}\0${dirOf(file)}`) ?? [file];
  }
}

/** The units of a view. */
export const UNITS = facet("units", (v) => new Units(v));
