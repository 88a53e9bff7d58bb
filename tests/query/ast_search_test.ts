/**
 * search_ast over fixtures/ast (Python, TypeScript, Go, Java): every preset and DSL form, exact
 * matches with their enclosing symbols, the time budget, and bad patterns.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { writeTree } from "../ingest/_helpers.ts";
import { indexedFixture } from "./_fixture.ts";
import { scanAst } from "../../src/query/ast_search.ts";
import { resolvePatterns } from "../../src/query/ast_patterns.ts";
import { RepoViews } from "../../src/query/view.ts";

/** A 120-line function with 17 decisions (god_function by both measures). */
function _godFunction(): string {
  const body = Array.from({ length: 17 }, (_, i) => `    if x.a${i}:\n        z = x`);
  const filler = Array.from({ length: 84 }, (_, i) => `    y${i} = x`);
  return `def big(x):\n${body.join("\n")}\n${filler.join("\n")}\n    return x\n`;
}

/** `file:line pattern enclosing` for each match. */
function _brief(body: Record<string, unknown>): string[] {
  return (body.matches as Record<string, unknown>[]).map((m) =>
    `${m.file}:${m.line} ${m.pattern} ${m.enclosing_symbol}`
  );
}

Deno.test("search_ast: presets and custom patterns over four languages", async (t) => {
  const { ws, runner, repo, close } = await indexedFixture("ast", { "big.py": _godFunction() });
  try {
    const call = async (args: Record<string, unknown>) => {
      const r = await runner.call("search_ast", { repo, format: "json", ...args });
      equal(r.isError, false, r.text);
      return JSON.parse(r.text) as Record<string, unknown>;
    };
    const cases: [Record<string, unknown>, string[]][] = [
      [{ pattern: "empty_catch" }, [
        "Handler.java:7 empty_catch Handler.java::Handler.handle#method",
        "client.ts:5 empty_catch client.ts::parse#function",
        "service.py:10 empty_catch service.py::load#function",
      ]],
      [{ pattern: "bare_except" }, ["service.py:10 bare_except service.py::load#function"]],
      [{ pattern: "deeply_nested" }, ["client.ts:14 deeply_nested client.ts::deep#function"]],
      [{ pattern: "nested_loops" }, [
        "service.py:28 nested_loops service.py::grid#function",
        "worker.go:9 nested_loops worker.go::Run#function",
      ]],
      [{ pattern: "god_function" }, ["big.py:1 god_function big.py::big#function"]],
      [{ pattern: "eval_exec" }, [
        "client.ts:27 eval_exec client.ts::dynamic#function",
        "service.py:16 eval_exec service.py::run#function",
        "service.py:17 eval_exec service.py::run#function",
      ]],
      [{ pattern: "hardcoded_secret" }, [
        "Handler.java:2 hardcoded_secret Handler.java::Handler.password#field",
        "service.py:4 hardcoded_secret service.py::API_TOKEN#constant",
      ]],
      [{ pattern: "todo_fixme" }, [
        "client.ts:26 todo_fixme client.ts::dynamic#function",
        "service.py:15 todo_fixme service.py::run#function",
      ]],
      [{ pattern: "magic_number", file_pattern: "*.go" }, [
        "worker.go:10 magic_number worker.go::Run#function",
      ]],
      [{ pattern: "reassigned_param" }, [
        "service.py:21 reassigned_param service.py::scale#function",
      ]],
      [{ pattern: "call:*.system" }, ["service.py:16 call:*.system service.py::run#function"]],
      [{ pattern: "call:fmt.Println" }, ["worker.go:10 call:fmt.Println worker.go::Run#function"]],
      [{ pattern: "string:/^hunter\\d/" }, [
        "Handler.java:2 string:/^hunter\\d/ Handler.java::Handler.password#field",
      ]],
      [{ pattern: "comment:todo" }, ["service.py:15 comment:todo service.py::run#function"]],
      [{ pattern: "lines:10+", file_pattern: "*.ts" }, [
        "client.ts:9 lines:10+ client.ts::deep#function",
      ]],
      [{ pattern: "loops:2+", language: "go" }, ["worker.go:8 loops:2+ worker.go::Run#function"]],
      [{ pattern: "nesting:3+", file_pattern: "client.ts" }, [
        "client.ts:12 nesting:3+ client.ts::deep#function",
      ]],
    ];
    for (const [args, expected] of cases) {
      await t.step(JSON.stringify(args), async () => {
        deepEqual(_brief(await call(args)), expected);
      });
    }
    await t.step("a whole match row, with the detector's extras", async () => {
      const body = await call({ pattern: "nested_loops", language: "go" });
      deepEqual(body, {
        repo,
        total_matches: 1,
        severity_counts: { warning: 1 },
        matches: [{
          file: "worker.go",
          line: 9,
          end_line: 11,
          column: 4,
          severity: "warning",
          pattern: "nested_loops",
          snippet: "for k := 0; k < n; k++ {",
          language: "go",
          enclosing_symbol: "worker.go::Run#function",
          symbol_kind: "function",
          function_name: "Run",
          nesting_depth: 3,
        }],
        truncated: false,
        pattern: "nested_loops",
        description: "Loops nested 3 or more deep",
        _meta: body._meta,
      });
    });
    await t.step("a category runs its presets, most severe first; max_results cuts", async () => {
      const body = await call({ category: "all", max_results: 3 });
      equal(body.total_matches, 21);
      equal(body.truncated, true);
      deepEqual((body.matches as { severity: string }[]).map((m) => m.severity), [
        "error",
        "error",
        "error",
      ]);
      deepEqual(body.severity_counts, { error: 8, warning: 5, info: 8 });
      equal((body.patterns_run as string[]).length, 10);
      ok(String((body._meta as Record<string, unknown>).hint).includes("max_results"));
    });
    await t.step("compact output decodes to the same object", async () => {
      const json = await call({ category: "error_handling" });
      const r = await runner.call("search_ast", {
        repo,
        format: "compact",
        category: "error_handling",
      });
      ok(r.text.startsWith("#MUNCH/1 tool=search_ast"), r.text);
      const compact = decode(r.text) as Record<string, unknown>;
      delete compact._meta;
      delete json._meta;
      deepEqual(compact, json);
    });
    await t.step("bad patterns are invalid_argument with what is accepted", async () => {
      const bad: [Record<string, unknown>, RegExp][] = [
        [{}, /Provide "pattern"/],
        [{ pattern: "empty_cach" }, /did you mean empty_catch\?/],
        [{ category: "style" }, /Unknown category "style"/],
        [{ pattern: "string:/(/" }, /invalid regular expression/],
        [{ pattern: "loops:many" }, /positive count like loops:4\+/],
        [{ pattern: "call:" }, /dotted name glob/],
        [{ pattern: "todo_fixme", language: "klingon" }, /Unknown language "klingon"/],
      ];
      for (const [args, message] of bad) {
        const r = await runner.call("search_ast", { repo, ...args });
        equal(r.isError, true, JSON.stringify(args));
        const error = JSON.parse(r.text) as { error: string; code: string };
        ok(message.test(error.error), error.error);
        equal(error.code, "invalid_argument");
      }
    });
    await t.step("a catastrophic regex ends at the budget; the thread keeps running", async () => {
      const runaway = `x = "${"a".repeat(1500)}!"\n`;
      writeTree(ws.root, { "slow.py": `def f():\n    ${runaway}` });
      await runner.call("index_folder", { path: ws.root, format: "json" });
      const views = new RepoViews(ws.store);
      const view = views.open(repo);
      let ticks = 0;
      const timer = setInterval(() => ticks++, 20);
      const started = performance.now();
      const scan = await scanAst(view, resolvePatterns("string:/(a|a)+$/"), { budgetMs: 600 });
      clearInterval(timer);
      const elapsed = performance.now() - started;
      equal(scan.timedOut, true);
      ok(elapsed < 3000, `took ${elapsed} ms`);
      ok(ticks >= 10, `the event loop ran ${ticks} timer ticks during the scan`);
    });
  } finally {
    await close();
  }
});

Deno.test("search_ast: every preset runs on every language's fixture without a skipped file", async () => {
  const { runner, repo, close } = await indexedFixture("languages");
  try {
    const r = await runner.call("search_ast", { repo, category: "all", format: "json" });
    equal(r.isError, false, r.text);
    const body = JSON.parse(r.text) as { _meta: Record<string, unknown>; total_matches: number };
    equal(body._meta.files_skipped, undefined, JSON.stringify(body._meta));
    equal(body._meta.timed_out, undefined);
    ok((body._meta.files_scanned as number) >= 20, JSON.stringify(body._meta));
    ok(
      String(body._meta.languages_scanned).split(",").length >= 20,
      String(body._meta.languages_scanned),
    );
    ok(body.total_matches > 0);
  } finally {
    await close();
  }
});
