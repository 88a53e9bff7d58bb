/**
 * The grammars we build ourselves (`grammars/`, `scripts/build_grammars.sh`): each `.wasm` is the
 * one recorded in `grammars/SHA256SUMS`, with its licence beside it, every one the registry names
 * is there, and each loads in our runtime and parses.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { Parser, type Tree } from "web-tree-sitter";
import { grammarModules } from "../../src/parser/registry.ts";
import { loadGrammar } from "../../src/parser/loader.ts";

const DIR = new URL("../../grammars/", import.meta.url);
const PREFIX = "codemunch-grammars/";

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function recorded(): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of Deno.readTextFileSync(new URL("SHA256SUMS", DIR)).split("\n")) {
    const m = /^([0-9a-f]{64}) [ *](\S+)$/.exec(line);
    if (m !== null) sums.set(m[2]!, m[1]!);
  }
  return sums;
}

Deno.test("each built grammar is the one recorded in grammars/SHA256SUMS", async () => {
  const sums = recorded();
  const files = [...Deno.readDirSync(DIR)].map((e) => e.name).filter((n) => n.endsWith(".wasm"));
  deepStrictEqual(files.sort(), [...sums.keys()].sort());
  for (const [file, want] of sums) {
    equal(await sha256(await Deno.readFile(new URL(file, DIR))), want, file);
    const lang = /^tree-sitter-(.+)\.wasm$/.exec(file)![1]!;
    ok(Deno.statSync(new URL(`LICENSE-${lang}`, DIR)).isFile, `grammars/LICENSE-${lang}`);
  }
});

Deno.test("every grammar of ours the registry names is built, and loads and parses", async () => {
  const sums = recorded();
  const ours = grammarModules().filter((m) => m.startsWith(PREFIX));
  ok(ours.length > 0);
  const samples: Record<string, string> = {
    "tree-sitter-sql.wasm": "CREATE TABLE t (id int);\n",
    "tree-sitter-perl.wasm": "package A;\nsub f { return 1 }\n",
    "tree-sitter-scss.wasm": "@mixin m($x) { a: $x; }\n.a { &:hover { @include m(1); } }\n",
    "tree-sitter-apex.wasm": "public class A { public void f() { g(); } }\n",
    "tree-sitter-blade.wasm": "@section('a')\n<p>{{ $x }}</p>\n@endsection\n",
    "tree-sitter-commonlisp.wasm": "(defun f (x) (g x))\n",
    "tree-sitter-erlang.wasm": "-module(m).\nf(X) -> g(X).\n",
    "tree-sitter-pascal.wasm": "program P;\nbegin\n  WriteLn('a');\nend.\n",
    "tree-sitter-cobol.wasm":
      "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. HELLO.\n       PROCEDURE DIVISION.\n           STOP RUN.\n",
    "tree-sitter-verilog.wasm": "module m(input a, output b);\n  assign b = a;\nendmodule\n",
    "tree-sitter-d.wasm": "module m;\nint f(int x) { return g(x); }\n",
  };
  for (const module of ours) {
    const file = module.slice(PREFIX.length);
    ok(sums.has(file), `${file} is not in grammars/SHA256SUMS: run scripts/build_grammars.sh`);
    const language = await loadGrammar(file, module);
    const parser = new Parser();
    try {
      parser.setLanguage(language);
      const source: string | undefined = samples[file];
      if (source === undefined) throw new Error(`no sample for ${file}`);
      // Twice in one process: a scanner that keeps state across parses shows here.
      for (let i = 0; i < 2; i++) {
        const tree: Tree = parser.parse(source)!;
        equal(tree.rootNode.hasError, false, `${file}: ${tree.rootNode.toString()}`);
        tree.delete();
      }
    } finally {
      parser.delete();
    }
  }
});
