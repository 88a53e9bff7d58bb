/**
 * `file_pattern` globs (issue 10): matched in linear time whatever the pattern, and a bad or
 * huge pattern is `invalid_argument`, never an internal error or a hang.
 */
import { equal, throws } from "node:assert/strict";
import { globMatcher } from "../../src/query/glob.ts";
import { ToolError } from "../../src/errors.ts";

Deno.test("glob: fnmatch semantics on the whole path or any /-suffix", () => {
  const cases: [string, string, boolean][] = [
    ["*.go", "pkg/a/b.go", true],
    ["*.go", "pkg/a/b.gox", false],
    ["src/*", "src/a/b.ts", true],
    ["src/*", "lib/src/a.ts", true],
    ["b.ts", "src/a/b.ts", true],
    ["b.ts", "src/a/xb.ts", false],
    ["a?c.py", "a/abc.py", true],
    ["[ab]*.py", "x/b1.py", true],
    ["[!ab]*.py", "b1.py", false],
    ["[!ab]*.py", "x/c1.py", true],
    ["[a-c]x", "bx", true],
    ["[]]x", "]x", true],
    ["[x", "[x", true],
    ["**/*.ts", "a/b/c.ts", true],
    ["*d*d*d*d*.js", "d/d/d/d.js", true],
  ];
  for (const [pattern, path, expected] of cases) {
    equal(globMatcher(pattern)(path), expected, `${pattern} ~ ${path}`);
  }
});

Deno.test("glob: *d*d*d*d*.js against a deep path ends at once (no backtracking)", () => {
  const deep = Array.from({ length: 200 }, () => "ddddddddddddddddddddx").join("/") + ".ts";
  const m = globMatcher("*d*d*d*d*d*d*d*d*d*d*d*d*.js");
  const started = performance.now();
  for (let i = 0; i < 20; i++) equal(m(deep), false);
  const ms = performance.now() - started;
  equal(ms < 1000, true, `20 matches took ${ms.toFixed(0)} ms`);
});

Deno.test("glob: a reversed range or a 1 MB pattern is invalid_argument", () => {
  const isInvalid = (e: unknown) => e instanceof ToolError && e.code === "invalid_argument";
  throws(() => globMatcher("[z-a].py"), isInvalid);
  throws(() => globMatcher("*".repeat(1024 * 1024)), isInvalid);
  throws(() => globMatcher("a".repeat(1024 * 1024)), isInvalid);
});
