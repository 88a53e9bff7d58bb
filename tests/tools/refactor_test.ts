/**
 * check_rename_safe, plan_refactoring and get_extraction_candidates on a copy of the graph
 * fixture (real grammars, a real SQLite index in a temp dir): the sites of a rename with their
 * columns and how each was found, collisions in each scope, namesakes kept apart, bad new names;
 * plans applied to the copy as an agent applies them and the copy indexed again — no import left
 * unresolved, no reference lost, the old name gone; json and compact decode the same; the same
 * answers over stdio and Streamable HTTP.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { bothTransports } from "../e2e/_transports.ts";
import { indexedWorkspace, tempWorkspace, writeTree } from "../ingest/_helpers.ts";
import { graphFixture, refactorWorkspace } from "./_refactor.ts";

type Row = Record<string, unknown>;

/** `file:line:col role found_by certainty` of the sites to change or check. */
function sites(body: Row): string[] {
  return (body.sites as Row[]).filter((s) => s.certainty !== "mention").map((s) =>
    `${s.file}:${s.line}:${s.col} ${s.role} ${s.found_by} ${s.certainty}`
  );
}

Deno.test("check_rename_safe: sites, collisions and unknowns on the graph fixture", async (t) => {
  const w = await refactorWorkspace();
  try {
    await t.step("a re-exported class: definition, re-export, import, base list", async () => {
      const { body } = await w.call("check_rename_safe", {
        symbol_id: "src/shapes/base.py::Shape#class",
        new_name: "Figure",
      });
      deepEqual(sites(body), [
        "src/shapes/__init__.py:2:19 re_export import certain",
        "src/shapes/base.py:1:7 definition definition certain",
        "src/shapes/circle.py:1:19 import import certain",
        "src/shapes/circle.py:4:14 reference graph certain",
      ]);
      equal(body.safe, true);
      equal(body.verdict, "review");
      equal(body.edit_count, 4);
      ok((body.unknowns as Row[]).some((u) => u.kind === "public_api"));
      ok((body.sites as Row[]).some((s) => s.role === "docs" && s.file === "README.md"));
    });

    await t.step("namesakes stay apart: store.New, not cart.New", async () => {
      const { body } = await w.call("check_rename_safe", {
        symbol_id: "go/store/store.go::New#function",
        new_name: "Make",
      });
      deepEqual(sites(body), [
        "go/cmd/shop/main.go:11:13 reference graph certain",
        "go/store/store.go:22:6 definition definition certain",
        "go/store/store_test.go:6:7 reference graph certain",
      ]);
    });

    await t.step("a method: its class and its hierarchy are the scopes", async () => {
      const { body } = await w.call("check_rename_safe", {
        symbol_id: "src/shapes/base.py::Shape.describe#method",
        new_name: "area",
      });
      equal(body.safe, false);
      equal(body.verdict, "unsafe");
      deepEqual((body.collisions as Row[]).map((c) => `${c.scope} ${c.existing}`), [
        "same_scope src/shapes/base.py::Shape.area#method",
        "class_hierarchy src/shapes/circle.py::Circle.area#method",
      ]);
      deepEqual(sites(body), [
        "src/shapes/base.py:7:9 definition definition certain",
        "src/shapes/circle.py:13:21 reference graph certain",
      ]);
    });

    await t.step("an importer's scope: the new name is imported there already", async () => {
      const { body } = await w.call("check_rename_safe", {
        symbol_id: "ts/src/models/animal.ts::Animal#class",
        new_name: "Named",
      });
      ok(
        (body.collisions as Row[]).some((c) =>
          c.scope === "same_scope" && c.existing === "ts/src/models/animal.ts::Named#type"
        ),
        JSON.stringify(body.collisions),
      );
      ok(
        (body.collisions as Row[]).some((c) =>
          c.scope === "importer_scope" && c.file === "ts/src/models/dog.ts"
        ),
      );
    });

    await t.step("bad new names are invalid_argument", async () => {
      for (const new_name of ["class", "Shape", "2d", "a-b"]) {
        const r = await w.call("check_rename_safe", {
          symbol_id: "src/shapes/base.py::Shape#class",
          new_name,
        });
        equal(r.isError, true, new_name);
        equal((r.body as Row).code, "invalid_argument");
      }
    });

    await t.step("compact decodes to the json answer; max_results caps with a hint", async () => {
      const args = { symbol_id: "src/shapes/base.py::Shape#class", new_name: "Figure" };
      const { _meta: _a, ...json } = (await w.call("check_rename_safe", args)).body;
      const r = await w.runner.call("check_rename_safe", {
        repo: w.repo,
        ...args,
        format: "compact",
      });
      const { _meta: _b, ...compact } = decode(r.text) as Row;
      deepEqual(compact, json);
      const cut = (await w.call("check_rename_safe", { ...args, max_results: 2 })).body;
      equal((cut.sites as Row[]).length, 2);
      equal((cut._meta as Row).truncated, true);
      match(String((cut._meta as Row).hint), /max_results/);
    });
  } finally {
    await w.dispose();
  }
});

