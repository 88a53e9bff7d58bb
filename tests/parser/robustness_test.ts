/**
 * Partial failure is reported, not swallowed: broken files yield what tree-sitter recovers,
 * unparseable files come back `skipped` with the reason, bad queries fail loudly.
 */
import assert from "node:assert/strict";
import { parseSource } from "../../src/parser/mod.ts";
import { parseWithSpec } from "../../src/parser/parse.ts";
import { loadGrammar, loadLanguage } from "../../src/parser/loader.ts";
import type { LanguageSpec } from "../../src/parser/mod.ts";

const enc = new TextEncoder();

Deno.test("a file with syntax errors is partial and keeps the symbols tree-sitter recovers", async (t) => {
  await t.step("python", async () => {
    const src =
      "def good():\n    return 1\n\ndef broken(:\n    pass\n\nclass Fine:\n    def m(self):\n        return 2\n";
    const r = await parseSource("broken.py", enc.encode(src));
    assert.equal(r.status, "partial");
    assert.match(r.reason ?? "", /^syntax errors: \d+$/);
    const ids = r.symbols.map((s) => s.id);
    assert.ok(ids.includes("broken.py::good#function"), ids.join());
    assert.ok(ids.includes("broken.py::Fine#class"), ids.join());
    assert.ok(ids.includes("broken.py::Fine.m#method"), ids.join());
  });
  await t.step("typescript", async () => {
    const src = "export function ok(): number { return 1; }\nclass { broken\nfunction after() {}\n";
    const r = await parseSource("broken.ts", enc.encode(src));
    assert.equal(r.status, "partial");
    assert.ok(r.symbols.some((s) => s.id === "broken.ts::ok#function"));
  });
  await t.step("go", async () => {
    const src = "package x\n\nfunc A() {}\n\nfunc B( {\n\nfunc C() {}\n";
    const r = await parseSource("broken.go", enc.encode(src));
    assert.equal(r.status, "partial");
    assert.ok(r.symbols.some((s) => s.id === "broken.go::A#function"));
  });
});

Deno.test("files that cannot be parsed are skipped with a reason", async (t) => {
  await t.step("unknown file type", async () => {
    const r = await parseSource("notes.unknownext", enc.encode("hello"));
    assert.deepEqual([r.status, r.reason, r.symbols], ["skipped", "unsupported file type", []]);
  });
  await t.step("unknown language id", async () => {
    const r = await parseSource("a.py", enc.encode("x = 1"), "klingon");
    assert.deepEqual([r.status, r.reason], ["skipped", 'unknown language: "klingon"']);
  });
  await t.step("a grammar that fails to load (elm)", async () => {
    await assert.rejects(
      loadGrammar("elm"),
      /Cannot load grammar "elm": Incompatible language version 12/,
    );
    const yaml: LanguageSpec = {
      id: "yaml-test",
      extensions: [".yaml"],
      grammar: "yaml",
      definitions: "(block_mapping_pair key: (_) @name) @definition.constant",
    };
    const y = await parseWithSpec(yaml, "a.yaml", enc.encode("a: 1\nb: [1, 2]\n"));
    assert.equal(y.status, "skipped");
    assert.match(y.reason ?? "", /^(grammar failed to load|parser failed): /);
    const elm: LanguageSpec = {
      id: "elm-test",
      extensions: [".elm"],
      grammar: "elm",
      definitions: "(_) @definition.function",
    };
    const r = await parseWithSpec(elm, "Main.elm", enc.encode("module Main exposing (..)\n"));
    assert.equal(r.status, "skipped");
    assert.match(r.reason ?? "", /^grammar failed to load: Cannot load grammar "elm"/);
  });
  await t.step("a grammar file that does not exist", async () => {
    const none: LanguageSpec = {
      id: "none-test",
      extensions: [".none"],
      grammar: "no-such-grammar",
      definitions: "",
    };
    const r = await parseWithSpec(none, "a.none", enc.encode("x"));
    assert.equal(r.status, "skipped");
    assert.match(r.reason ?? "", /^grammar failed to load: Cannot read grammar "no-such-grammar"/);
  });
  await t.step("a minified file", async () => {
    const line = "var a=function(){return 1};".repeat(1000);
    const r = await parseSource("app.min.js", enc.encode(line));
    assert.equal(r.status, "skipped");
    assert.match(r.reason ?? "", /^minified: longest line 27000 chars/);
  });
  await t.step("a file over the size limit", async () => {
    const r = await parseSource("big.py", enc.encode("x = 1\n".repeat(100)), undefined, {
      maxBytes: 100,
    });
    assert.deepEqual([r.status, r.reason], ["skipped", "file too large: 600 bytes (limit 100)"]);
  });
  await t.step("a parse that runs out of time", async () => {
    const src = "def f(x):\n    return [x for x in range(10) if x % 2]\n".repeat(20000);
    const r = await parseSource("slow.py", enc.encode(src), undefined, { timeoutMs: 0 });
    assert.deepEqual([r.status, r.reason], ["skipped", "parse timed out after 0 ms"]);
    // The cancelled parse leaves nothing behind for the next file.
    const next = await parseSource("next.py", enc.encode("def ok():\n    pass\n"));
    assert.deepEqual([next.status, next.symbols.map((x) => x.id)], ["ok", [
      "next.py::ok#function",
    ]]);
  });
});

