/**
 * A project's `.jcodemunch.jsonc` (the reference's per-project config file): `extra_ignore_patterns`
 * and `max_folder_files` narrow what index_folder and index_file index, `disabled_tools` makes
 * those tools refuse to answer about the repo, and a file that cannot be used is named in the
 * index run's warnings — through the real runner, parser and SQLite store.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { readProjectConfig } from "../../src/ingest/project_config.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "./_helpers.ts";

const py = (name: string) => `def ${name}():\n    return 1\n`;

Deno.test("project config: ignore patterns, file limit and disabled tools of the folder", async () => {
  const ws = tempWorkspace("codemunch-project-config-");
  const runner = workspaceRunner(ws);
  try {
    writeTree(ws.root, {
      "app.py": py("app"),
      "gen/out.py": py("generated"),
      "lib/util.py": py("util"),
      ".jcodemunch.jsonc": `{
        // this project's settings
        "extra_ignore_patterns": ["gen/"],
        "disabled_tools": ["search_text", "get_symbol"],
        "tool_profile": "core", /* a key codemunch reads only from config.jsonc */
      }`,
    });
    const indexed = JSON.parse(
      (await runner.call("index_folder", { path: ws.root, format: "json" })).text,
    );
    equal(indexed.success, true, JSON.stringify(indexed));
    const repo = indexed.repo as string;
    const tree = JSON.parse(
      (await runner.call("get_file_outline", { repo, file_path: "gen/out.py", format: "json" }))
        .text,
    );
    equal(tree.code, "file_not_found", "gen/ is ignored by the project's pattern");
    // index_file follows the same rules.
    const one = await runner.call("index_file", { path: join(ws.root, "gen", "out.py") });
    ok(!JSON.parse(one.text).symbol_count, one.text);

    const refused = await runner.call("search_text", { repo, query: "return" });
    equal(refused.isError, true);
    equal(refused.code, "tool_disabled");
    match(
      JSON.parse(refused.text).error,
      /disabled in this project's configuration.*\.jcodemunch\.jsonc/,
    );
    const alias = await runner.call("get_symbol", { repo, symbol_id: "app.py::app#function" });
    equal(alias.code, "tool_disabled", alias.text);
    const own = await runner.call("get_symbol_source", { repo, symbol_id: "app.py::app#function" });
    equal(own.isError, false, own.text);
    const search = await runner.call("search_symbols", { repo, query: "util", format: "json" });
    equal(search.isError, false, search.text);

    // A lower file limit for this folder; a key of the wrong type is named and ignored.
    Deno.writeTextFileSync(
      join(ws.root, ".jcodemunch.jsonc"),
      `{"max_folder_files": 1, "disabled_tools": "search_text"}`,
    );
    const capped = JSON.parse(
      (await runner.call("index_folder", { path: ws.root, format: "json" })).text,
    );
    equal(capped.files_indexed, 1, JSON.stringify(capped));
    match(
      JSON.stringify(capped.warnings),
      /max_folder_files in .*\.jcodemunch\.jsonc limits this folder to 1 files/,
    );
    match(
      JSON.stringify(capped.warnings),
      /disabled_tools in .*\.jcodemunch\.jsonc was ignored: expected a list/,
    );
    equal((await runner.call("search_text", { repo, query: "return" })).isError, false);
  } finally {
    await runner.close();
    ws.dispose();
  }
});

Deno.test("project config: an unreadable or malformed file is ignored with a warning", () => {
  const ws = tempWorkspace("codemunch-project-config-bad-");
  try {
    deepStrictEqual(readProjectConfig(ws.root).disabledTools, []);
    Deno.writeTextFileSync(join(ws.root, ".jcodemunch.jsonc"), `{"disabled_tools": [`);
    match(readProjectConfig(ws.root).warnings[0]!, /was ignored: it is not JSON with comments/);
    Deno.removeSync(join(ws.root, ".jcodemunch.jsonc"));
    Deno.mkdirSync(join(ws.root, ".jcodemunch.jsonc"));
    match(readProjectConfig(ws.root).warnings[0]!, /not a regular file/);
    Deno.removeSync(join(ws.root, ".jcodemunch.jsonc"));
    Deno.writeTextFileSync(join(ws.root, "..", "outside.jsonc"), `{"disabled_tools": ["x"]}`);
    Deno.symlinkSync(join(ws.root, "..", "outside.jsonc"), join(ws.root, ".jcodemunch.jsonc"));
    deepStrictEqual(readProjectConfig(ws.root).disabledTools, [], "a symlink out is not read");
  } finally {
    ws.dispose();
  }
});
