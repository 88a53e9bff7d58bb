/** File globs as the tools read them (`file_pattern`). */

/**
 * A file glob as Python's `fnmatch` reads it (`*` also crosses `/`, `?` one character,
 * `[...]` a class), matched against the whole path or any `/`-suffix of it, so `*.go` and
 * `handler.go` both work.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { globMatcher } from "./glob.ts";
 * const m = globMatcher("src/*.ts");
 * equal(m("src/a/b.ts"), true);
 * equal(globMatcher("b.ts")("src/a/b.ts"), true);
 * equal(m("lib/b.ts"), false);
 * ```
 */
export function globMatcher(pattern: string): (path: string) => boolean {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "*") re += ".*";
    else if (ch === "?") re += ".";
    else if (ch === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close === -1) re += "\\[";
      else {
        let body = pattern.slice(i + 1, close).replaceAll("\\", "\\\\");
        if (body.startsWith("!")) body = "^" + body.slice(1);
        re += `[${body}]`;
        i = close;
      }
    } else re += ch.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  const full = new RegExp(`^(?:${re})$`, "s");
  const suffix = new RegExp(`(?:^|/)(?:${re})$`, "s");
  return (path) => full.test(path) || suffix.test(path);
}
