/**
 * Symbol importance (src/query/importance.ts) over the shared graph project: the degree ranking
 * exactly (callers' summed weight plus the files importing the module, over the total), and the
 * PageRank ranking by what a user relies on — the symbol everything calls first, a definition in
 * an imported file above one nothing reaches, every definition ranked once, imports never.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import {
  DEGREE_IMPORTANCE,
  PAGERANK_IMPORTANCE,
  type RankedSymbol,
  SYMBOL_PARENTS,
} from "../../src/query/importance.ts";
import { indexedView } from "./_fixture.ts";
import { GRAPH_PROJECT } from "./_graph_project.ts";

const _FILES = {
  ...GRAPH_PROJECT,
  "pkg/lonely.py": "def lonely():\n    return 0\n",
  "pkg/shape.py": "class Shape:\n    def area(self):\n        return 0\n",
};

function _row(r: RankedSymbol): string {
  return `${r.symbol.id} in=${r.inDegree} out=${r.outDegree} importers=${r.importers}`;
}

Deno.test("importance: the degree ranking", async () => {
  const { view, close } = await indexedView(_FILES);
  try {
    const { ranked, iterations } = view.get(DEGREE_IMPORTANCE);
    equal(iterations, 0);
    deepEqual(ranked.map((r) => `${_row(r)} ${Math.round(r.score * 12 * 1000) / 1000}/12`), [
      // helper: imported by a.py and b.py, called 3 times.
      "pkg/util.py::helper#function in=3 out=0 importers=2 5/12",
      "pkg/a.py::run#function in=1 out=2 importers=1 2/12",
      "pkg/a.py::step#function in=1 out=1 importers=1 2/12",
      "pkg/util.py::unused#function in=0 out=0 importers=2 2/12",
      // main is called once, by its own file's top level.
      "pkg/b.py::main#function in=1 out=2 importers=0 1/12",
      // Ties by id, the README's heading included (every definition is ranked).
      "README.md::pkg#type in=0 out=0 importers=0 0/12",
      "pkg/lonely.py::lonely#function in=0 out=0 importers=0 0/12",
      "pkg/shape.py::Shape#class in=0 out=0 importers=0 0/12",
      // A member counts no importers of its module.
      "pkg/shape.py::Shape.area#method in=0 out=0 importers=0 0/12",
    ]);
  } finally {
    await close();
  }
});

Deno.test("importance: the PageRank ranking", async () => {
  const { view, close } = await indexedView(_FILES);
  try {
    const { ranked, iterations } = view.get(PAGERANK_IMPORTANCE);
    ok(iterations > 0);
    const ids = ranked.map((r) => r.symbol.id);
    equal(ids[0], "pkg/util.py::helper#function");
    equal(ids.length, new Set(ids).size);
    deepEqual(
      [...ids].sort(),
      view.index.allSymbols().filter((s) => s.kind !== "import").map((s) => s.id).sort(),
    );
    const score = new Map(ranked.map((r) => [r.symbol.id, r.score]));
    // Of two definitions of one file, the one called from elsewhere ranks higher.
    ok(score.get("pkg/util.py::helper#function")! > score.get("pkg/util.py::unused#function")!);
    ok(score.get("pkg/a.py::step#function")! > score.get("pkg/lonely.py::lonely#function")!);
    // Highest first; equal scores by id.
    for (let i = 1; i < ranked.length; i++) {
      const a = ranked[i - 1]!, b = ranked[i]!;
      ok(a.score > b.score || (a.score === b.score && a.symbol.id < b.symbol.id));
    }
    ok(ranked.every((r) => r.score > 0));
    deepEqual(Object.fromEntries(view.get(SYMBOL_PARENTS)), {
      "pkg/shape.py::Shape.area#method": "pkg/shape.py::Shape#class",
    });
  } finally {
    await close();
  }
});
