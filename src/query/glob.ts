/**
 * File globs as the tools read them (`file_pattern`), matched in linear time: the pattern is a
 * small automaton run over the path once (every state at a time), never a backtracking regex —
 * `*d*d*d*d*.js` against a deep path costs the same as `*.js`.
 */
import { ToolError } from "../errors.ts";

/** Longest pattern accepted. */
export const MAX_GLOB_LENGTH = 1000;

type _Token =
  | { kind: "char"; ch: string }
  | { kind: "any" }
  | { kind: "star" }
  | { kind: "class"; negate: boolean; ranges: [string, string][] };

/**
 * A file glob as Python's `fnmatch` reads it (`*` also crosses `/`, `?` one character,
 * `[...]` a class, `[!...]` its complement), matched against the whole path or any `/`-suffix
 * of it, so `*.go` and `handler.go` both work. A pattern over {@linkcode MAX_GLOB_LENGTH}
 * characters or with a reversed range (`[z-a]`) is `invalid_argument`.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { globMatcher } from "./glob.ts";
 * const m = globMatcher("src/*.ts");
 * equal(m("src/a/b.ts"), true);
 * equal(globMatcher("b.ts")("src/a/b.ts"), true);
 * equal(m("lib/b.ts"), false);
 * equal(globMatcher("[!a-c]x?")("dxy"), true);
 * ```
 */
export function globMatcher(pattern: string): (path: string) => boolean {
  if (pattern.length > MAX_GLOB_LENGTH) {
    throw new ToolError(
      "invalid_argument",
      `file_pattern is ${pattern.length} characters long; the limit is ${MAX_GLOB_LENGTH}: use a shorter glob such as "*.py" or "src/*"`,
    );
  }
  const tokens = _parse(pattern);
  const m = tokens.length;
  let cur = new Uint8Array(m + 1);
  let next = new Uint8Array(m + 1);
  // Set state i and the states reachable from it without reading (a star may match nothing).
  const add = (set: Uint8Array, i: number) => {
    for (;;) {
      if (set[i] === 1) return;
      set[i] = 1;
      if (i < m && tokens[i]!.kind === "star") i++;
      else return;
    }
  };
  return (path) => {
    const lastSlash = path.lastIndexOf("/");
    cur.fill(0);
    add(cur, 0);
    for (let p = 0; p < path.length; p++) {
      const ch = path[p]!;
      next.fill(0);
      let any = false;
      for (let i = 0; i < m; i++) {
        if (cur[i] !== 1) continue;
        const t = tokens[i]!;
        if (t.kind === "star") {
          add(next, i);
          any = true;
        } else if (_accepts(t, ch)) {
          add(next, i + 1);
          any = true;
        }
      }
      // Every "/" starts a new suffix the pattern may match whole.
      if (ch === "/") {
        add(next, 0);
        any = true;
      }
      [cur, next] = [next, cur];
      // No state left and no "/" ahead to start a new suffix: no match.
      if (!any && p >= lastSlash) return false;
    }
    return cur[m] === 1;
  };
}

function _accepts(t: _Token, ch: string): boolean {
  switch (t.kind) {
    case "char":
      return t.ch === ch;
    case "any":
      return true;
    case "class": {
      let inside = false;
      for (const [lo, hi] of t.ranges) {
        if (ch >= lo && ch <= hi) {
          inside = true;
          break;
        }
      }
      return inside !== t.negate;
    }
    default:
      return false;
  }
}

function _parse(pattern: string): _Token[] {
  const tokens: _Token[] = [];
  const chars = pattern.split("");
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === "*") {
      // Consecutive stars are one star.
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
    } else if (ch === "?") tokens.push({ kind: "any" });
    else if (ch === "[") {
      let at = i + 1;
      const negate = chars[at] === "!";
      if (negate) at++;
      // A "]" right after "[" or "[!" is a member, as in fnmatch.
      const close = chars.indexOf("]", at + 1);
      if (close === -1) {
        tokens.push({ kind: "char", ch: "[" });
        continue;
      }
      const body = chars.slice(at, close);
      const ranges: [string, string][] = [];
      for (let k = 0; k < body.length; k++) {
        const lo = body[k]!;
        if (body[k + 1] === "-" && k + 2 < body.length) {
          const hi = body[k + 2]!;
          if (hi < lo) {
            throw new ToolError(
              "invalid_argument",
              `file_pattern has a reversed range [${lo}-${hi}] in "${
                pattern.slice(0, 80)
              }": write it low to high, e.g. [${hi}-${lo}]`,
            );
          }
          ranges.push([lo, hi]);
          k += 2;
        } else ranges.push([lo, lo]);
      }
      tokens.push({ kind: "class", negate, ranges });
      i = close;
    } else tokens.push({ kind: "char", ch });
  }
  return tokens;
}
