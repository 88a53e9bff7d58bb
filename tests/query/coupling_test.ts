/**
 * Coupling per module (src/query/coupling.ts): Ca, Ce and instability over the shared graph
 * project (a module is a file in Python) and over a Go module (a module is a package folder,
 * imports inside it not counted), documents left out.
 */
import { deepEqual, equal } from "node:assert/strict";
import { COUPLING, couplingAssessment, type ModuleCoupling } from "../../src/query/coupling.ts";
import { indexedView } from "./_fixture.ts";
import { GRAPH_PROJECT } from "./_graph_project.ts";

function _row(m: ModuleCoupling): string {
  return `${m.module} files=${m.files} ${m.role} Ca=${m.ca} Ce=${m.ce} I=${m.instability} ${m.assessment} <-${
    JSON.stringify(m.importers)
  } ->${JSON.stringify(m.dependencies)}`;
}

Deno.test("coupling: the assessment bands", () => {
  deepEqual([null, 0, 0.3, 0.31, 0.7, 0.71, 1].map(couplingAssessment), [
    "isolated",
    "stable",
    "stable",
    "neutral",
    "neutral",
    "unstable",
    "unstable",
  ]);
});

Deno.test("coupling: Python files are modules", async () => {
  const { view, close } = await indexedView({
    ...GRAPH_PROJECT,
    "tests/test_b.py": "from pkg.b import main\n\n\ndef test_main():\n    main()\n",
  });
  try {
    const { ranked, modules } = view.get(COUPLING);
    deepEqual(ranked.map(_row), [
      // Most coupled first (Ca + Ce), then by path.
      'pkg/b.py files=1 source Ca=1 Ce=2 I=0.6667 neutral <-["tests/test_b.py"] ->["pkg/a.py","pkg/util.py"]',
      'pkg/a.py files=1 source Ca=1 Ce=1 I=0.5 neutral <-["pkg/b.py"] ->["pkg/util.py"]',
      'pkg/util.py files=1 source Ca=2 Ce=0 I=0 stable <-["pkg/a.py","pkg/b.py"] ->[]',
      'tests/test_b.py files=1 test Ca=0 Ce=1 I=1 unstable <-[] ->["pkg/b.py"]',
      "pkg/__init__.py files=1 source Ca=0 Ce=0 I=null isolated <-[] ->[]",
    ]);
    equal(modules.has("README.md"), false);
  } finally {
    await close();
  }
});

Deno.test("coupling: a Go package folder is one module", async () => {
  const { view, close } = await indexedView({
    "go.mod": "module example.com/shop\n",
    "cart/cart.go":
      'package cart\n\nimport "example.com/shop/money"\n\nfunc Total() int { return money.Add(1, 2) + helper() }\n',
    "cart/helper.go": "package cart\n\nfunc helper() int { return 0 }\n",
    "money/money.go": "package money\n\nfunc Add(a, b int) int { return a + b }\n",
    "main.go":
      'package main\n\nimport (\n\t"example.com/shop/cart"\n\t"example.com/shop/money"\n)\n\nfunc main() { _ = cart.Total() + money.Add(0, 0) }\n',
  });
  try {
    const { ranked } = view.get(COUPLING);
    // The root package's key is the repo's top folder, "".
    deepEqual(ranked.map(_row), [
      ' files=1 source Ca=0 Ce=2 I=1 unstable <-[] ->["cart","money"]',
      'cart files=2 source Ca=1 Ce=1 I=0.5 neutral <-[""] ->["money"]',
      'money files=1 source Ca=2 Ce=0 I=0 stable <-["","cart"] ->[]',
    ]);
  } finally {
    await close();
  }
});
