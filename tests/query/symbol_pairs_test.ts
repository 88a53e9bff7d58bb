/**
 * Pairing the symbols of two versions of a file (src/query/symbol_pairs.ts) over real parses and
 * the real line diff: renames, removals, and runs of same-named symbols under insertions.
 */
import { deepEqual, equal } from "node:assert/strict";
import { diffLines, splitLines } from "../../src/parser/git/line_diff.ts";
import { parseSource } from "../../src/parser/mod.ts";
import type { SymbolRecord } from "../../src/parser/types.ts";
import { newLineOf, pairSymbols } from "../../src/query/symbol_pairs.ts";

async function _parse(file: string, text: string): Promise<SymbolRecord[]> {
  return (await parseSource(file, new TextEncoder().encode(text))).symbols;
}

async function _pairs(file: string, before: string, after: string) {
  const hunks = diffLines(splitLines(before), splitLines(after));
  const p = pairSymbols(await _parse(file, before), await _parse(file, after), hunks);
  return {
    pairs: p.pairs.map(([o, n]) => `${o.id}@${o.line} -> ${n.id}@${n.line}`),
    removed: p.removed.map((s) => s.id),
    added: p.added.map((s) => s.id),
  };
}

Deno.test("symbol_pairs: newLineOf maps unchanged lines across hunks", () => {
  const hunks = diffLines(splitLines("a\nb\nc\nd\n"), splitLines("a\nx\ny\nb\nd\n"));
  equal(newLineOf(hunks, 1), 1);
  equal(newLineOf(hunks, 2), 4);
  equal(newLineOf(hunks, 3), null);
  equal(newLineOf(hunks, 4), 5);
  equal(newLineOf([], 7), 7);
});

Deno.test("symbol_pairs: a kept, a renamed and an added function", async () => {
  const before = "def keep():\n    return 1\n\n\ndef old():\n    return 2\n";
  const after =
    "def keep():\n    return 1\n\n\ndef new():\n    return 2\n\n\ndef extra():\n    return 3\n";
  deepEqual(await _pairs("m.py", before, after), {
    pairs: ["m.py::keep#function@1 -> m.py::keep#function@1"],
    removed: ["m.py::old#function"],
    added: ["m.py::new#function", "m.py::extra#function"],
  });
});

Deno.test("symbol_pairs: same-named symbols pair by the unchanged line, not by their order", async () => {
  // One more `f` inserted before a run of two: each old `f` keeps its own new self.
  const before = "def f():\n    return 1\n\n\ndef f():\n    return 2\n";
  const after = "def f():\n    return 0\n\n\n" + before;
  deepEqual(await _pairs("d.py", before, after), {
    pairs: [
      "d.py::f#function~1@1 -> d.py::f#function~2@5",
      "d.py::f#function~2@5 -> d.py::f#function~3@9",
    ],
    removed: [],
    added: ["d.py::f#function~1"],
  });
});

Deno.test("symbol_pairs: a duplicate whose line changed pairs with the one left", async () => {
  const before = "def f():\n    return 1\n\n\ndef f():\n    return 2\n";
  const after = "def f():\n    return 1\n\n\ndef f(x):\n    return 2\n";
  deepEqual(await _pairs("d.py", before, after), {
    pairs: [
      "d.py::f#function~1@1 -> d.py::f#function~1@1",
      "d.py::f#function~2@5 -> d.py::f#function~2@5",
    ],
    removed: [],
    added: [],
  });
});
