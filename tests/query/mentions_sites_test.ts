/**
 * Every use of an identifier (src/query/mentions_sites.ts) over a small repo indexed for real:
 * the graph's references, then text mentions labelled by what they are written in, the name's
 * own definition left out, the order by file and line, and the bounds on files and texts.
 */
import { deepEqual, equal } from "node:assert/strict";
import { identifierUses, type Use } from "../../src/query/mentions_sites.ts";
import { indexedView } from "./_fixture.ts";

const _FILES = {
  "pkg/core.py": 'def compute(x):\n    """Compute x."""\n    return x\n',
  "pkg/use.py": [
    "from pkg.core import compute",
    "",
    "",
    "def run():",
    "    total = compute(1)",
    "    # compute is cached",
    '    name = "compute"',
    "    callback = compute",
    "    return total",
    "",
  ].join("\n"),
  "docs/guide.md": "# Guide\n\nCall compute to compute. Not computer.\n",
  "config.json": '{"task": "compute"}\n',
};

function _rows(uses: Use[]): string[] {
  return uses.map((u) => `${u.file}:${u.line} ${u.foundBy} ${u.kind} ${u.symbol ?? "-"} ${u.text}`);
}

Deno.test("mentions_sites: graph references, then labelled text mentions", async () => {
  const { view, close } = await indexedView(_FILES);
  try {
    const all = identifierUses(view, "compute", {
      searchContent: true,
      maxContentFiles: 10,
      maxUses: 50,
    });
    deepEqual(_rows(all.uses), [
      'config.json:1 text config config.json::task#constant {"task": "compute"}',
      "docs/guide.md:3 text docs docs/guide.md::Guide#type Call compute to compute. Not computer.",
      "pkg/use.py:1 resolved import - from pkg.core import compute",
      "pkg/use.py:5 resolved call pkg/use.py::run#function total = compute(1)",
      "pkg/use.py:6 text comment pkg/use.py::run#function # compute is cached",
      'pkg/use.py:7 text string pkg/use.py::run#function name = "compute"',
      "pkg/use.py:8 text code pkg/use.py::run#function callback = compute",
    ]);
    equal(all.references, 2);
    equal(all.imports, 1);
    equal(all.contentFiles, 3);
    equal(all.contentCut, false);
  } finally {
    await close();
  }
});

Deno.test("mentions_sites: the bounds, and the graph alone", async () => {
  const { view, close } = await indexedView(_FILES);
  try {
    const graph = identifierUses(view, "pkg/core.py::compute#function", {
      searchContent: false,
      maxContentFiles: 10,
      maxUses: 50,
    });
    deepEqual(graph.uses.map((u) => `${u.file}:${u.line} ${u.kind}`), [
      "pkg/use.py:1 import",
      "pkg/use.py:5 call",
    ]);
    const cut = identifierUses(view, "compute", {
      searchContent: true,
      maxContentFiles: 1,
      maxUses: 1,
    });
    equal(cut.contentFiles, 1);
    equal(cut.contentCut, true);
    // Texts are filled in for the first maxUses rows only.
    equal(cut.uses.filter((u) => u.foundBy !== "text" && u.text !== "").length <= 1, true);
    deepEqual(
      identifierUses(view, "nothing_named_so", {
        searchContent: true,
        maxContentFiles: 5,
        maxUses: 5,
      }).uses,
      [],
    );
  } finally {
    await close();
  }
});
