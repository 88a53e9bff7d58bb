import type { ImportWriter } from "../language_spec.ts";
import { folderOf, relativePath } from "./paths.ts";

/**
 * ES module imports (JavaScript, TypeScript and the formats embedding them):
 * `import { a } from "./m";` (`export { a } from` after an `export … from` line); a specifier is
 * the relative path, with its extension when the one it is written like has one (`.js` for a
 * `.ts` file when that one ends `.js`), without it otherwise.
 */
export const ECMASCRIPT_IMPORTS: ImportWriter = {
  name: "ecmascript",
  files: /\.[cm]?[jt]sx?$/,
  blankLines: 1,
  statement(specifier, names, like) {
    const keyword = like !== undefined && /^\s*export\b/.test(like) ? "export" : "import";
    return `${keyword} { ${names.join(", ")} } from "${specifier}";`;
  },
  specifier(file, target, like) {
    const rel = relativePath(folderOf(file), target);
    const keepExt = like === null ? true : /\.[cm]?[jt]sx?$/.test(like);
    const path = keepExt
      ? rel.replace(/\.tsx?$/, (e) => (like?.endsWith(".js") ? ".js" : e))
      : rel.replace(/\.[cm]?[jt]sx?$/, "");
    return path.startsWith(".") ? path : `./${path}`;
  },
};
