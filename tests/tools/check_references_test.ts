/**
 * check_references on a real project indexed in a temporary workspace: graph references and text
 * mentions in code, strings, config and docs, each labelled with how it was found; a definition
 * is not its own use; batch form; json and compact; a query after an edit sees the edit.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";
import { DEAD_PROJECT } from "./_dead_project.ts";

type Row = Record<string, unknown>;

/** `file:line found_by kind` of each use. */
function sites(body: Row): string[] {
  return (body.uses as Row[]).map((u) => `${u.file}:${u.line} ${u.found_by} ${u.kind}`);
}

Deno.test("check_references: graph references and labelled text mentions", async (t) => {
  const ws = tempWorkspace("codemunch-checkrefs-");
  writeTree(ws.root, DEAD_PROJECT);
  const runner = workspaceRunner(ws);
  try {
    const indexed = await runner.call("index_folder", { path: ws.root, format: "json" });
    equal(indexed.isError, false, indexed.text);
    const repo = JSON.parse(indexed.text).repo as string;
    const check = async (args: Row, format = "json") => {
      const r = await runner.call("check_references", { repo, format, ...args });
      equal(r.isError, false, r.text);
      return decode(r.text) as Row;
    };

    await t.step("imports, calls, an export list string and a doc mention", async () => {
      const body = await check({ identifier: "Cart" });
      deepEqual(sites(body), [
        "docs/guide.md:3 text docs",
        "shop/__init__.py:1 resolved import",
        "shop/__init__.py:3 text string",
        "tests/test_cart.py:1 resolved import",
        "tests/test_cart.py:6 resolved call",
      ]);
      equal(body.is_referenced, true);
      equal(body.reference_count, 3);
      equal(body.import_count, 2);
      equal(body.content_count, 2);
      equal((body.uses as Row[])[4]!.symbol, "tests/test_cart.py::test_add#function");
      equal((body.uses as Row[])[4]!.text, "assert Cart().add(1) == 1");
    });

    await t.step("a name only config and docs write is referenced, by text", async () => {
      const body = await check({ identifier: "index_page" });
      deepEqual(sites(body), ["config/routes.json:1 text config", "docs/guide.md:3 text docs"]);
      equal(body.reference_count, 0);
    });

    await t.step("an unused function: its own definition is no use", async () => {
      const body = await check({ identifier: "_never_called" });
      equal(body.is_referenced, false);
      deepEqual(body.uses, []);
    });

    await t.step("search_content false: graph references only", async () => {
      const body = await check({ identifier: "Cart", search_content: false });
      deepEqual(sites(body), [
        "shop/__init__.py:1 resolved import",
        "tests/test_cart.py:1 resolved import",
        "tests/test_cart.py:6 resolved call",
      ]);
    });

    await t.step("a comment and a string in code are labelled so", async () => {
      Deno.writeTextFileSync(
        `${ws.root}/shop/notes.py`,
        '# _never_called is kept for plugins\nNAME = "_never_called"\n',
      );
      const re = await runner.call("index_folder", { path: ws.root, format: "json" });
      equal(re.isError, false, re.text);
      const body = await check({ identifier: "_never_called" });
      deepEqual(sites(body), ["shop/notes.py:1 text comment", "shop/notes.py:2 text string"]);
      equal(body.is_referenced, true);
    });

    await t.step(
      "batch: a row per identifier, one table of uses; compact decodes the same",
      async () => {
        const args = { identifiers: ["_helper_of_dead", "nothing_here"] };
        const json = await check(args);
        deepEqual(json.results, [
          {
            identifier: "_helper_of_dead",
            is_referenced: true,
            reference_count: 1,
            import_count: 0,
            content_count: 0,
            use_count: 1,
          },
          {
            identifier: "nothing_here",
            is_referenced: false,
            reference_count: 0,
            import_count: 0,
            content_count: 0,
            use_count: 0,
          },
        ]);
        deepEqual(
          (json.uses as Row[]).map((u) => `${u.identifier} ${u.file}:${u.line} ${u.kind}`),
          [
            "_helper_of_dead shop/cart.py:25 call",
          ],
        );
        const { _meta: _a, ...a } = json;
        const { _meta: _b, ...b } = await check(args, "compact");
        deepEqual(b, a);
      },
    );

    await t.step("max_content_results caps the files with mentions and says so", async () => {
      const body = await check({ identifier: "Cart", max_content_results: 1 });
      equal(body.content_count, 1);
      equal((body._meta as Row).truncated, true);
      ok(String((body._meta as Row).hint).includes("max_content_results"));
    });
  } finally {
    await runner.close();
    ws.dispose();
  }
});
