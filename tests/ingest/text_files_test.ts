/**
 * Documentation, configuration and languages without a grammar are indexed for text search:
 * text-only files (reStructuredText, plain text, CMake...) are stored with
 * their language and no symbols; Markdown, YAML, JSON, TOML, SQL, XML and Java `.properties` have
 * grammars and get symbols too. The
 * walk's filters and limits apply to them as to code.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { languageIdForPath, parseSource } from "../../src/parser/mod.ts";
import { tempWorkspace, testConfig, writeTree } from "./_helpers.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { DEFAULT_SETTINGS } from "../../src/server/config.ts";
import { inThreadParser } from "./_helpers.ts";

Deno.test("text-only files: language ids by name and extension", () => {
  const cases: [string, string | undefined][] = [
    ["db/migrations/001_init.sql", "sql"],
    ["docs/index.rst", "restructuredtext"],
    ["notes.txt", "text"],
    ["CMakeLists.txt", "cmake"],
    ["Dockerfile", "dockerfile"],
    ["docker/Dockerfile.dev", "dockerfile"],
    ["api/schema.graphql", "graphql"],
    ["proto/user.proto", "proto"],
    ["src/solver.f90", "fortran"],
    ["cobol/PAYROLL.cbl", "cobol"],
    ["LICENSE", "text"],
    ["setup.cfg", "ini"],
    ["README.md", "markdown"],
    ["config.yml", "yaml"],
    ["package.json", "json"],
    ["Cargo.toml", "toml"],
    ["pom.xml", "xml"],
    ["src/main/resources/messages.properties", "properties"],
    ["docbook.dtd", "dtd"],
    ["app.conf", "ini"],
    ["logo.png", undefined],
    ["a.unknownext", undefined],
  ];
  deepStrictEqual(cases.map(([p]) => [p, languageIdForPath(p)]), cases);
});

Deno.test("text-only files parse to no records, with their language", async () => {
  const cmake = new TextEncoder().encode("project(payroll)\nadd_executable(payroll main.c)\n");
  const r = await parseSource("CMakeLists.txt", cmake);
  deepStrictEqual([r.language, r.status, r.reason, r.symbols, r.imports, r.calls], [
    "cmake",
    "ok",
    null,
    [],
    [],
    [],
  ]);
});

Deno.test("docs, config and SQL are indexed for search_text under the walk's limits", async () => {
  const ws = tempWorkspace("codemunch-text-");
  try {
    writeTree(ws.root, {
      "app.py": "def handler():\n    return 1\n",
      "README.md": "# Widget service\n\n## Setup\n\nRun the widget migrations.\n",
      "docs/guide.rst": "Guide\n=====\n\nThe widget guide.\n",
      "db/001_widgets.sql": "CREATE TABLE widgets (id int);\n",
      "deploy.yaml": "service:\n  name: widget\n",
      "pom.xml": '<project id="widget-app">\n  <name>widget</name>\n</project>\n',
      "messages.properties": "# Labels\nwidget.title=Widget\n",
      "notes.txt": "widget notes\n",
      "big.txt": "widget " + "x".repeat(2_000) + "\n",
      "image.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
    });
    const runner = new ToolRunner({
      store: ws.store,
      ingest: testConfig({ maxFileBytes: 1_000 }),
      parser: inThreadParser,
      cwd: ws.root,
      settings: DEFAULT_SETTINGS,
    });
    const indexed = await runner.call("index_folder", { path: ws.root, format: "json" });
    equal(indexed.isError, false, indexed.text);
    const outcome = JSON.parse(indexed.text) as Record<string, unknown>;
    const repo = outcome.repo as string;
    const languages = outcome.languages as Record<string, number>;
    const counted = ["python", "markdown", "restructuredtext", "sql", "yaml", "text", "xml"];
    deepStrictEqual(
      Object.fromEntries([...counted, "properties"].map((l) => [l, languages[l]])),
      {
        python: 1,
        markdown: 1,
        restructuredtext: 1,
        sql: 1,
        yaml: 1,
        text: 1,
        xml: 1,
        properties: 1,
      },
    );
    const noSymbols = (outcome.no_symbols_files ?? []) as string[];
    ok(!noSymbols.includes("notes.txt"), "a text-only file is not a file without symbols");
    const found = await runner.call("search_text", { repo, query: "widget", format: "json" });
    // One row per matching line: the files are the distinct `file` values.
    const files = [
      ...new Set(
        (decode(found.text) as { results: { file: string }[] }).results.map((r) => r.file),
      ),
    ].sort();
    // big.txt is over the size limit, like any file.
    deepStrictEqual(files, [
      "README.md",
      "db/001_widgets.sql",
      "deploy.yaml",
      "docs/guide.rst",
      "messages.properties",
      "notes.txt",
      "pom.xml",
    ]);
    const outline = await runner.call("get_file_outline", {
      repo,
      file_path: "README.md",
      format: "json",
    });
    ok(outline.text.includes("Widget service.Setup"), outline.text);
    // XML and `.properties` moved from text only to parsed: searchable as before, with symbols.
    const keys = await runner.call("get_file_outline", {
      repo,
      file_path: "messages.properties",
      format: "json",
    });
    ok(keys.text.includes("widget.title"), keys.text);
  } finally {
    ws.dispose();
  }
});
