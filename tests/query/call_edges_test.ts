/**
 * The whole resolved call graph (src/query/call_edges.ts) over real parses: resolved calls weigh
 * 1, a call matched by name to k definitions gives each 1/k, one matching more than the bound is
 * left out, a file-level call's caller is its file, and both directions agree.
 */
import { deepEqual, equal } from "node:assert/strict";
import { CALL_EDGES, type Weighted } from "../../src/query/call_edges.ts";
import { MAX_BY_NAME } from "../../src/query/test_reach.ts";
import { indexedView } from "./_fixture.ts";
import { GRAPH_PROJECT } from "./_graph_project.ts";

function _rows(map: Map<string, Weighted>): Record<string, Record<string, number>> {
  return Object.fromEntries(
    [...map].sort(([a], [b]) => a < b ? -1 : 1).map(([k, row]) => [k, Object.fromEntries(row)]),
  );
}

Deno.test("call_edges: every resolved call of a package, both ways", async () => {
  const { view, close } = await indexedView(GRAPH_PROJECT);
  try {
    const edges = view.get(CALL_EDGES);
    deepEqual(_rows(edges.callees), {
      "pkg/a.py::run#function": { "pkg/util.py::helper#function": 1, "pkg/a.py::step#function": 1 },
      "pkg/a.py::step#function": { "pkg/util.py::helper#function": 1 },
      "pkg/b.py": { "pkg/b.py::main#function": 1 },
      "pkg/b.py::main#function": { "pkg/a.py::run#function": 1, "pkg/util.py::helper#function": 1 },
    });
    // The callers are the same edges turned around.
    const turned = new Map<string, Weighted>();
    for (const [from, row] of edges.callees) {
      for (const [to, w] of row) {
        if (!turned.has(to)) turned.set(to, new Map());
        turned.get(to)!.set(from, w);
      }
    }
    deepEqual(_rows(edges.callers), _rows(turned));
    deepEqual([...edges.calleeNames.get("pkg/b.py::main#function")!].sort(), ["helper", "run"]);
    equal(edges.sites, 6);
    equal(edges.kept, 6);
    equal(view.get(CALL_EDGES), edges, "built once per index state");
  } finally {
    await close();
  }
});

Deno.test("call_edges: guesses by name are spread, and dropped past the bound", async () => {
  const files: Record<string, string> = {
    "caller.py": "def go():\n    shared()\n    crowded()\n    nowhere()\n",
  };
  for (let i = 0; i < 2; i++) files[`s${i}.py`] = "def shared():\n    return 1\n";
  for (let i = 0; i <= MAX_BY_NAME; i++) files[`c${i}.py`] = "def crowded():\n    return 1\n";
  const { view, close } = await indexedView(files);
  try {
    const edges = view.get(CALL_EDGES);
    deepEqual(Object.fromEntries(edges.callees.get("caller.py::go#function")!), {
      "s0.py::shared#function": 0.5,
      "s1.py::shared#function": 0.5,
    });
    deepEqual([...edges.calleeNames.get("caller.py::go#function")!].sort(), [
      "crowded",
      "nowhere",
      "shared",
    ]);
    equal(edges.sites, 3);
    equal(edges.kept, 1);
  } finally {
    await close();
  }
});
