/**
 * Every language name of the reference server (jcodemunch-mcp's registry: 73 ids) is a language
 * id here: one with symbols, or a text-only one whose files are indexed for text search. A tool's
 * `language` filter accepts each (`checkLanguage`).
 */
import assert from "node:assert/strict";
import { knownLanguageIds, LANGUAGES, parseSource } from "../../src/parser/mod.ts";
import { checkLanguage } from "../../src/tools/graph_args.ts";
import { indexedWorkspace } from "../ingest/_helpers.ts";

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

Deno.test("at least 73 languages have symbols (58 before issue 31)", () => {
  assert.ok(LANGUAGES.length >= 73, `${LANGUAGES.length} languages with symbols`);
});

Deno.test("the tools that take `language` accept every reference language name", async () => {
  const { call, dispose } = await indexedWorkspace(
    { "app.py": "class User:\n    pass\n" },
    "codemunch-reflang-",
  );
  try {
    for (const language of REFERENCE_MISSING_BEFORE) {
      const symbols = await call("search_symbols", { query: "User", language });
      assert.equal(symbols.isError, false, `search_symbols ${language}: ${symbols.text}`);
      // The Python class is filtered out by any other language.
      assert.deepEqual((symbols.body as { results: unknown[] }).results, [], language);
      const ast = await call("search_ast", { pattern: "todo_fixme", language });
      assert.equal(ast.isError, false, `search_ast ${language}: ${ast.text}`);
    }
    const rejected = await call("search_symbols", { query: "User", language: "klingon" });
    assert.equal(rejected.isError, true);
    assert.match(rejected.text, /invalid_argument|Unknown language "klingon"/);
  } finally {
    await dispose();
  }
});

Deno.test("`protobuf`, the id .proto files had before issue 31, still means Protocol Buffers", async () => {
  assert.equal(checkLanguage("protobuf"), "proto");
  assert.equal(checkLanguage("proto"), "proto");
  const src = 'syntax = "proto3";\nmessage User { string name = 1; }\n';
  const r = await parseSource("api/user.proto", new TextEncoder().encode(src), "protobuf");
  assert.deepEqual(
    [r.language, r.status, r.reason, r.symbols.map((s) => s.id)],
    ["proto", "ok", null, ["api/user.proto::User#type", "api/user.proto::User.name#field"]],
  );
  const { call, dispose } = await indexedWorkspace(
    { "api/user.proto": src, "app.py": "class User:\n    pass\n" },
    "codemunch-alias-",
  );
  try {
    const found = await call("search_symbols", { query: "User", language: "protobuf" });
    assert.equal(found.isError, false, found.text);
    const ids = (found.body as { results: { id: string }[] }).results.map((h) => h.id);
    // The Python class of the same name is filtered out.
    assert.deepEqual(ids, ["api/user.proto::User#type", "api/user.proto::User.name#field"]);
  } finally {
    await dispose();
  }
});

Deno.test("a .proto without a syntax line is proto2, as protoc reads it: a field needs a label", async () => {
  // protoc 3.21: 'Expected "required", "optional", or "repeated".' for the first; the
  // symbols are still placed (the scan does not need the parse).
  const enc = new TextEncoder();
  const bare = await parseSource("u.proto", enc.encode("message User { string name = 1; }\n"));
  assert.deepEqual([bare.status, bare.reason, bare.symbols.length], [
    "partial",
    "syntax errors: 1",
    2,
  ]);
  const labelled = await parseSource(
    "u.proto",
    enc.encode("message User { optional string name = 1; }\n"),
  );
  assert.deepEqual([labelled.status, labelled.reason, labelled.symbols.length], ["ok", null, 2]);
});
