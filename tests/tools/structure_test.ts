/**
 * The code-structure tools on a real project indexed in a temporary workspace
 * (tests/tools/_structure_project.ts), every expected answer worked out by hand: importance,
 * coupling, and get_repo_outline's central symbols, which now come from the shared ranking.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { indexedWorkspace } from "../ingest/_helpers.ts";
import { STRUCTURE_PROJECT } from "./_structure_project.ts";

type Row = Record<string, unknown>;

Deno.test("code structure tools on a small layered project", async (t) => {
  const w = await indexedWorkspace(STRUCTURE_PROJECT, "codemunch-structure-");
  const run = async (tool: string, args: Row = {}, format = "json") => {
    const r = await w.call(tool, { format, ...args });
    equal(r.isError, false, r.text);
    return r.body;
  };
  try {
    await t.step("get_coupling_metrics: every module, most coupled first", async () => {
      const body = await run("get_coupling_metrics");
      deepEqual(
        (body.modules as Row[]).map((m) =>
          `${m.module} ${m.files} ${m.role} ca=${m.ca} ce=${m.ce} ${m.instability} ${m.assessment}`
        ),
        [
          // api: imported by cli and the test, imports db and models.
          "app/api.py 1 source ca=2 ce=2 0.5 neutral",
          // db and models import each other (the cycle); api imports both.
          "app/db.py 1 source ca=2 ce=1 0.3333 neutral",
          "app/models.py 1 source ca=2 ce=1 0.3333 neutral",
          "app/cli.py 1 source ca=0 ce=1 1 unstable",
          // A Go package is one module: store.go and lookup.go, imported by web.
          "store 2 source ca=1 ce=0 0 stable",
          "tests/test_api.py 1 test ca=0 ce=1 1 unstable",
          "web 1 source ca=0 ce=1 1 unstable",
        ],
      );
      equal(body.module_count, 7);
    });

    await t.step("get_coupling_metrics: one module, by a file of it or its folder", async () => {
      const one = await run("get_coupling_metrics", { module_path: "store/lookup.go" });
      deepEqual(
        [
          one.module,
          one.ca,
          one.ce,
          one.instability,
          one.assessment,
          one.importers,
          one.dependencies,
        ],
        ["store", 1, 0, 0, "stable", ["web"], []],
      );
      const db = await run("get_coupling_metrics", { module_path: "app/db.py", max_results: 1 });
      deepEqual([db.importers, db.dependencies], [["app/api.py"], ["app/models.py"]]);
      equal((db._meta as Row).truncated, true);
      const scoped = await run("get_coupling_metrics", { scope: "app", max_results: 2 });
      deepEqual((scoped.modules as Row[]).map((m) => m.module), ["app/api.py", "app/db.py"]);
      equal(scoped.module_count, 4);
      const missing = await w.call("get_coupling_metrics", { module_path: "app/dbx.py" });
      equal(missing.isError, true);
      equal(missing.body.code, "file_not_found");
    });

    await t.step(
      "get_symbol_importance: PageRank over calls, imports and containment",
      async () => {
        const body = await run("get_symbol_importance", { top_n: 50 });
        deepEqual(
          (body.ranked_symbols as Row[]).map((m) =>
            `${m.rank} ${m.symbol_id} in=${m.in_degree} out=${m.out_degree} imp=${m.importers}`
          ),
          [
            // Called by display_name and get_user (itself called twice); models.py imported twice.
            "1 app/models.py::format_name#function in=2 out=0 imp=2",
            "2 app/db.py::format_row#function in=2 out=0 imp=2",
            "3 store/lookup.go::lookup#function in=1 out=0 imp=1",
            "4 app/models.py::User#class in=1 out=0 imp=2",
            "5 app/api.py::get_user#function in=2 out=2 imp=2",
            "6 app/db.py::load_user#function in=2 out=1 imp=2",
            "7 store/store.go::Get#function in=1 out=1 imp=1",
            // Members take their rank from their class (ties by id).
            "8 app/models.py::User.__init__#method in=0 out=0 imp=0",
            "9 app/models.py::User.display_name#method in=0 out=1 imp=0",
            "10 app/models.py::User.row#method in=0 out=1 imp=0",
            "11 app/db.py::save_user#function in=1 out=1 imp=2",
            "12 app/cli.py::main#function in=0 out=1 imp=0",
            "13 tests/test_api.py::test_get_user#function in=0 out=1 imp=0",
            "14 web/web.go::Handle#function in=0 out=1 imp=0",
            "15 app/api.py::update_user#function in=0 out=2 imp=2",
          ],
        );
        const scores = (body.ranked_symbols as Row[]).map((m) => m.score as number);
        ok(scores.reduce((a, b) => a + b) < 1, "files hold the rest of the rank");
        equal(body.candidates, 15);
        ok((body.iterations_to_converge as number) > 1);
      },
    );

    await t.step(
      "get_symbol_importance: degree = (callers + module importers) / total",
      async () => {
        const body = await run("get_symbol_importance", { algorithm: "degree", top_n: 9 });
        // get_user: 2 callers + 2 importers of api.py = 4 of 28 (the sum over every definition).
        deepEqual(
          (body.ranked_symbols as Row[]).map((m) => `${m.symbol_id} ${m.score}`),
          [
            "app/api.py::get_user#function 0.14285714",
            "app/db.py::format_row#function 0.14285714",
            "app/db.py::load_user#function 0.14285714",
            "app/models.py::format_name#function 0.14285714",
            "app/db.py::save_user#function 0.10714286",
            "app/models.py::User#class 0.10714286",
            "app/api.py::update_user#function 0.07142857",
            "store/lookup.go::lookup#function 0.07142857",
            "store/store.go::Get#function 0.07142857",
          ],
        );
        equal(body.iterations_to_converge, 0);
        equal((body._meta as Row).truncated, true);
        const scoped = await run("get_symbol_importance", { scope: "store/*.go", top_n: 5 });
        deepEqual((scoped.ranked_symbols as Row[]).map((m) => m.name), ["lookup", "Get"]);
      },
    );

    await t.step("get_repo_outline: central symbols unchanged by the shared ranking", async () => {
      // The answer of the outline's own PageRank before it moved to the query layer.
      const body = await run("get_repo_outline");
      deepEqual(body.most_central_symbols, [
        { symbol_id: "app/db.py::save_user#function", score: 0.385029, kind: "function" },
        { symbol_id: "app/models.py::User#class", score: 0.385029, kind: "class" },
        { symbol_id: "app/api.py::get_user#function", score: 0.072613, kind: "function" },
        { symbol_id: "store/store.go::Get#function", score: 0.049754, kind: "function" },
        { symbol_id: "app/cli.py::main#function", score: 0.026894, kind: "function" },
        { symbol_id: "store/lookup.go::lookup#function", score: 0.026894, kind: "function" },
        {
          symbol_id: "tests/test_api.py::test_get_user#function",
          score: 0.026894,
          kind: "function",
        },
        { symbol_id: "web/web.go::Handle#function", score: 0.026894, kind: "function" },
      ]);
    });

    const RULES = [
      { name: "api", paths: ["app/api.py", "app/cli.py"] },
      { name: "data", paths: ["app/db.py"], may_not_import: ["api"] },
      { name: "domain", paths: ["app/models*"], may_not_import: ["data", "api"] },
    ];
    const DOMAIN_TO_DATA = {
      file: "app/models.py",
      line: 1,
      file_layer: "domain",
      import_target: "app/db.py",
      target_layer: "data",
      rule_violated: "domain may_not_import data",
    };

    await t.step("get_layer_violations: rules given", async () => {
      const body = await run("get_layer_violations", { rules: RULES });
      // db → models is data → domain (allowed); models → db (line 1) is domain → data.
      deepEqual(body.violations, [DOMAIN_TO_DATA]);
      deepEqual(body.layers, [
        { name: "api", files: 2 },
        { name: "data", files: 1 },
        { name: "domain", files: 1 },
      ]);
      equal(body.source, "argument");
      const bad = await w.call("get_layer_violations", {
        rules: [{ name: "a", may_not_import: ["b"] }],
      });
      equal(bad.body.code, "invalid_argument");
      match(String(bad.body.error), /rules: layer "a" may_not_import undeclared layers: b/);
    });

    await t.step("get_layer_violations: inferred from the module map", async () => {
      // Plates: app's db/models/api, store+web, cli+test: every import between plates goes one
      // way (cli and the test import api; web imports store), so nothing is against the grain.
      const body = await run("get_layer_violations");
      equal(body.source, "inferred");
      deepEqual(body.layers, [
        { name: "app (load_user, save_user, format_row)", files: 3 },
        { name: "store (Get)", files: 3 },
        { name: "app (main)", files: 2 },
      ]);
      deepEqual(body.violations, []);
    });

    await t.step("get_related_symbols: callers, callees, file, names", async () => {
      const body = await run("get_related_symbols", { symbol_id: "app/db.py::load_user#function" });
      // load_user is called by get_user and update_user and calls User; get_user also calls
      // format_name, update_user also save_user; "user" is a part of six names. No git history.
      deepEqual(
        (body.related as Row[]).map((r) => `${r.id} ${r.relatedness_score} ${r.reasons}`),
        [
          "app/db.py::save_user#function 4.5 same_file,shared_callers:1,name:user",
          "app/db.py::format_row#function 3 same_file",
          "app/api.py::get_user#function 2.5 calls_it,name:user",
          "app/api.py::update_user#function 2.5 calls_it,name:user",
          "app/models.py::User#class 2.5 called_by_it,name:user",
          "app/models.py::format_name#function 1 shared_callers:1",
          "tests/test_api.py::test_get_user#function 0.5 name:user",
        ],
      );
      deepEqual([body.related_count, body.git_available], [7, false]);
      equal((body.related as Row[])[0]!.line, 8);
    });

    await t.step("get_related_symbols: members of one class, shared callees", async () => {
      const body = await run("get_related_symbols", {
        symbol_id: "app/models.py::User.row#method",
        max_results: 5,
      });
      // row calls format_row, which save_user calls too.
      deepEqual(
        (body.related as Row[]).map((r) => `${r.name} ${r.relatedness_score} ${r.reasons}`),
        [
          "__init__ 4 same_file,same_class",
          "display_name 4 same_file,same_class",
          "User 3 same_file",
          "format_name 3 same_file",
          "format_row 2.5 called_by_it,name:row",
        ],
      );
      equal(body.related_count, 6);
      equal((body._meta as Row).truncated, true);
    });

    const winnow = async (args: Row) => {
      const body = await run("winnow_symbols", args);
      return { body, names: (body.results as Row[]).map((r) => r.name) };
    };

    await t.step("winnow_symbols: kind and callers, ranked by name", async () => {
      const { body, names } = await winnow({
        criteria: [
          { axis: "kind", op: "eq", value: "function" },
          { axis: "callers", op: ">=", value: 2 },
        ],
        rank_by: "name",
        order: "asc",
      });
      deepEqual(names, ["format_name", "format_row", "get_user", "load_user"]);
      deepEqual([body.matched, body.total_scanned], [4, 15]);
    });

    await t.step("winnow_symbols: untested source functions, most called first", async () => {
      // test_get_user reaches get_user, then load_user and format_name, then User and its
      // __init__: the other nine functions and methods of source files are untested.
      const { body, names } = await winnow({
        criteria: [
          { axis: "tested", op: "eq", value: false },
          { axis: "role", op: "eq", value: "source" },
          { axis: "kind", op: "in", value: ["function", "method"] },
        ],
        rank_by: "callers",
        max_results: 4,
      });
      deepEqual(names, ["format_row", "save_user", "lookup", "Get"]);
      equal(body.matched, 9);
      equal((body._meta as Row).truncated, true);
      const row = (body.results as Row[])[0]!;
      deepEqual(
        [row.symbol_id, row.line, row.callers, row.callees, row.tested, row.cyclomatic],
        ["app/db.py::format_row#function", 12, 2, 0, false, 1],
      );
    });

    await t.step("winnow_symbols: names, files, calls, complexity", async () => {
      const byName = await winnow({
        criteria: [
          { axis: "name", op: "matches", value: "^(get|load)_" },
          { axis: "file", op: "matches", value: "app/*" },
        ],
      });
      // Ranked by importance: get_user (rank 5) before load_user (rank 6).
      deepEqual(byName.names, ["get_user", "load_user"]);
      const calls = await winnow({
        criteria: [{ axis: "calls", op: "contains", value: "FORMAT" }],
        rank_by: "name",
        order: "asc",
      });
      deepEqual(calls.names, ["display_name", "get_user", "row", "save_user"]);
      const methods = await winnow({
        criteria: [
          { axis: "kind", op: "eq", value: "method" },
          { axis: "complexity", op: ">=", value: 1 },
        ],
        rank_by: "name",
      });
      deepEqual(methods.names, ["row", "display_name", "__init__"]);
      const churn = await winnow({ rank_by: "churn", max_results: 1 });
      equal(churn.body.git_available, false);
      match(String(churn.body.note), /No churn/);
    });

    await t.step("winnow_symbols: bad criteria say what to write", async () => {
      const cases: [Row, RegExp][] = [
        [
          { axis: "colour", op: "eq", value: "red" },
          /criteria\[0\]\.axis "colour" is not one of kind/,
        ],
        [{ axis: "callers", op: "contains", value: 2 }, /op "contains" does not apply to callers/],
        [{ axis: "tested", op: "eq", value: "yes" }, /value must be true or false/],
        [{ axis: "name", op: "matches", value: "(a+)+$" }, /nested quantifiers/],
        [{ axis: "kind", op: "eq" }, /has no value/],
      ];
      for (const [criterion, message] of cases) {
        const r = await w.call("winnow_symbols", { criteria: [criterion] });
        equal(r.body.code, "invalid_argument", JSON.stringify(criterion));
        match(String(r.body.error), message);
      }
    });

    await t.step("get_repo_health: the figures and the ids to follow up", async () => {
      const body = await run("get_repo_health");
      // 14 measured functions: every cyclomatic 1 but lookup's 2 (15 / 14 = 1.07); 13 of them in
      // source files, of which the test reaches get_user, load_user, format_name and __init__.
      deepEqual(
        [
          body.total_files,
          body.total_symbols,
          body.fn_method_count,
          body.avg_complexity,
          body.high_complexity_count,
          body.dead_count,
          body.untested_count,
          body.untested_pct,
          body.cycle_count,
          body.unstable_modules,
          body.git_available,
        ],
        [8, 15, 14, 1.07, 0, 0, 9, 69.2, 1, 0, false],
      );
      deepEqual(
        (body.follow_up as Row[]).map((f) => `${f.signal} ${f.id} ${f.next}`),
        [
          // Without history, hotspots rank by complexity (value = cyclomatic).
          "hotspot store/lookup.go::lookup#function get_hotspots",
          // The untested, most important first (as get_symbol_importance ranks them).
          "untested app/db.py::format_row#function get_untested_symbols",
          "untested store/lookup.go::lookup#function get_untested_symbols",
          "untested store/store.go::Get#function get_untested_symbols",
          "untested app/models.py::User.display_name#method get_untested_symbols",
          "untested app/models.py::User.row#method get_untested_symbols",
          "cycle app/db.py get_dependency_cycles",
        ],
      );
      equal((body._meta as Row).truncated, true);
      match(String(body.note), /No churn/);
      match(String(body.summary), /^8 files, 15 symbols; mean complexity 1\.07/);
    });

    await t.step("compact decodes to the json answer", async () => {
      for (
        const tool of ["get_coupling_metrics", "get_symbol_importance", "get_layer_violations"]
      ) {
        const { _meta: _a, ...a } = await run(tool);
        const { _meta: _b, ...b } = await run(tool, {}, "compact");
        deepEqual(b, a, tool);
      }
    });

    await t.step(
      "get_layer_violations: declared in .jcodemunch.jsonc, seen once re-indexed",
      async () => {
        Deno.writeTextFileSync(
          `${w.ws.root}/.jcodemunch.jsonc`,
          `// layers of the app\n{"architecture": {"layers": ${JSON.stringify(RULES)},},}\n`,
        );
        const again = await w.runner.call("index_folder", { path: w.ws.root, format: "json" });
        equal(again.isError, false, again.text);
        const body = await run("get_layer_violations");
        equal(body.source, "config");
        deepEqual(body.violations, [DOMAIN_TO_DATA]);
        // The config file is data: no module of the code.
        equal((await run("get_coupling_metrics")).module_count, 7);
      },
    );
  } finally {
    await w.dispose();
  }
});

/** Two folders: ui mostly imports core; one import of core goes back up into ui. */
const LAYERED: Record<string, string> = {
  "core/a.py":
    "from core.b import fb\nfrom core.c import fc\n\n\ndef fa():\n    return fb() + fc()\n",
  "core/b.py": "from core.c import fc\n\n\ndef fb():\n    return fc()\n",
  "core/c.py":
    "from ui.view import render\n\n\ndef fc():\n    return 1\n\n\ndef hook():\n    return render()\n",
  "ui/view.py":
    "from ui.widgets import widget\nfrom core.a import fa\n\n\ndef render():\n    return widget() + fa()\n",
  "ui/widgets.py":
    "from ui.theme import color\nfrom core.b import fb\n\n\ndef widget():\n    return color() + fb()\n",
  "ui/theme.py": "from core.c import fc\n\n\ndef color():\n    return fc()\n",
};

