/**
 * What `deno run main.ts` loads before it answers the tool list. Deno walks every import it can
 * read in the source before the first line runs, a dynamic `import("./x.ts")` with a literal
 * included; the server's whole graph (~350 modules) took 100 of the 150 ms a client waited. The
 * tools, the store and the parser are loaded by a computed specifier instead (main.ts
 * `LAZY_MODULES`, stdio.ts `_loadRunner`). This walks the start-up graph as Deno does (type-only
 * imports aside) and checks that none of them is in it.
 */
import { equal, ok } from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LAZY_MODULES } from "../../main.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Relative specifiers Deno sees in a module: static (not `import type`) and literal dynamic. */
function _specifiers(source: string): { static: string[]; dynamic: string[] } {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const stat = [...code.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"(\.[^"]+)"/gm)]
    .map((m) => m[1]!);
  const bare = [...code.matchAll(/^import\s+"(\.[^"]+)"/gm)].map((m) => m[1]!);
  // `typeof import("./x.ts")` is a type: Deno's code graph leaves it out.
  const dynamic = [
    ...code.matchAll(/(?<!typeof\s+)(?<![\w.])import\(\s*["'`](\.[^"'`]+)["'`]\s*\)/g),
  ]
    .map((m) => m[1]!);
  return { static: [...stat, ...bare], dynamic };
}

function _startupGraph(entry: string): { files: Set<string>; literalDynamic: string[] } {
  const files = new Set<string>();
  const literalDynamic: string[] = [];
  const visit = (path: string) => {
    if (files.has(path) || !path.endsWith(".ts")) return;
    files.add(path);
    const found = _specifiers(Deno.readTextFileSync(join(ROOT, path)));
    for (const d of found.dynamic) literalDynamic.push(`${path}: import("${d}")`);
    for (const s of [...found.static, ...found.dynamic]) {
      visit(relative(ROOT, resolve(ROOT, dirname(path), s)));
    }
  };
  visit(entry);
  return { files, literalDynamic };
}

Deno.test("startup: main.ts loads no tool, store, parser or query module before the tool list", () => {
  const { files, literalDynamic } = _startupGraph("main.ts");
  equal(literalDynamic.join("\n"), "");
  // index_dir.ts and jsonc.ts import nothing (they are made for start-up): the stdio server reads
  // the tool profile's config.jsonc from the index folder before its first answer.
  const light = ["src/store/index_dir.ts", "src/ingest/jsonc.ts"];
  const heavy = [...files].filter((f) =>
    /^src\/(tools|store|query|parser|ingest|summarize)\//.test(f) && !light.includes(f)
  );
  equal(heavy.join(", "), "");
  ok(files.has("src/server/stdio.ts"));
  // 17 since the tool profile (tool_profile.ts, index_dir.ts, jsonc.ts: small) filters the list.
  ok(files.size <= 17, `${files.size} modules at start-up: ${[...files].join(", ")}`);
});

Deno.test("startup: every lazily loaded module exists", () => {
  for (const path of LAZY_MODULES) ok(Deno.statSync(join(ROOT, path)).isFile, path);
});
