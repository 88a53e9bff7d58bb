/**
 * The graph read model over one small real Python and Go tree, indexed for real: references
 * (src/query/references.ts), the call graph and its walks (call_graph.ts), what a change reaches
 * (impact.ts), the import graph, its neighbourhoods and units (import_graph.ts, units.ts), file
 * PageRank (page_rank.ts), class hierarchies (class_bases.ts).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { CALL_GRAPH } from "../../src/query/call_graph.ts";
import { CLASS_BASES } from "../../src/query/class_bases.ts";
import { affectedFiles, affectedSymbols, riskScore } from "../../src/query/impact.ts";
import { IMPORT_GRAPH, importersByDepth, neighbourhood } from "../../src/query/import_graph.ts";
import { FILE_RANK } from "../../src/query/page_rank.ts";
import { fileReferences, identifierReferences } from "../../src/query/references.ts";
import { UNITS } from "../../src/query/units.ts";
import { indexedView } from "./_fixture.ts";

const TREE: Record<string, string> = {
  "app/__init__.py": "from app.models import Model\n",
  "app/models.py": [
    "class Model:",
    "    def save(self):",
    "        self.validate()",
    "",
    "    def validate(self):",
    "        pass",
    "",
    "class User(Model):",
    "    def rename(self, name: str):",
    "        self.save()",
    "",
  ].join("\n"),
  "app/forms.py": "from app import Model\n\nclass Form:\n    pass\n",
  "app/views.py": [
    "from app.models import Model",
    "from app.models import User",
    "",
    "def edit(u: User):",
    "    u.rename('x')",
    "",
    "def make() -> Model:",
    "    return Model()",
    "",
  ].join("\n"),
  "app/cli.py": "from app.views import edit\n\ndef main():\n    edit(None)\n",
  "tests/test_views.py": "from app.views import edit\n\ndef test_edit():\n    edit(None)\n",
  "go.mod": "module example.com/m\n",
  "kv/kv.go": "package kv\n\nfunc Get() int { return 1 }\n",
  "kv/put.go": "package kv\n\nfunc Put() { Get() }\n",
  "main.go": 'package main\n\nimport "example.com/m/kv"\n\nfunc main() { kv.Get() }\n',
};

Deno.test("graph model", async (t) => {
  const { view, symbol, close } = await indexedView(TREE);
  try {
    await t.step("references: calls, imports, type uses and subclasses of a class", () => {
      const rows = identifierReferences(view, "app/models.py::Model#class").map((r) =>
        `${r.file}:${r.line} ${r.kind} ${r.target} ${r.resolution}`
      );
      deepEqual(rows, [
        "app/__init__.py:1 import app/models.py::Model#class resolved",
        // Through the __init__.py re-export.
        "app/forms.py:1 import app/models.py::Model#class resolved",
        "app/models.py:8 inherits app/models.py::Model#class resolved",
        "app/views.py:1 import app/models.py::Model#class resolved",
        "app/views.py:7 type_use app/models.py::Model#class resolved",
        "app/views.py:8 call app/models.py::Model#class resolved",
      ]);
    });

    await t.step("references: a file's importers, re-exports followed", () => {
      deepEqual(
        fileReferences(view, "app/models.py").map((r) => `${r.file} ${r.detail}`),
        [
          "app/__init__.py app.models",
          "app/views.py app.models",
          "app/forms.py app (via app/__init__.py)",
        ],
      );
    });

    await t.step("call graph: callers and callees, resolved through receivers", () => {
      const graph = view.get(CALL_GRAPH);
      const save = symbol("app/models.py::Model.save#method");
      deepEqual(graph.callers(save).map((e) => `${e.symbol?.id} ${e.receiver} ${e.resolution}`), [
        "app/models.py::User.rename#method self resolved",
      ]);
      deepEqual(graph.callees(save).map((e) => e.symbol?.id), [
        "app/models.py::Model.validate#method",
      ]);
      const walk = graph.walk(symbol("app/models.py::Model.validate#method"), "callers", 5, 10);
      deepEqual(walk.nodes.map((n) => `${n.depth} ${n.symbol?.id} <- ${n.from}`), [
        "1 app/models.py::Model.save#method <- app/models.py::Model.validate#method",
        "2 app/models.py::User.rename#method <- app/models.py::Model.save#method",
        "3 app/views.py::edit#function <- app/models.py::User.rename#method",
        "4 app/cli.py::main#function <- app/views.py::edit#function",
        "4 tests/test_views.py::test_edit#function <- app/views.py::edit#function",
      ]);
      equal(walk.depthReached, 4);
      const cut = graph.walk(symbol("app/models.py::Model.validate#method"), "callers", 5, 2);
      deepEqual([cut.nodes.length, cut.truncated], [2, true]);
    });

    await t.step("impact: importers by distance, callers transitively, tests apart", () => {
      const edit = symbol("app/views.py::edit#function");
      const files = affectedFiles(view, edit, 2).map((f) =>
        `${f.file} ${f.depth} ${f.references} ${f.isTest}`
      );
      deepEqual(files, ["app/cli.py 1 2 false", "tests/test_views.py 1 2 true"]);
      equal(riskScore(affectedFiles(view, edit, 2)), 1);
      const callers = affectedSymbols(view, edit, 3, 100).symbols;
      deepEqual(callers.map((s) => `${s.symbol?.id} ${s.isTest}`), [
        "app/cli.py::main#function false",
        "tests/test_views.py::test_edit#function true",
      ]);
      // Go: a file of the same package calling the symbol is depth 0 (no import needed).
      deepEqual(
        affectedFiles(view, symbol("kv/kv.go::Get#function"), 1).map((f) => `${f.file} ${f.depth}`),
        ["kv/put.go 0", "main.go 1"],
      );
    });

    await t.step("import graph: units, neighbourhoods and distances", () => {
      const units = view.get(UNITS);
      deepEqual(units.filesOf("kv/kv.go").sort(), ["kv/kv.go", "kv/put.go"]);
      equal(units.keyOf("kv/put.go"), "kv");
      equal(units.keyOf("app/views.py"), "app/views.py");
      const graph = view.get(IMPORT_GRAPH);
      // A Go import names the package: it reaches every file of it.
      deepEqual(graph.directImporters("kv/put.go").map((i) => i.file), ["main.go"]);
      deepEqual(
        [...importersByDepth(graph, "app/models.py", 3)],
        [
          ["app/__init__.py", 1],
          ["app/views.py", 1],
          // Through the re-export of __init__.py: one step of the walk.
          ["app/forms.py", 1],
          ["app/cli.py", 2],
          ["tests/test_views.py", 2],
        ],
      );
      const around = neighbourhood(graph, "app/views.py", "both", 2, 100);
      deepEqual(around.nodes, [
        "app/__init__.py",
        "app/cli.py",
        "app/models.py",
        "app/views.py",
        "tests/test_views.py",
      ]);
      deepEqual(around.edges.filter((e) => e.depth === 1).map((e) => `${e.from}>${e.to}`), [
        "app/cli.py>app/views.py",
        "app/views.py>app/models.py",
        "tests/test_views.py>app/views.py",
      ]);
      const small = neighbourhood(graph, "app/views.py", "both", 2, 3);
      deepEqual([small.nodes.length, small.truncated], [3, true]);
    });

    await t.step("page rank: the most imported file ranks first", () => {
      const rank = [...view.get(FILE_RANK)].sort((a, b) => b[1] - a[1]);
      equal(rank[0]![0], "app/models.py");
      ok(Math.abs(rank.reduce((s, [, r]) => s + r, 0) - 1) < 1e-9);
    });

    await t.step(
      "class bases: ancestors and descendants, each with the class it hangs from",
      () => {
        const bases = view.get(CLASS_BASES);
        const user = symbol("app/models.py::User#class");
        deepEqual(bases.ancestors(user).map((l) => `${l.symbol.id} ${l.relation} ${l.from.id}`), [
          "app/models.py::Model#class extends app/models.py::User#class",
        ]);
        deepEqual(
          bases.descendants(symbol("app/models.py::Model#class")).map((l) => l.symbol.id),
          ["app/models.py::User#class"],
        );
      },
    );
  } finally {
    await close();
  }
});