Deno.test("invalid UTF-8 is parsed as Latin-1 with exact byte offsets and reported", async () => {
  const bytes = new Uint8Array([
    ...enc.encode("# caf"),
    0xe9, // Latin-1 é: not valid UTF-8
    ...enc.encode("\ndef after():\n    return 1\n"),
  ]);
  const r = await parseSource("latin.py", bytes);
  assert.deepEqual([r.status, r.reason], ["partial", "invalid UTF-8: decoded as Latin-1"]);
  const s = r.symbols[0]!;
  assert.equal(s.id, "latin.py::after#function");
  assert.equal(
    new TextDecoder().decode(bytes.slice(s.byte_offset, s.byte_offset + s.byte_length)),
    "def after():\n    return 1",
  );
});

Deno.test("an empty file is ok with nothing in it", async () => {
  const r = await parseSource("empty.rs", new Uint8Array());
  assert.deepEqual([r.status, r.reason, r.symbols, r.imports, r.calls], ["ok", null, [], [], []]);
});

Deno.test("a query that does not compile fails loudly, naming the language", async (t) => {
  await t.step("syntax", async () => {
    const bad: LanguageSpec = {
      id: "bad-syntax-test",
      extensions: [".badsyntax"],
      grammar: "python",
      definitions: "(function_definition name: (identifier) @name",
    };
    await assert.rejects(
      loadLanguage(bad),
      {
        name: "SyntaxError",
        message: /Cannot compile definitions query of language "bad-syntax-test"/,
      },
    );
    await assert.rejects(parseWithSpec(bad, "a.badsyntax", enc.encode("x")), SyntaxError);
  });
  await t.step("unknown node type", async () => {
    const bad: LanguageSpec = {
      id: "bad-node-test",
      extensions: [".badnode"],
      grammar: "python",
      definitions: "(no_such_node) @definition.function",
    };
    await assert.rejects(
      loadLanguage(bad),
      /Cannot compile definitions query of language "bad-node-test": .*no_such_node/,
    );
  });
  await t.step("unknown capture", async () => {
    const bad: LanguageSpec = {
      id: "bad-capture-test",
      extensions: [".badcap"],
      grammar: "python",
      definitions: "(function_definition) @definition.function",
      calls: "(call) @reference.callz",
    };
    await assert.rejects(
      loadLanguage(bad),
      {
        name: "SyntaxError",
        message:
          /Cannot compile calls query of language "bad-capture-test": unknown capture "@reference.callz"/,
      },
    );
  });
});

Deno.test("non-ASCII text keeps byte offsets exact", async () => {
  const src =
    "// ünïcödé 😀 before\nfunction after(a) { return a; }\nconst s = '😀😀';\nfunction last() {}\n";
  const bytes = enc.encode(src);
  const r = await parseSource("u.js", bytes);
  const dec = new TextDecoder();
  for (const s of r.symbols) {
    const text = dec.decode(bytes.slice(s.byte_offset, s.byte_offset + s.byte_length));
    assert.ok(text.startsWith(`${s.kind === "constant" ? "const" : "function"} ${s.name}`), text);
  }
  assert.deepEqual(r.symbols.map((s) => s.name), ["after", "s", "last"]);
});
