/**
 * The single-binary path. `deno compile` needs Deno's `denort` runtime, which cannot be downloaded
 * on our build machines: the build-and-run test runs only where `DENORT_BIN` points at a denort of
 * this Deno version, and is reported as ignored (with the reason in its name) elsewhere. The
 * include list is checked everywhere.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { compileArgs, compileIncludes } from "../../scripts/compile.ts";
import { CHECKOUT, resultText, tempProject } from "../e2e/_server.ts";
import { decode } from "../../mod.ts";

Deno.test("compile: every file the binary loads at run time is embedded", async () => {
  const includes = await compileIncludes();
  for (const inc of includes) ok(Deno.statSync(join(CHECKOUT, inc)), `missing ${inc}`);
  ok(includes.includes("src/parser/worker.ts"));
  ok(Deno.statSync(join(CHECKOUT, "node_modules/tree-sitter-wasms/out/tree-sitter-go.wasm")));
  ok(Deno.statSync(join(CHECKOUT, "node_modules/web-tree-sitter/tree-sitter.wasm")));
  const args = await compileArgs("out/codemunch", "x86_64-unknown-linux-gnu");
  deepStrictEqual(args.slice(-3), ["--target", "x86_64-unknown-linux-gnu", "main.ts"]);
  ok(!args.some((a) => a === "--allow-all" || a === "-A" || a.startsWith("--allow-run")));
});

const denort = Deno.env.get("DENORT_BIN");

Deno.test({
  name: denort
    ? "compile: the binary serves tools/list and indexes with its embedded grammars"
    : "compile: the binary serves tools/list and indexes (SKIPPED: DENORT_BIN is not set)",
  ignore: !denort,
  fn: async () => {
    const project = tempProject("codemunch-compile-");
    const binary = join(project.base, "codemunch");
    try {
      const { code } = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--allow-read",
          "--allow-env",
          "--allow-run",
          "scripts/compile.ts",
          "--output",
          binary,
        ],
        cwd: CHECKOUT,
        stdout: "inherit",
        stderr: "inherit",
      }).output();
      ok(code === 0, "deno task compile failed");
      const transport = new StdioClientTransport({
        command: binary,
        args: ["serve"],
        env: {
          HOME: project.base,
          CODE_INDEX_PATH: project.indexDir,
          CODEMUNCH_ALLOWED_ROOTS: project.root,
        },
        cwd: project.root,
      });
      const client = new Client({ name: "codemunch-compile-test", version: "0" });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        ok(tools.some((t: { name: string }) => t.name === "search_symbols"));
        const indexed = await client.callTool({
          name: "index_folder",
          arguments: { path: project.root, format: "json" },
        });
        ok(!indexed.isError, resultText(indexed));
        const found = await client.callTool({
          name: "search_symbols",
          arguments: { repo: "project", query: "load_settings", format: "json" },
        });
        const body = decode(resultText(found)) as { results: { name: string }[] };
        ok(body.results.some((r) => r.name === "load_settings"));
      } finally {
        await client.close();
      }
    } finally {
      project.dispose();
    }
  },
});
