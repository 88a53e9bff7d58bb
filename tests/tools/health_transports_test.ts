/**
 * Every code-health and refactoring-safety tool of issue 30 over both transports, in both wire
 * forms: a spawned server over stdio and the in-process Streamable HTTP server, each indexing the
 * same copy of fixtures/graph (in a git repository, so co-change and churn are read), each tool
 * called in `json` and `compact`. The compact text decodes to the json answer, and stdio and HTTP
 * give the same answer. Each tool is also documented: a section in docs/api.md and a row of the
 * README's tools table.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { TOOLS } from "../../src/tools/mod.ts";
import { CHECKOUT, normalised } from "../e2e/_server.ts";
import { bothTransports } from "../e2e/_transports.ts";
import { commit, git } from "../history/_repo.ts";
import { tempWorkspace, writeTree } from "../ingest/_helpers.ts";
import { graphFixture } from "./_refactor.ts";

type Row = Record<string, unknown>;

const SHAPE = "src/shapes/base.py::Shape#class";

/** The tools of issue 30, each with a call that finds something on fixtures/graph. */
const HEALTH_CALLS: [string, Row][] = [
  ["check_references", { identifier: "Shape" }],
  ["find_dead_code", { min_confidence: 0 }],
  ["get_dead_code_v2", {}],
  ["get_untested_symbols", { min_confidence: 0 }],
  ["check_rename_safe", { symbol_id: SHAPE, new_name: "Figure" }],
  ["plan_refactoring", { symbol: SHAPE, refactor_type: "rename", new_name: "Figure" }],
  ["get_coupling_metrics", {}],
  ["get_layer_violations", {}],
  ["get_symbol_importance", {}],
  ["get_extraction_candidates", { min_complexity: 1, min_callers: 1 }],
  ["get_related_symbols", { symbol_id: SHAPE, days: 36500 }],
  ["get_repo_health", { days: 36500 }],
  ["winnow_symbols", {
    criteria: [{ axis: "kind", op: "in", value: ["class", "function", "method"] }],
    rank_by: "name",
    order: "asc",
    days: 36500,
  }],
];

/** An answer without what differs from call to call (timings, savings totals). */
function _stable(body: Row): Row {
  const copy = normalised(body);
  delete copy._meta;
  return copy;
}

Deno.test("health tools: registered, documented in docs/api.md and the README", () => {
  const api = Deno.readTextFileSync(join(CHECKOUT, "docs", "api.md"));
  const readme = Deno.readTextFileSync(join(CHECKOUT, "README.md"));
  const registered = new Set(TOOLS.map((t) => t.name));
  for (const [name] of HEALTH_CALLS) {
    ok(registered.has(name), `${name} is in src/tools/mod.ts`);
    ok(api.includes(`\n## \`${name}\`\n`), `${name} has a section in docs/api.md`);
    ok(new RegExp(`^\\|[^\\n]*\`${name}\``, "m").test(readme), `${name} is in the README`);
  }
});

Deno.test("health tools over stdio and Streamable HTTP, json and compact: one answer", async () => {
  const ws = tempWorkspace("codemunch-health-wire-");
  writeTree(ws.root, graphFixture());
  git(ws.root, ["init", "-q"]);
  commit(ws.root, "the graph fixture", 1_700_000_000);
  writeTree(ws.root, { "src/shapes/base.py": graphFixture()["src/shapes/base.py"] + "\n" });
  commit(ws.root, "touch the base", 1_700_000_100);
  const root = Deno.realPathSync(ws.root);
  const wire = await bothTransports(ws, "codemunch-health-wire-test");
  try {
    const answers = new Map<string, Row>();
    for (const [transport, callOn] of wire.transports) {
      const callTool = async (name: string, args: Row) => {
        const r = await callOn(name, args);
        equal(r.isError, false, `${transport} ${name} ${args.format}: ${r.text}`);
        if (args.format === "compact") ok(r.text.startsWith(`#MUNCH/1 tool=${name} `), r.text);
        return r.body;
      };
      const indexed = await callTool("index_folder", { path: root, format: "json" });
      const repo = indexed.repo;
      for (const [name, args] of HEALTH_CALLS) {
        const json = await callTool(name, { repo, format: "json", ...args });
        const compact = await callTool(name, { repo, format: "compact", ...args });
        deepStrictEqual(_stable(compact), _stable(json), `${transport} ${name}: compact`);
        answers.set(`${transport} ${name}`, _stable(json));
      }
    }
    for (const [name] of HEALTH_CALLS) {
      deepStrictEqual(answers.get(`http ${name}`), answers.get(`stdio ${name}`), name);
    }
    // The calls found something (an empty answer would agree with anything).
    const found = (name: string, key: string) => (answers.get(`stdio ${name}`)![key] as unknown[]);
    ok(found("find_dead_code", "dead_symbols").length > 0);
    ok(found("plan_refactoring", "edits").length > 0);
    ok(found("winnow_symbols", "results").length > 0);
    equal(answers.get("stdio get_related_symbols")!.git_available, true);
    ok(found("get_related_symbols", "related").length > 0);
  } finally {
    await wire.close();
    ws.dispose();
  }
});
