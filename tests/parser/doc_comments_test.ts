/**
 * Doc comments attach as each language's own tools attach them (issue 33): a JSDoc/TSDoc or
 * Javadoc `/**` block and Rust `///` lines document the next definition across blank lines and
 * annotations; a Go comment must end on the line above (godoc), and a file's license header
 * documents nothing.
 */
import { equal } from "node:assert/strict";
import { parseSource } from "../../src/parser/mod.ts";

const enc = new TextEncoder();

async function docs(file: string, text: string): Promise<Record<string, string>> {
  const r = await parseSource(file, enc.encode(text));
  return Object.fromEntries(r.symbols.map((s) => [s.name, s.docstring]));
}

Deno.test("doc comments: attached across blank lines where the language's tools do", async (t) => {
  await t.step(
    "JavaScript: a JSDoc block, a blank line, then the definition (express)",
    async () => {
      const d = await docs(
        "lib/request.js",
        "/**\n * Return request header.\n *\n * @public\n */\n\nreq.get = function header(name) {\n  return name;\n};\n",
      );
      equal(d.get, "Return request header.\n\n@public");
    },
  );
  await t.step("TypeScript: a TSDoc block before an exported function", async () => {
    const d = await docs(
      "a.ts",
      "/** Parse a path. */\n\nexport function parse(p: string) {\n  return p;\n}\n",
    );
    equal(d.parse, "Parse a path.");
  });
  await t.step("a line comment still has to end on the line above", async () => {
    const d = await docs("a.js", "// unrelated note\n\nfunction f() {}\n");
    equal(d.f, "");
  });
  await t.step("a license header is no doc", async () => {
    const d = await docs(
      "a.js",
      "/**\n * Copyright (c) Someone. MIT License.\n */\n\nfunction f() {}\n",
    );
    equal(d.f, "");
  });
  await t.step("Java: Javadoc, then annotations and a blank line", async () => {
    const d = await docs(
      "A.java",
      "class A {\n  /** Runs the task. */\n\n  @Override\n  public void run() {}\n}\n",
    );
    equal(d.run, "Runs the task.");
  });
  await t.step("Rust: /// lines, a blank line, attributes", async () => {
    const d = await docs("a.rs", "/// Spawns a task.\n\n#[inline]\npub fn spawn() {}\n");
    equal(d.spawn, "Spawns a task.");
  });
  await t.step("Go: a comment separated by a blank line documents nothing (godoc)", async () => {
    const d = await docs(
      "a.go",
      "package a\n\n// Note.\n\nfunc F() {}\n\n// G does g.\nfunc G() {}\n",
    );
    equal(d.F, "");
    equal(d.G, "G does g.");
  });
});
