/**
 * What a symbol is embedded as (src/query/embed_text.ts), read from symbols a real parse made:
 * the parts and their order, the bounds, and the key that keeps a vector across re-indexes.
 */
import { equal, notEqual } from "node:assert/strict";
import { parseSource } from "../../src/parser/mod.ts";
import type { SymbolRecord } from "../../src/parser/types.ts";
import { embedKey, embedText } from "../../src/query/embed_text.ts";

async function _symbols(file: string, text: string): Promise<Map<string, SymbolRecord>> {
  const { symbols } = await parseSource(file, new TextEncoder().encode(text));
  return new Map(symbols.map((s) => [s.name, s]));
}

Deno.test("embed_text: kind, name and file, then signature, then documentation", async (t) => {
  const s = await _symbols(
    "pkg/config.py",
    [
      "def parse_config(text):",
      '    """Parse a config file into settings."""',
      "    return text",
      "",
      "class Loader:",
      "    def load(self, path):",
      "        return path",
      "",
    ].join("\n"),
  );
  await t.step("a documented function: its docstring is the third line", () => {
    equal(
      embedText(s.get("parse_config")!),
      "function parse_config (pkg/config.py)\ndef parse_config(text)\n" +
        "Parse a config file into settings.",
    );
  });
  await t.step("a method is named by its qualified name", () => {
    const text = embedText(s.get("load")!);
    equal(text.split("\n")[0], "method Loader.load (pkg/config.py)");
    equal(text.split("\n")[1], "def load(self, path)");
  });
  await t.step("a summary that only repeats the signature adds no line", () => {
    const load = s.get("load")!;
    equal(embedText({ ...load, docstring: "", summary: load.signature }).split("\n").length, 2);
    equal(
      embedText({ ...load, docstring: "", summary: "Loads one path from disk." }).split("\n")[2],
      "Loads one path from disk.",
    );
  });
});

Deno.test("embed_text: long signatures and documentation are cut, the head kept", async () => {
  const s = (await _symbols("a.py", "def f(x):\n    return x\n")).get("f")!;
  const long = {
    ...s,
    signature: "def f(" + "a, ".repeat(400) + "):",
    docstring: "word ".repeat(400),
  };
  const [head, signature, doc] = embedText(long).split("\n");
  equal(head, "function f (a.py)");
  equal(signature, long.signature.slice(0, 300));
  equal(doc, long.docstring.slice(0, 500));
});

Deno.test("embed_text: the key depends on the provider identity and the text alone", () => {
  const a = embedKey("onnx:all-MiniLM-L6-v2", "function f (a.py)");
  equal(a, embedKey("onnx:all-MiniLM-L6-v2", "function f (a.py)"));
  equal(/^[0-9a-f]{32}$/.test(a), true);
  notEqual(a, embedKey("onnx:other-model", "function f (a.py)"));
  notEqual(a, embedKey("onnx:all-MiniLM-L6-v2", "function g (a.py)"));
  // The separator keeps identity and text apart: moving a character across gives another key.
  notEqual(embedKey("ab", "c"), embedKey("a", "bc"));
});
