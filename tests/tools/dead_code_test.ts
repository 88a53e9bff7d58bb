/**
 * find_dead_code and get_dead_code_v2 on a real project (Python, Go, JavaScript) indexed in a
 * temporary workspace: each confidence tier, the language conventions that keep code alive,
 * test files, declared entry points, dead files, freshness after an edit, json and compact
 * forms, and the same answer over stdio and Streamable HTTP.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { bothTransports } from "../e2e/_transports.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";
import { DEAD_PROJECT } from "./_dead_project.ts";

type Row = Record<string, unknown>;

/** `name reason confidence` of each row, sorted. */
function summary(rows: unknown): string[] {
  return (rows as Row[]).map((r) => `${r.name} ${r.reason} ${r.confidence}`).sort();
}

/** The findings at the default threshold (0.8): unreferenced, and exported inside the repo only. */
const DEFAULT_FINDINGS = [
  "Helper unreferenced_export 0.9",
  "_dead_caller unreferenced 1",
  "_lonely unreferenced 1",
  "_never_called unreferenced 1",
  "internal_helper unreferenced_export 0.9",
  "localDead unreferenced 1",
  "notInEntry unreferenced_export 0.9",
  "unexported unreferenced 1",
];

Deno.test("find_dead_code and get_dead_code_v2 on a real project", async (t) => {
  const ws = tempWorkspace("codemunch-dead-");
  writeTree(ws.root, DEAD_PROJECT);
  const runner = workspaceRunner(ws);
  try {
    const indexed = await runner.call("index_folder", { path: ws.root, format: "json" });
    equal(indexed.isError, false, indexed.text);
    const repo = JSON.parse(indexed.text).repo as string;
    const run = async (tool: string, args: Row = {}, format = "json") => {
      const r = await runner.call(tool, { repo, format, ...args });
      equal(r.isError, false, r.text);
      return decode(r.text) as Row;
    };

    await t.step("default: unreferenced and repo-internal definitions, with evidence", async () => {
      const body = await run("find_dead_code");
      deepEqual(summary(body.dead_symbols), DEFAULT_FINDINGS);
      equal(body.dead_symbol_count, DEFAULT_FINDINGS.length);
      equal(body.min_confidence, 0.8);
      const never = (body.dead_symbols as Row[]).find((r) => r.name === "_never_called")!;
      deepEqual(never, {
        symbol_id: "shop/cart.py::_never_called#function",
        name: "_never_called",
        kind: "function",
        file: "shop/cart.py",
        line: 16,
        confidence: 1,
        reason: "unreferenced",
        exported: "none",
        mentions: 0,
        evidence: "no_mentions,no_callers,not_exported,not_a_convention_root,no_reflection",
      });
      const lonely = (body.dead_symbols as Row[]).find((r) => r.name === "_lonely")!;
      match(String(lonely.evidence), /file_not_imported/);
      deepEqual(body.unweighed_languages, []);
    });

    await t.step(
      "conventions keep code alive: hooks, decorators, reflection, programs",
      async () => {
        const names = (await run("find_dead_code", { min_confidence: 0 })).dead_symbols as Row[];
        const listed = new Set(names.map((r) => r.name));
        // __len__ and String (runtime hooks), index_page (@route), visit_leaf (getattr "visit_" +),
        // main and Run (a program's), add and _price (called), Cart (imported).
        for (
          const live of ["__len__", "String", "index_page", "visit_leaf", "main", "Run", "add"]
        ) {
          ok(!listed.has(live), `${live} is live`);
        }
        for (const live of ["_price", "Cart", "Visitor", "visit", "test_add"]) {
          ok(!listed.has(live), `${live} is live`);
        }
      },
    );

    await t.step("lower tiers: used only by dead code, unused public API", async () => {
      const body = await run("find_dead_code", { min_confidence: 0.5 });
      deepEqual(
        summary(body.dead_symbols),
        [
          ...DEFAULT_FINDINGS,
          "Exported unreferenced_public 0.5",
          "_helper_of_dead used_only_by_dead_code 0.7",
          "api unreferenced_public 0.5",
          "public_but_unused unreferenced_public 0.5",
        ].sort(),
      );
      const rows = body.dead_symbols as Row[];
      deepEqual(
        rows.map((r) => r.confidence),
        [...rows.map((r) => r.confidence as number)].sort((a, b) => b - a),
      );
      const helper = rows.find((r) => r.name === "_helper_of_dead")!;
      equal(helper.mentions, 1);
      match(String(helper.evidence), /^callers_dead,not_exported/);
    });

    await t.step(
      "dead files: nothing imports them and all their definitions are dead",
      async () => {
        const body = await run("find_dead_code", { granularity: "file" });
        deepEqual(body.dead_symbols, []);
        deepEqual(
          (body.dead_files as Row[]).map((f) => `${f.file} ${f.reason} ${f.confidence}`),
          [
            "internal/x/x.go all_dead 1",
            "lib/other.mjs no_importer_all_dead 1",
            "shop/_private.py no_importer_all_dead 1",
            "shop/orphan.py no_importer_all_dead 1",
          ],
        );
      },
    );

    await t.step("include_tests weighs test files; test functions stay live", async () => {
      const body = await run("find_dead_code", { include_tests: true });
      deepEqual(
        summary(body.dead_symbols),
        [...DEFAULT_FINDINGS, "_unused_test_helper unreferenced 1"].sort(),
      );
    });

    await t.step(
      "entry_point_patterns declare roots; a pattern matching nothing warns",
      async () => {
        const r = await runner.call("find_dead_code", {
          repo,
          format: "json",
          entry_point_patterns: ["shop/orphan.py", "nothing/*.rb"],
        });
        const body = JSON.parse(r.text) as Row;
        ok(!summary(body.dead_symbols).includes("_lonely unreferenced 1"));
        ok(!(body.dead_files as Row[]).some((f) => f.file === "shop/orphan.py"));
        match(
          String((body._meta as Row).warnings),
          /1 entry_point_patterns matched no indexed file.*nothing\/\*\.rb/,
        );
      },
    );

    await t.step("max_results caps each list and says so", async () => {
      const body = await run("find_dead_code", { max_results: 2 });
      equal((body.dead_symbols as Row[]).length, 2);
      equal(body.dead_symbol_count, DEFAULT_FINDINGS.length);
      equal((body._meta as Row).truncated, true);
      match(String((body._meta as Row).hint), /raise max_results/);
    });

    await t.step("compact decodes to the json answer", async () => {
      const json = await run("find_dead_code", { min_confidence: 0 });
      const compact = await runner.call("find_dead_code", {
        repo,
        format: "compact",
        min_confidence: 0,
      });
      ok(compact.text.startsWith("#MUNCH/1 tool=find_dead_code "), compact.text.slice(0, 60));
      const { _meta: _a, ...a } = json;
      const { _meta: _b, ...b } = decode(compact.text) as Row;
      deepEqual(b, a);
    });

    await t.step("get_dead_code_v2: functions and methods with their signals", async () => {
      const body = await run("get_dead_code_v2");
      const rows = body.dead_symbols as Row[];
      ok(rows.every((r) => r.kind === "function" || r.kind === "method"));
      ok(!rows.some((r) => r.name === "Name"), "a type is not a function");
      deepEqual(
        rows.map((r) => `${r.name} ${r.confidence}`).sort(),
        [
          "Exported 0.5",
          "Helper 0.9",
          "_dead_caller 1",
          "_helper_of_dead 0.7",
          "_lonely 1",
          "_never_called 1",
          "api 0.5",
          "internal_helper 0.9",
          "localDead 1",
          "notInEntry 0.9",
          "public_but_unused 0.5",
          "unexported 1",
        ],
      );
      equal(body.total_matches, rows.length);
      ok((body.total_analysed as number) >= rows.length);
      const only = await run("get_dead_code_v2", { file_pattern: "shop/*", min_confidence: 0.8 });
      deepEqual((only.dead_symbols as Row[]).map((r) => r.name).sort(), [
        "_dead_caller",
        "_lonely",
        "_never_called",
        "internal_helper",
      ]);
      equal(
        (only.dead_symbols as Row[]).find((r) => r.name === "_lonely")!.signals,
        "no_mentions,no_callers,not_exported,file_not_imported,not_a_convention_root,no_reflection",
      );
    });

    await t.step("fresh: after an edit that calls it, a dead function is live", async () => {
      Deno.writeTextFileSync(
        `${ws.root}/shop/cart.py`,
        DEAD_PROJECT["shop/cart.py"]! + "\n\nCALLED = _never_called()\n",
      );
      const re = await runner.call("index_folder", { path: ws.root, format: "json" });
      equal(re.isError, false, re.text);
      const body = await run("find_dead_code");
      ok(
        !summary(body.dead_symbols).includes("_never_called unreferenced 1"),
        JSON.stringify(body),
      );
      equal(body.dead_symbol_count, DEFAULT_FINDINGS.length - 1);
    });
  } finally {
    await runner.close();
    ws.dispose();
  }
});

Deno.test("find_dead_code over stdio and Streamable HTTP: the same findings", async () => {
  const ws = tempWorkspace("codemunch-dead-wire-");
  writeTree(ws.root, DEAD_PROJECT);
  const root = Deno.realPathSync(ws.root);
  const wire = await bothTransports(ws, "codemunch-dead-test");
  try {
    const answers: string[][] = [];
    for (const [, callTool] of wire.transports) {
      const indexed = await callTool("index_folder", { path: root, format: "json" });
      equal(indexed.isError, false, indexed.text);
      const repo = indexed.body.repo;
      for (const format of ["json", "compact"]) {
        const r = await callTool("find_dead_code", { repo, format });
        equal(r.isError, false, r.text);
        answers.push(summary(r.body.dead_symbols));
      }
    }
    for (const a of answers) deepEqual(a, DEFAULT_FINDINGS);
  } finally {
    await wire.close();
    ws.dispose();
  }
});
