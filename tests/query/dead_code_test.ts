/**
 * Dead code (src/query/dead_code.ts) over a small Python package indexed for real: each reason of
 * the module's table, its evidence, the file findings and the order of both lists.
 */
import { deepEqual } from "node:assert/strict";
import { type DeadCode, deadCode } from "../../src/query/dead_code.ts";
import { indexedView } from "./_fixture.ts";

const _FILES = {
  "app/__init__.py": "",
  "app/_util.py": [
    "# noted is kept for the docs",
    "def used():",
    "    return 1",
    "",
    "",
    "def _orphan():",
    "    return _inner()",
    "",
    "",
    "def _inner():",
    "    return 2",
    "",
    "",
    "def lonely():",
    "    return 3",
    "",
  ].join("\n"),
  "app/main.py": [
    "from app._util import used",
    "",
    "",
    "def main():",
    "    used()",
    "",
    "",
    'if __name__ == "__main__":',
    "    main()",
    "",
  ].join("\n"),
  "app/api.py": [
    "def public_fn():",
    "    return 1",
    "",
    "",
    "def noted():",
    "    return 2",
    "",
    "",
    "class Widget:",
    "    def render(self):",
    "        return 3",
    "",
  ].join("\n"),
  "app/_old.py": "def _gone():\n    return 0\n",
  "tests/test_app.py":
    "def test_nothing():\n    assert True\n\n\ndef fixture_data():\n    return 1\n",
};

/** The findings as `confidence reason id [evidence] mentions/callers`. */
function _symbols(d: DeadCode): string[] {
  return d.symbols.map((s) =>
    `${s.confidence} ${s.reason} ${s.symbol.id} [${
      s.evidence.join(",")
    }] ${s.mentions}/${s.callers}`
  );
}

function _files(d: DeadCode): string[] {
  return d.files.map((f) =>
    `${f.confidence} ${f.reason} ${f.file} ${f.deadSymbols}/${f.symbols} ${f.importers}`
  );
}

Deno.test("dead_code: every reason of a small Python package", async (t) => {
  const { view, close } = await indexedView(_FILES);
  try {
    await t.step("the name-only tiers, without the call graph", () => {
      const d = deadCode(view, { includeTests: false, withGraph: false });
      deepEqual(_symbols(d), [
        "1 unreferenced app/_old.py::_gone#function " +
        "[no_mentions,no_callers,not_exported,file_not_imported,not_a_convention_root,no_reflection] 0/0",
        "1 unreferenced app/_util.py::_orphan#function " +
        "[no_mentions,no_callers,not_exported,not_a_convention_root,no_reflection] 0/0",
        // `_util` is an internal path: its public names stay inside the repo.
        "0.9 unreferenced_export app/_util.py::lonely#function " +
        "[no_mentions,no_callers,exported_in_repo,not_a_convention_root,no_reflection] 0/0",
        "0.5 unreferenced_public app/api.py::public_fn#function " +
        "[no_mentions,no_callers,public_api,file_not_imported,not_a_convention_root,no_reflection] 0/0",
        "0.5 unreferenced_public app/api.py::Widget#class " +
        "[no_mentions,no_callers,public_api,file_not_imported,not_a_convention_root,no_reflection] 0/0",
        "0.5 unreferenced_public app/api.py::Widget.render#method " +
        "[no_mentions,no_callers,public_api,file_not_imported,not_a_convention_root,no_reflection] 0/0",
      ]);
      deepEqual(_files(d), [
        "1 no_importer_all_dead app/_old.py 1/1 0",
        "0.5 no_importer_public app/api.py 0/4 0",
      ]);
      // main.py is a program (a root, not weighed); the test file is not weighed at all.
      deepEqual([d.candidates, d.functions, d.roots, d.unweighedLanguages], [9, 8, 1, []]);
      deepEqual(d.live, { mentioned: 3, program: 1 });
    });
    await t.step("the call-graph tiers", () => {
      const d = deadCode(view, { includeTests: false, withGraph: true });
      deepEqual(_symbols(d).filter((s) => s.startsWith("0.7") || s.startsWith("0.3")), [
        // Its only caller is `_orphan`, dead at 1.0.
        "0.7 used_only_by_dead_code app/_util.py::_inner#function " +
        "[callers_dead,not_exported,not_a_convention_root,no_reflection] 1/1",
        // Written in a comment only.
        "0.3 mentioned_only app/api.py::noted#function " +
        "[no_callers,public_api,file_not_imported,not_a_convention_root,no_reflection] 1/0",
      ]);
      deepEqual(d.symbols.length, 8);
    });
    await t.step("test files weighed when asked: discovered tests are roots", () => {
      const d = deadCode(view, { includeTests: true, withGraph: false });
      const inTests = d.symbols.filter((s) => s.isTest).map((s) => `${s.reason} ${s.symbol.id}`);
      deepEqual(inTests, ["unreferenced_public tests/test_app.py::fixture_data#function"]);
      deepEqual([d.candidates, d.live.test], [11, 1]);
    });
    await t.step("a declared entry file is a root", () => {
      const d = deadCode(view, {
        includeTests: false,
        withGraph: false,
        isEntry: (p) => p === "app/api.py",
      });
      deepEqual(d.symbols.filter((s) => s.symbol.file === "app/api.py"), []);
      deepEqual(_files(d), ["1 no_importer_all_dead app/_old.py 1/1 0"]);
      deepEqual([d.candidates, d.roots, d.live.declared_entry], [5, 2, 1]);
    });
  } finally {
    await close();
  }
});

Deno.test("dead_code: an entry file by its name that the repo imports is weighed", async () => {
  const { view, close } = await indexedView({
    // A library module named wsgi.py (werkzeug's), imported by its wrappers.
    "lib/__init__.py": "",
    "lib/wsgi.py": "def get_host(environ):\n    return environ\n\n\n" +
      "def _unused_helper():\n    return 0\n",
    "lib/wrappers.py": "from lib.wsgi import get_host\n\n\ndef host_of(env):\n" +
      "    return get_host(env)\n",
    // A project's wsgi.py, which the server loads by a dotted path: a root.
    "site/wsgi.py": "def _boot():\n    return 1\n\n\napplication = _boot()\n\n\n" +
      "def _never():\n    return 2\n",
  });
  try {
    const d = deadCode(view, { includeTests: false, withGraph: false });
    deepEqual(d.symbols.map((s) => `${s.reason} ${s.symbol.id}`), [
      "unreferenced lib/wsgi.py::_unused_helper#function",
      "unreferenced_public lib/wrappers.py::host_of#function",
    ]);
    deepEqual(d.live.entry_file, 1);
  } finally {
    await close();
  }
});
