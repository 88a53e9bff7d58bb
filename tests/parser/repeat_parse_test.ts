/**
 * A grammar whose external scanner keeps state between parses gives a different tree for the same
 * file depending on what the parser read before (Lua's tree-sitter-wasms build, see
 * `lua_scanner_test.ts`; Agda's `@cursorless/tree-sitter-wasms` build, not added for that reason,
 * see `LANGUAGES.md`). The languages added from prebuilt packages in one batch are checked here:
 * every fixture file, parsed again after all the others, twice over, gives the same records.
 */
import { deepEqual } from "node:assert/strict";
import { FIXTURES, listFiles, project } from "./_conformance.ts";
import { parseSource } from "../../src/parser/mod.ts";

const CHECKED = [
  "dtd",
  "ejs",
  "elisp",
  "erb",
  "properties",
  "rescript",
  "sparql",
  "systemrdl",
  "talon",
  "tlaplus",
  "xml",
];

Deno.test("fixtures parse the same after other files of their language, repeatedly", async () => {
  const files: { path: string; bytes: Uint8Array }[] = [];
  for (const lang of CHECKED) {
    const dir = new URL(`${lang}/`, FIXTURES);
    for (const f of await listFiles(dir)) {
      files.push({ path: `${lang}/${f}`, bytes: await Deno.readFile(new URL(f, dir)) });
    }
  }
  const first = new Map<string, unknown>();
  for (const f of files) first.set(f.path, project(await parseSource(f.path, f.bytes)));
  for (let round = 0; round < 2; round++) {
    for (const f of round === 0 ? [...files].reverse() : files) {
      deepEqual(project(await parseSource(f.path, f.bytes)), first.get(f.path), f.path);
    }
  }
});
