/**
 * Related symbols (src/query/related.ts) over the shared graph project and a real git history:
 * each signal of the module's table with its evidence, co-change from the commits of a window,
 * the order of the list, imports and the symbol itself never listed.
 */
import { deepEqual, equal } from "node:assert/strict";
import { historyOf } from "../../src/query/history.ts";
import { coChangeOf, relatedSymbols, type Relation } from "../../src/query/related.ts";
import { commit, git, newRepo, write } from "../history/_repo.ts";
import { indexedCheckout, indexedView } from "./_fixture.ts";
import { GRAPH_PROJECT } from "./_graph_project.ts";

function _rows(list: Relation[]): string[] {
  return list.map((r) => `${r.symbol.id} ${r.score} [${r.reasons.join(" ")}]`);
}

Deno.test("related: the graph, place and name signals of one symbol", async () => {
  const { view, symbol, close } = await indexedView({
    ...GRAPH_PROJECT,
    "pkg/shape.py": "class Shape:\n    def area(self):\n        return 0\n\n" +
      "    def area_total(self):\n        return self.area()\n",
  });
  try {
    deepEqual(_rows(relatedSymbols(view, symbol("pkg/a.py::step#function"), null)), [
      // Same file 3, calls it 2, and both call helper: 0.5.
      "pkg/a.py::run#function 5.5 [same_file calls_it shared_callees:1]",
      // Called by it 2, and run, step's caller, calls it too: 1.
      "pkg/util.py::helper#function 3 [called_by_it shared_callers:1]",
      "pkg/b.py::main#function 0.5 [shared_callees:1]",
    ]);
    deepEqual(_rows(relatedSymbols(view, symbol("pkg/shape.py::Shape.area#method"), null)), [
      "pkg/shape.py::Shape.area_total#method 6.5 [same_file same_class calls_it name:area]",
      "pkg/shape.py::Shape#class 3 [same_file]",
    ]);
  } finally {
    await close();
  }
});

Deno.test("related: co-change from the commits of a window", async () => {
  const dir = newRepo();
  const t = 1_700_000_000;
  write(dir, {
    "a.py": "def alpha():\n    return 0\n",
    "b.py": "def beta():\n    return 0\n",
    "c.py": "def gamma():\n    return 0\n",
  });
  commit(dir, "Start", t);
  write(dir, { "a.py": "def alpha():\n    return 1\n", "b.py": "def beta():\n    return 1\n" });
  commit(dir, "a and b", t + 100);
  write(dir, { "a.py": "def alpha():\n    return 2\n", "c.py": "def gamma():\n    return 2\n" });
  commit(dir, "a and c", t + 200);
  git(dir, ["checkout", "-q", "-b", "side"]);
  write(dir, { "d.py": "def delta():\n    return 3\n" });
  commit(dir, "d alone", t + 300);
  git(dir, ["checkout", "-q", "main"]);
  write(dir, { "a.py": "def alpha():\n    return 3\n", "b.py": "def beta():\n    return 4\n" });
  commit(dir, "a and b again", t + 400);
  git(dir, ["merge", "-q", "--no-ff", "-m", "Merge side", "side"], {
    GIT_AUTHOR_DATE: `${t + 500} +0000`,
    GIT_COMMITTER_DATE: `${t + 500} +0000`,
  });
  const { view, symbol, close } = await indexedCheckout(dir);
  try {
    const history = historyOf(view, "get_related_symbols");
    const head = history.resolveCommit("HEAD");
    // Four commits changed a.py (the root included); b.py in two of the others, c.py in one.
    const all = coChangeOf(history, head, 0, "a.py");
    equal(all.commits, 4);
    deepEqual(Object.fromEntries(all.withFile), { "b.py": 3, "c.py": 2 });
    // The window starts after the root commit; the merge counts for no file.
    const recent = coChangeOf(history, head, t + 50, "a.py");
    equal(recent.commits, 3);
    deepEqual(Object.fromEntries(recent.withFile), { "b.py": 2, "c.py": 1 });
    deepEqual(_rows(relatedSymbols(view, symbol("a.py::alpha#function"), recent)), [
      "b.py::beta#function 2 [co_changed:2/3]",
      "c.py::gamma#function 1 [co_changed:1/3]",
    ]);
    deepEqual(
      relatedSymbols(view, symbol("a.py::alpha#function"), { commits: 0, withFile: new Map() }),
      [],
    );
  } finally {
    await close();
  }
});
