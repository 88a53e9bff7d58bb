/**
 * STYLE.md's size rule, checked: no product function (src/, main.ts, mod.ts) is longer than 100
 * lines or nests blocks deeper than 5 (tests/arch/_functions.ts says how both are counted).
 * The functions over the limits today are listed below as data, each with the area that owns it
 * and its size now: an entry may only shrink — a listed function that grows fails, and one that
 * is back within the limits fails until its entry is removed. Split a function into named steps,
 * then delete its line here.
 */
import { deepStrictEqual } from "node:assert/strict";
import { join, relative } from "node:path";
import { CHECKOUT } from "../e2e/_server.ts";
import { functionSizes } from "./_functions.ts";

/** Most lines of a function. */
const MAX_LINES = 100;
/** Deepest block nesting inside a function. */
const MAX_DEPTH = 5;

/** Today's offenders: `file#name` → the owning area and the size it may not exceed. */
const ALLOWED: Record<string, { owner: string; lines: number; depth: number }> = {};

function* _sources(dir: string): Generator<string> {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) yield* _sources(p);
    else if (e.name.endsWith(".ts")) yield p;
  }
}

Deno.test("function size: no product function over 100 lines or nested deeper than 5", async () => {
  const files = [
    ..._sources(join(CHECKOUT, "src")),
    join(CHECKOUT, "main.ts"),
    join(CHECKOUT, "mod.ts"),
  ];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const path of files.sort()) {
    const file = relative(CHECKOUT, path);
    for (const f of await functionSizes(file, Deno.readTextFileSync(path))) {
      const key = `${file}#${f.name}`;
      const allowed = ALLOWED[key];
      if (allowed !== undefined) seen.add(key);
      const maxLines = Math.max(MAX_LINES, allowed?.lines ?? 0);
      const maxDepth = Math.max(MAX_DEPTH, allowed?.depth ?? 0);
      if (f.lines > maxLines || f.depth > maxDepth) {
        problems.push(
          `${key} (line ${f.line}): ${f.lines} lines, nesting ${f.depth}${
            allowed
              ? ` (listed at ${allowed.lines} lines, nesting ${allowed.depth}: it may only shrink)`
              : ""
          }: split it into named steps`,
        );
      } else if (allowed !== undefined && f.lines <= MAX_LINES && f.depth <= MAX_DEPTH) {
        problems.push(`${key} is within the limits now: remove its entry from ALLOWED`);
      }
    }
  }
  for (const key of Object.keys(ALLOWED)) {
    if (!seen.has(key)) problems.push(`${key} is listed but no longer exists: remove its entry`);
  }
  deepStrictEqual(problems, []);
});

Deno.test("function size: the measure counts lines and block nesting", async () => {
  const source = [
    "export function flat() {",
    "  return 1;",
    "}",
    "const deep = () => {",
    "  if (a) { for (;;) { while (b) { try { if (c) { d(); } } catch { } } } }",
    "};",
    "class K { m() { if (x) { y(); } } }",
  ].join("\n");
  const sizes = await functionSizes("probe.ts", source);
  deepStrictEqual(sizes.map((f) => [f.name, f.lines, f.depth]), [
    ["flat", 3, 0],
    ["deep", 3, 5],
    ["K.m", 1, 1],
  ]);
});