Deno.test("plan_refactoring rename: applied and re-indexed, nothing left unresolved", async (t) => {
  for (
    const [symbol, oldName, newName] of <[string, string, string][]> [
      ["src/shapes/base.py::Shape#class", "Shape", "Figure"],
      ["ts/src/fmt.ts::print#function", "print", "show"],
      ["go/store/store.go::New#function", "New", "Make"],
      ["ts/src/models/animal.ts::Animal.speak#method", "speak", "talk"],
    ]
  ) {
    await t.step(`${symbol} → ${newName}`, async () => {
      const w = await refactorWorkspace();
      try {
        const before = w.unresolved();
        const refsBefore = (await w.call("find_references", { identifier: symbol })).body;
        const { body } = await w.call("plan_refactoring", {
          symbol,
          refactor_type: "rename",
          new_name: newName,
        });
        equal(body.safe, true, JSON.stringify(body.collisions));
        for (const e of body.edits as Row[]) equal(e.old, oldName);
        const compact = decode(
          (await w.runner.call("plan_refactoring", {
            repo: w.repo,
            symbol,
            refactor_type: "rename",
            new_name: newName,
            format: "compact",
          })).text,
        ) as Row;
        deepEqual(compact.edits, body.edits);
        await w.apply(body);
        deepEqual([...w.unresolved()].sort(), [...before].sort());
        const renamed = symbol.replace(new RegExp(`\\b${oldName}(?=#|$)`), newName);
        const refsAfter = (await w.call("find_references", { identifier: renamed })).body;
        equal(
          (refsAfter.references as Row[]).length,
          (refsBefore.references as Row[]).length,
          JSON.stringify(refsAfter),
        );
        // The old name is gone from every code site the plan knew.
        const again = (await w.call("check_rename_safe", { symbol_id: renamed, new_name: oldName }))
          .body;
        equal(again.edit_count, body.edit_count);
      } finally {
        await w.dispose();
      }
    });
  }
});

