/**
 * The single-binary path. `deno compile` needs Deno's `denort` runtime, which cannot be downloaded
 * on our build machines: the build-and-drive test runs where `DENORT_BIN` points at a denort of
 * this Deno version (it builds the native binary), or where `CODEMUNCH_BINARY` names a binary
 * already built (the release workflow's smoke test); elsewhere it is reported as ignored with
 * SKIPPED and the reason in its name. The include list and the five targets are checked
 * everywhere.
 */
import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { builds, compileArgs, compileIncludes, TARGETS } from "../../scripts/compile.ts";
import { SERVER_V8_FLAGS } from "../../scripts/serve.ts";
import { CHECKOUT, resultText, tempProject } from "../e2e/_server.ts";

Deno.test("compile: every file the binary loads at run time is embedded", async () => {
  const includes = await compileIncludes();
  for (const inc of includes) ok(Deno.statSync(join(CHECKOUT, inc)), `missing ${inc}`);
  ok(includes.includes("src/parser/worker.ts"));
  // What main.ts and the stdio server load by a computed specifier (Deno does not see it).
  ok(includes.includes("src/server/runner.ts"));
  ok(includes.includes("src/cli/serve_commands.ts"), "serve --http and watch");
  ok(includes.includes("src/cli/tool_commands.ts"), "index, search, outline, symbol, call");
  ok(Deno.statSync(join(CHECKOUT, "node_modules/tree-sitter-wasms/out/tree-sitter-go.wasm")));
  ok(Deno.statSync(join(CHECKOUT, "node_modules/web-tree-sitter/tree-sitter.wasm")));
  const args = await compileArgs("out/codemunch", "x86_64-unknown-linux-gnu");
  deepStrictEqual(args.slice(-3), ["--target", "x86_64-unknown-linux-gnu", "main.ts"]);
  ok(!args.some((a) => a === "--allow-all" || a === "-A" || a.startsWith("--allow-run")));
  // The binary runs with the server's V8 flags, as `deno task start` does.
  ok(args.includes(SERVER_V8_FLAGS));
});

Deno.test("compile: `deno task compile` builds the five release targets", () => {
  deepStrictEqual(
    builds(new Map()),
    TARGETS.map((t) => [`dist/codemunch-${t}${t.includes("windows") ? ".exe" : ""}`, t]),
  );
  equal(TARGETS.length, 5);
  deepStrictEqual(builds(new Map([["target", "native"]])), [["dist/codemunch", undefined]]);
  deepStrictEqual(builds(new Map([["target", "aarch64-apple-darwin"], ["output", "x"]])), [[
    "x",
    "aarch64-apple-darwin",
  ]]);
  throws(() => builds(new Map([["output", "x"]])), /--output needs --target/);
});

const denort = Deno.env.get("DENORT_BIN");
const prebuilt = Deno.env.get("CODEMUNCH_BINARY");

Deno.test({
  name: denort || prebuilt
    ? "compile: the binary serves tools/list, indexes with its embedded grammars (worker threads) and searches"
    : "compile: the binary over MCP — SKIPPED: neither DENORT_BIN (a denort of this Deno version, to build it) nor CODEMUNCH_BINARY (a built binary) is set",
  ignore: !denort && !prebuilt,
  fn: async () => {
    const project = tempProject("codemunch-compile-");
    // A Lua file: its grammar is its own package, embedded apart from tree-sitter-wasms.
    Deno.writeTextFileSync(
      join(project.root, "tools.lua"),
      "local M = {}\nfunction M.lua_helper(x)\n  return x * 2\nend\nreturn M\n",
    );
    let binary = prebuilt ? resolve(prebuilt) : join(project.base, "codemunch");
    try {
      if (!prebuilt) {
        const { code } = await new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "--allow-read",
            "--allow-write",
            "--allow-env",
            "--allow-run",
            "scripts/compile.ts",
            "--target",
            "native",
            "--output",
            binary,
          ],
          cwd: CHECKOUT,
          stdout: "inherit",
          stderr: "inherit",
        }).output();
        ok(code === 0, "deno task compile failed");
        if (Deno.build.os === "windows") binary += ".exe";
      }
      const version = await new Deno.Command(binary, { args: ["--version"], stdout: "piped" })
        .output();
      ok(new TextDecoder().decode(version.stdout).startsWith("codemunch "));
      const transport = new StdioClientTransport({
        command: binary,
        args: ["serve"],
        env: {
          HOME: project.base,
          USERPROFILE: project.base,
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
        const body = JSON.parse(resultText(indexed));
        ok(
          body.languages.python > 0 && body.languages.go > 0 && body.languages.lua > 0,
          resultText(indexed),
        );
        for (
          const [query, name] of [["load_settings", "load_settings"], ["lua_helper", "lua_helper"]]
        ) {
          const found = await client.callTool({
            name: "search_symbols",
            arguments: { repo: body.repo, query, format: "json" },
          });
          const hits = JSON.parse(resultText(found)) as { results: { name: string }[] };
          ok(hits.results.some((r) => r.name.endsWith(name!)), resultText(found));
        }
      } finally {
        await client.close();
      }
    } finally {
      project.dispose();
    }
  },
});
