/**
 * Python imports of submodules (issue 27): `from pkg import c` where `c` is the module `pkg/c.py`
 * reaches `pkg/c.py` — for find_importers, cycles and names resolved through it — as do the
 * relative forms `from . import x` and `from .. import y`.
 */
import { deepEqual, equal } from "node:assert/strict";
import { CALL_GRAPH } from "../../src/query/call_graph.ts";
import { IMPORT_CYCLES, IMPORT_GRAPH } from "../../src/query/import_graph.ts";
import { NAME_RESOLVER } from "../../src/query/resolve_names.ts";
import { indexedView } from "./_fixture.ts";

Deno.test("python submodule imports reach the module", async (t) => {
  const { view, close } = await indexedView({
    "pkg/__init__.py": "from .models import Model\n",
    "pkg/models.py": "class Model:\n    pass\n",
    "pkg/c.py": "from pkg import d\n\ndef f():\n    return d.g()\n",
    "pkg/d.py": "from pkg import c\n\ndef g():\n    return 1\n",
    "pkg/sub/__init__.py": "",
    "pkg/sub/x.py": "from .. import c, Model\nfrom . import y, z\n\ndef run():\n    c.f()\n",
    "pkg/sub/y.py": "",
    "pkg/sub/z.py": "",
    "app.py": "import pkg.sub.x as x\nfrom pkg import models, Model\n",
  });
  try {
    const graph = view.get(IMPORT_GRAPH);
    const importers = (file: string) => graph.importers(file).map((i) => `${i.file} ${i.hops}`);
    await t.step("find_importers of a module imported from its package", () => {
      deepEqual(importers("pkg/c.py"), ["pkg/d.py 1", "pkg/sub/x.py 1"]);
      deepEqual(importers("pkg/d.py"), ["pkg/c.py 1"]);
      deepEqual(importers("pkg/sub/z.py"), ["pkg/sub/x.py 1"]);
      deepEqual(importers("pkg/sub/x.py"), ["app.py 1"]);
      // `models` is the module; `Model` comes through the package's __init__.py.
      deepEqual(importers("pkg/models.py"), ["app.py 1", "pkg/__init__.py 1", "pkg/sub/x.py 2"]);
    });
    await t.step("a cycle through submodule imports", () => {
      deepEqual(view.get(IMPORT_CYCLES).map((c) => c.files), [["pkg/c.py", "pkg/d.py"]]);
    });
    await t.step("a call through the imported module resolves in it", () => {
      const resolver = view.get(NAME_RESOLVER);
      const site = view.get(CALL_GRAPH).sitesOf("pkg/sub/x.py").find((s) => s.callee === "f")!;
      const r = resolver.resolveCall(site)!;
      deepEqual([r.targets.map((s) => s.id), r.resolution], [["pkg/c.py::f#function"], "resolved"]);
      const g = view.get(CALL_GRAPH).sitesOf("pkg/c.py").find((s) => s.callee === "g")!;
      equal(resolver.resolveCall(g)?.targets[0]?.id, "pkg/d.py::g#function");
    });
  } finally {
    await close();
  }
});

Deno.test("python: a whole-module import in a package file passes on only its name", async () => {
  // Before, `import tools` inside `app/conf/__init__.py` was a re-export of everything `tools`
  // defines, so every `from app.conf import settings` counted as an importer of `tools.py` (in
  // django: 300 extra importers of the root `__init__.py`).
  const { view, close } = await indexedView({
    "tools.py": "def helper():\n    pass\n",
    "app/__init__.py": "",
    "app/conf/__init__.py": "import tools\n\nsettings = tools.helper()\n",
    "app/views.py": "from app.conf import settings\n",
    "app/admin.py": "from app.conf import tools\n\ntools.helper()\n",
  });
  try {
    const importers = view.get(IMPORT_GRAPH).importers("tools.py").map((i) =>
      `${i.file} ${i.hops}`
    );
    deepEqual(importers, ["app/conf/__init__.py 1", "app/admin.py 2"]);
  } finally {
    await close();
  }
});
