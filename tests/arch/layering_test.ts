/**
 * The layering rule of DESIGN.md, checked in code: a lower layer never imports a higher one.
 * Order, low to high: errors.ts, codec, parser, store, ingest, summarize, query, tools, server,
 * cli (the human command line: init, progress, banner).
 * The codec imports nothing outside src/codec (it is the JSR library). One pair shares a level:
 * the parser computes the docstring and signature summary tiers in its workers with
 * summarize/summary.ts (pure text), and the AI tier reads parser types.
 */
import { deepEqual } from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SRC = join(ROOT, "src");

/** What each layer may import, by top-level folder under src/ ("" is src/errors.ts). */
const ALLOWED: Record<string, readonly string[]> = {
  "errors.ts": [],
  codec: ["codec"],
  parser: ["parser", "summarize", "errors.ts"],
  store: ["store", "parser", "errors.ts"],
  ingest: ["ingest", "store", "parser", "errors.ts"],
  summarize: ["summarize", "store", "parser", "errors.ts"],
  query: ["query", "summarize", "ingest", "store", "parser", "errors.ts"],
  tools: ["tools", "query", "summarize", "ingest", "store", "parser", "codec", "errors.ts"],
  server: [
    "server",
    "tools",
    "query",
    "summarize",
    "ingest",
    "store",
    "parser",
    "codec",
    "errors.ts",
  ],
  cli: [
    "cli",
    "server",
    "tools",
    "query",
    "summarize",
    "ingest",
    "store",
    "parser",
    "codec",
    "errors.ts",
  ],
};

function* _sources(dir: string): Generator<string> {
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) yield* _sources(p);
    else if (e.name.endsWith(".ts")) yield p;
  }
}

/** The top-level part of src/ a path belongs to, or null outside src/. */
function _layer(path: string): string | null {
  const rel = relative(SRC, path);
  if (rel.startsWith("..")) return null;
  return rel.split("/")[0]!;
}

/** Relative import specifiers of a file (static and dynamic, `import`/`export ... from`). */
function _imports(text: string): string[] {
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.[^"']+)["']/gm;
  for (const m of text.matchAll(re)) out.push(m[1]!);
  // new URL("./worker.ts", import.meta.url) loads a module too.
  for (const m of text.matchAll(/new URL\(\s*["'](\.[^"']+\.ts)["']/g)) out.push(m[1]!);
  return out;
}

Deno.test("layering: no file under src/ imports a higher layer", () => {
  const violations: string[] = [];
  for (const file of _sources(SRC)) {
    const from = _layer(file)!;
    const allowed = ALLOWED[from];
    if (allowed === undefined) {
      violations.push(`${relative(ROOT, file)}: src/${from} is not in the layer table`);
      continue;
    }
    for (const spec of _imports(Deno.readTextFileSync(file))) {
      const target = resolve(dirname(file), spec);
      const to = _layer(target);
      if (to === null && from === "server" && spec === "../../deno.json") continue; // the version
      if (to === null) {
        violations.push(`${relative(ROOT, file)} imports ${spec} (outside src/)`);
      } else if (!allowed.includes(to)) {
        violations.push(
          `${relative(ROOT, file)} (${from}) imports ${relative(ROOT, target)} (${to})`,
        );
      }
    }
  }
  deepEqual(violations, []);
});

Deno.test("layering: the checker sees a violation", () => {
  deepEqual(_imports('import { x } from "../tools/mod.ts";\nexport * from "./a.ts";'), [
    "../tools/mod.ts",
    "./a.ts",
  ]);
  deepEqual(_layer(join(SRC, "store/store.ts")), "store");
  deepEqual(ALLOWED.store!.includes("tools"), false);
});
