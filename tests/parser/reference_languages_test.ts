/**
 * Every language name of the reference server (jcodemunch-mcp's registry: 73 ids) is a language
 * id here: one with symbols, or a text-only one whose files are indexed for text search. A tool's
 * `language` filter accepts each (`checkLanguage`).
 */
import assert from "node:assert/strict";
import { knownLanguageIds, LANGUAGES } from "../../src/parser/mod.ts";
import { checkLanguage } from "../../src/tools/graph_args.ts";

/** The reference's language ids that issue 31 found missing here. */
const REFERENCE_MISSING_BEFORE = [
  "ada",
  "al",
  "ansible",
  "apex",
  "arduino",
  "asm",
  "autohotkey",
  "blade",
  "cobol",
  "commonlisp",
  "d",
  "erlang",
  "fortran",
  "fsharp",
  "graphql",
  "less",
  "luau",
  "matlab",
  "nim",
  "openapi",
  "pascal",
  "proto",
  "razor",
  "sass",
  "stylus",
  "tcl",
  "verilog",
  "verse",
  "vhdl",
];

Deno.test("every reference language name is a known language id, accepted as a filter", () => {
  const known = new Set(knownLanguageIds());
  for (const id of REFERENCE_MISSING_BEFORE) {
    assert.ok(known.has(id), `${id} is not a language id`);
    checkLanguage(id);
  }
  assert.throws(() => checkLanguage("klingon"), /Unknown language "klingon"/);
});

Deno.test("at least 72 languages have symbols (58 before issue 31)", () => {
  assert.ok(LANGUAGES.length >= 72, `${LANGUAGES.length} languages with symbols`);
});
