/** Centrality from the stored import and call graph (src/query/centrality.ts). */
import { equal, ok } from "node:assert/strict";
import { CENTRALITY, moduleOf } from "../../src/query/centrality.ts";
import { type RepoView, RepoViews } from "../../src/query/view.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";

/** Index `files` in a temp workspace and hand its repo view to `check`. */
async function _withView(
  prefix: string,
  files: Record<string, string>,
  check: (view: RepoView) => void,
): Promise<void> {
  const ws = tempWorkspace(prefix);
  writeTree(ws.root, files);
  const runner = workspaceRunner(ws);
  try {
    const r = await runner.call("index_folder", { path: ws.root, format: "json" });
    equal(r.isError, false, r.text);
    const repo = (JSON.parse(r.text) as { repo: string }).repo;
    check(new RepoViews(ws.store).open(repo));
  } finally {
    await runner.close();
    ws.dispose();
  }
}

Deno.test("centrality: importers of the module and callers of the name, per symbol", async () => {
  await _withView("codemunch-centrality-", {
    "go.mod": "module example.com/shop\n",
    "store/store.go":
      "package store\n\nfunc Open() int { return helper() }\n\nfunc helper() int { return 1 }\n",
    "store/extra.go": "package store\n\nfunc Extra() int { return helper() }\n",
    "cmd/a/main.go":
      'package main\n\nimport "example.com/shop/store"\n\nfunc main() { store.Open() }\n',
    "cmd/b/main.go":
      'package main\n\nimport "example.com/shop/store"\n\nfunc main() { store.Open() }\n',
    "py/util.py": "def used():\n    pass\n\ndef unused():\n    pass\n",
    "py/a.py": "from py.util import used\n\ndef a():\n    used()\n",
    "py/b.py": "from py.util import used\n\ndef b():\n    used()\n",
    "py/lonely.py": "def used():\n    pass\n",
  }, (view) => {
    const c = view.get(CENTRALITY);
    // Go: an import names the package folder; every file of it counts as imported (2 importers).
    equal(moduleOf("store/extra.go", "go"), "store");
    equal(c.importers.get("store"), 2);
    ok(c.of("store/extra.go::Extra#function") >= Math.log1p(2) - 1e-9);
    // Open is also called from both importing files.
    ok(c.of("store/store.go::Open#function") > c.of("store/extra.go::Extra#function"));
    // Python: util.py is imported by two files and `used` called from both; `unused` only imported.
    equal(c.importers.get("py/util.py"), 2);
    ok(c.of("py/util.py::used#function") > c.of("py/util.py::unused#function"));
    // A namesake in a file nobody imports gets no credit for the calls.
    equal(c.of("py/lonely.py::used#function"), 0);
    ok(c.bonus("py/util.py::used#function") > 0);
  });
});

Deno.test("centrality: a receiver call is shared out among the symbols of that exact name", async () => {
  await _withView("codemunch-centrality-names-", {
    "a.py": "class A:\n    def run(self):\n        pass\n",
    "b.py": "class B:\n    def run(self):\n        pass\n",
    "c.py": "class C:\n    def Run(self):\n        pass\n",
    "main.py": "def main(x):\n    x.run()\n",
  }, (view) => {
    // Names are counted with their case: `Run` is not a namesake of `run`.
    const counts = view.index.symbolNameCounts();
    equal(counts.get("run"), 2);
    equal(counts.get("Run"), 1);
    equal(counts.get("main"), 1);
    const c = view.get(CENTRALITY);
    // One calling file, two methods named `run`: half a caller each; `Run` is never called.
    equal(c.of("a.py::A.run#method"), Math.log1p(0.5));
    equal(c.of("b.py::B.run#method"), Math.log1p(0.5));
    equal(c.of("c.py::C.Run#method"), 0);
  });
});