Deno.test("get_layer_violations: an import against the plates' main direction", async () => {
  const w = await indexedWorkspace(LAYERED, "codemunch-layers-");
  try {
    const map = await w.call("get_tectonic_map", {});
    // The module map puts ui/view.py with core (it imports core/a, and core/c imports it).
    deepEqual(
      (map.body.plates as Row[]).map((p) => `${p.name}: ${p.file_count}`),
      ["core (fa): 4", "ui (color): 2"],
    );
    const r = await w.call("get_layer_violations", {});
    equal(r.isError, false, r.text);
    // Between the plates: widgets → core/b and theme → core/c go ui → core (2); view →
    // widgets goes core → ui (1): that one is against the grain.
    deepEqual(r.body.violations, [{
      file: "ui/view.py",
      line: 1,
      file_layer: "core (fa)",
      import_target: "ui/widgets.py",
      target_layer: "ui (color)",
      rule_violated:
        "core (fa) may_not_import ui (color) (inferred: ui (color) imports core (fa) 2×, core (fa) imports ui (color) 1×)",
    }]);
  } finally {
    await w.dispose();
  }
});

Deno.test("get_repo_health: dead code and an unstable module with dependents", async () => {
  const w = await indexedWorkspace({
    "lib/a.py": "from lib.b import fb\nfrom lib.c import fc\nfrom lib.d import fd\n\n\n" +
      "def fa():\n    return fb() + fc() + fd()\n\n\ndef _forgotten():\n    return 0\n",
    "lib/b.py": "def fb():\n    return 1\n",
    "lib/c.py": "def fc():\n    return 2\n",
    "lib/d.py": "def fd():\n    return 3\n",
    "main.py": "from lib.a import fa\n\nprint(fa())\n",
  }, "codemunch-health-");
  try {
    const r = await w.call("get_repo_health", { top_n: 10 });
    equal(r.isError, false, r.text);
    const follow = r.body.follow_up as Row[];
    // _forgotten is private and written nowhere else (1.0); lib/a.py is imported by main.py and
    // imports three modules: I = 3/4. No test: every source function is untested.
    deepEqual(
      follow.filter((f) => f.signal !== "untested").map((f) => `${f.signal} ${f.id} ${f.value}`),
      [
        "dead lib/a.py::_forgotten#function 1",
        "unstable lib/a.py 0.75",
      ],
    );
    deepEqual(
      follow.filter((f) => f.signal === "untested").map((f) => f.id).sort(),
      [
        "lib/a.py::_forgotten#function",
        "lib/a.py::fa#function",
        "lib/b.py::fb#function",
        "lib/c.py::fc#function",
        "lib/d.py::fd#function",
      ],
    );
    deepEqual(
      [r.body.dead_count, r.body.untested_pct, r.body.unstable_modules, r.body.cycle_count],
      [1, 100, 1, 0],
    );
  } finally {
    await w.dispose();
  }
});