Deno.test("plan_refactoring move: the new file, every importer's import", async (t) => {
  await t.step("Python: a re-exported class to a new module", async () => {
    const w = await refactorWorkspace();
    try {
      const before = w.unresolved();
      const { body } = await w.call("plan_refactoring", {
        symbol: "src/shapes/base.py::Shape#class",
        refactor_type: "move",
        new_file: "src/shapes/figure.py",
      });
      equal(body.new_file_exists, false);
      deepEqual(
        (body.edits as Row[]).map((e) => `${e.file}:${e.line} ${e.kind} ${e.new}`.trim()).slice(2),
        [
          "src/shapes/__init__.py:2 replace .figure",
          "src/shapes/circle.py:1 replace .figure",
        ],
      );
      const changed = await w.apply(body);
      match(changed.get("src/shapes/figure.py")!, /^class Shape:/);
      deepEqual([...w.unresolved()].sort(), [...before].sort());
      const importers =
        (await w.call("find_importers", { file_path: "src/shapes/figure.py" })).body;
      deepEqual((importers.importers as Row[]).map((i) => i.file).sort(), [
        "src/shapes/__init__.py",
        "src/shapes/circle.py",
      ]);
      const bases = (await w.call("get_class_hierarchy", { class_name: "Circle" })).body;
      ok(
        JSON.stringify(bases).includes("src/shapes/figure.py::Shape#class"),
        JSON.stringify(bases),
      );
    } finally {
      await w.dispose();
    }
  });

  await t.step("TypeScript: out of an import of several names, into another folder", async () => {
    const w = await refactorWorkspace();
    try {
      const before = w.unresolved();
      const { body } = await w.call("plan_refactoring", {
        symbol: "ts/src/models/animal.ts::Animal#class",
        refactor_type: "move",
        new_file: "ts/src/base/beast.ts",
      });
      const changed = await w.apply(body);
      equal(
        changed.get("ts/src/models/index.ts"),
        'export { Animal } from "../base/beast";\nexport { Dog } from "./dog";\n',
      );
      match(changed.get("ts/src/models/dog.ts")!, /import \{ Animal \} from "\.\.\/base\/beast";/);
      deepEqual([...w.unresolved()].sort(), [...before].sort());
      const refs =
        (await w.call("find_references", { identifier: "ts/src/base/beast.ts::Animal#class" }))
          .body;
      ok(
        (refs.references as Row[]).some((r) =>
          r.kind === "inherits" && r.file === "ts/src/models/dog.ts"
        ),
      );
    } finally {
      await w.dispose();
    }
  });

  await t.step(
    "Python: a function using its old file's names; Go: within its package",
    async () => {
      const w = await refactorWorkspace();
      try {
        const before = w.unresolved();
        const refs = async (id: string) =>
          ((await w.call("find_references", { identifier: id })).body.references as Row[]).length;
        const helperRefs = await refs("src/app.py::helper#function");
        const newRefs = await refs("go/store/store.go::New#function");
        const py = (await w.call("plan_refactoring", {
          symbol: "src/app.py::main#function",
          refactor_type: "move",
          new_file: "src/cli.py",
        })).body;
        deepEqual((py.manual as Row[]).map((m) => m.text), [
          "import requests",
          "import util",
          "from shapes import Circle",
        ]);
        const changed = await w.apply(py);
        match(
          changed.get("src/cli.py")!,
          /^import requests\nimport util\nfrom shapes import Circle\nfrom app import helper\n/,
        );
        const go = (await w.call("plan_refactoring", {
          symbol: "go/store/store.go::New#function",
          refactor_type: "move",
          new_file: "go/store/new.go",
        })).body;
        const goChanged = await w.apply(go);
        match(
          goChanged.get("go/store/new.go")!,
          /^package store\n\n\/\/ New makes an empty store\.\nfunc New\(\)/,
        );
        deepEqual([...w.unresolved()].sort(), [...before].sort());
        // Its call, now from src/cli.py, and the import the move added there.
        equal(await refs("src/app.py::helper#function"), helperRefs + 1);
        equal(await refs("go/store/new.go::New#function"), newRefs);
      } finally {
        await w.dispose();
      }
    },
  );

  await t.step("errors: a member, another language's file, a Go package boundary", async () => {
    const w = await refactorWorkspace();
    try {
      for (
        const [symbol, new_file] of [
          ["src/shapes/base.py::Shape.area#method", "src/x.py"],
          ["src/util.py::describe#function", "src/x.ts"],
          ["go/store/store.go::New#function", "go/cart/new.go"],
        ]
      ) {
        const r = await w.call("plan_refactoring", { symbol, refactor_type: "move", new_file });
        equal(r.isError, true, symbol);
        equal((r.body as Row).code, "invalid_argument");
      }
      const r = await w.call("plan_refactoring", {
        symbol: "src/util.py::describe#function",
        refactor_type: "extract",
      });
      equal((r.body as Row).code, "invalid_argument");
      const missing = await w.call("plan_refactoring", {
        symbol: "src/util.py::describe#function",
        refactor_type: "rename",
      });
      match(String((missing.body as Row).error), /new_name/);
    } finally {
      await w.dispose();
    }
  });
});

Deno.test("get_extraction_candidates: complex and shared or nested, with reasons", async () => {
  const branchy = (name: string, depth: number) => {
    const lines = [`def ${name}(x, y):`];
    for (let d = 0; d < depth; d++) lines.push(`${"    ".repeat(d + 1)}if x > ${d}:`);
    lines.push(`${"    ".repeat(depth + 1)}return 1`);
    lines.push("    return 0");
    return lines.join("\n") + "\n\n\n";
  };
  const flat = (name: string, n: number) =>
    [
      `def ${name}(x, y):`,
      ...Array.from({ length: n }, (_, d) => `    if x > ${d}:\n        y += 1`),
    ]
      .join("\n") + "\n    return y\n\n\n";
  const w = await indexedWorkspace({
    "lib/core.py": branchy("deep", 5) +
      flat("shared", 5) +
      branchy("simple", 1),
    "a.py":
      "from lib.core import shared, simple\n\n\ndef a():\n    return shared(1, 2) + simple(1, 2)\n",
    "b.py": "from lib.core import shared\n\n\ndef b():\n    return shared(3, 4)\n",
  }, "codemunch-extract-");
  try {
    const { body } = await w.call("get_extraction_candidates", {});
    const rows = (body.candidates as Row[]).map((c) => `${c.name} ${c.reasons}`);
    deepEqual(rows.sort(), [
      "deep complex (cyclomatic 6), nested (depth 5)",
      "shared complex (cyclomatic 6), shared (called from 2 files)",
    ]);
    const one =
      (await w.call("get_extraction_candidates", { file_path: "lib/core.py", min_callers: 5 }))
        .body;
    deepEqual((one.candidates as Row[]).map((c) => c.name), ["deep"]);
    const compact = decode(
      (await w.runner.call("get_extraction_candidates", { repo: w.repo, format: "compact" })).text,
    ) as Row;
    deepEqual(compact.candidates, body.candidates);
    const missing = await w.call("get_extraction_candidates", { file_path: "nope.py" });
    equal((missing.body as Row).code, "file_not_found");
  } finally {
    await w.dispose();
  }
});

Deno.test("refactoring tools over stdio and Streamable HTTP: the same answers", async () => {
  const ws = tempWorkspace("codemunch-refactor-wire-");
  // A docstring line naming the class without quotes: a string only a parser can tell.
  const notes = '"""Notes.\n\nShape is the base of every figure.\n"""\n';
  writeTree(ws.root, { ...graphFixture(), "src/notes.py": notes });
  const root = Deno.realPathSync(ws.root);
  const wire = await bothTransports(ws, "codemunch-refactor-test");
  try {
    const answers: Row[][] = [];
    for (const [, callTool] of wire.transports) {
      const indexed = await callTool("index_folder", { path: root, format: "json" });
      equal(indexed.isError, false, indexed.text);
      const repo = indexed.body.repo;
      for (const format of ["json", "compact"]) {
        const calls: [string, Row][] = [
          ["check_rename_safe", {
            symbol_id: "src/shapes/base.py::Shape#class",
            new_name: "Figure",
          }],
          ["plan_refactoring", {
            symbol: "src/shapes/base.py::Shape#class",
            refactor_type: "move",
            new_file: "src/shapes/figure.py",
          }],
          ["get_extraction_candidates", { min_complexity: 1, min_callers: 1 }],
        ];
        const got: Row[] = [];
        for (const [name, args] of calls) {
          const r = await callTool(name, { repo, format, ...args });
          equal(r.isError, false, r.text);
          const { _meta: _m, repo: _r, ...rest } = r.body;
          got.push(rest);
        }
        answers.push(got);
      }
    }
    for (const a of answers) deepEqual(a, answers[0]);
    equal(answers[0]![0]!.edit_count, 4);
    const note = (answers[0]![0]!.sites as Row[]).find((s) => s.file === "src/notes.py");
    equal(`${note?.role} ${note?.certainty}`, "string mention");
  } finally {
    await wire.close();
    ws.dispose();
  }
});

Deno.test("check_rename_safe: a module path of the same name is not a site", async () => {
  const w = await indexedWorkspace({
    "pkg/__init__.py": "",
    "pkg/user_agent.py": "class UserAgent:\n    pass\n",
    "pkg/request.py": [
      "from .user_agent import UserAgent",
      "",
      "",
      "class Request:",
      "    def user_agent(self):",
      "        return UserAgent()",
      "",
      "    def show(self):",
      '        return f"{self.user_agent()}"',
      "",
    ].join("\n"),
  }, "codemunch-rename-module-");
  try {
    const { body } = await w.call("check_rename_safe", {
      symbol_id: "pkg/request.py::Request.user_agent#method",
      new_name: "agent",
    });
    deepEqual(sites(body), [
      "pkg/request.py:5:9 definition definition certain",
      "pkg/request.py:9:24 reference graph certain",
    ]);
  } finally {
    await w.dispose();
  }
});
