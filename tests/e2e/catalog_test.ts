/**
 * MCP prompts and resources (src/server/catalog.ts), through the SDK client over stdio against
 * the real server, and over Streamable HTTP (the same method table answers both).
 */
import { deepEqual, equal, match, ok, rejects } from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { DEFAULT_HTTP_SETTINGS, serveHttp } from "../../src/server/http.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { Store } from "../../src/store/store.ts";
import { call, connect, tempProject } from "./_server.ts";

Deno.test("prompts and resources over stdio: the workflow prompt and one resource per repo", async (t) => {
  const p = tempProject("codemunch-catalog-");
  const { client, close } = await connect(p.root, p.indexDir);
  try {
    await t.step("the server announces prompts and resources", () => {
      const caps = client.getServerCapabilities();
      ok(caps?.prompts !== undefined && caps?.resources !== undefined, JSON.stringify(caps));
    });
    await t.step("prompts/list and prompts/get", async () => {
      const { prompts } = await client.listPrompts();
      deepEqual(prompts.map((x: { name: string }) => x.name), [
        "codemunch_workflow",
        "jcodemunch_guide",
      ]);
      const got = await client.getPrompt({
        name: "codemunch_workflow",
        arguments: { task: "find where settings are loaded", repo: "project" },
      });
      const text = (got.messages[0]!.content as { text: string }).text;
      match(text, /Task: find where settings are loaded/);
      match(text, /`project`/);
      const order = ["list_repos", "get_repo_outline", "search_symbols", "get_symbol_source"]
        .map((tool) => text.indexOf(tool));
      ok(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!)), text);
      await rejects(client.getPrompt({ name: "nope" }), /Unknown prompt: nope/);
      // The guide prompt is the guide tool's text.
      const guide = await client.getPrompt({ name: "jcodemunch_guide" });
      const tool = await call(client, "jcodemunch_guide", { format: "json" });
      equal((guide.messages[0]!.content as { text: string }).text, tool.body.guide);
      match(String(tool.body.guide), /^# Reading code with codemunch/);
    });
    await t.step("resources/list is empty before indexing, then lists the repo", async () => {
      deepEqual((await client.listResources()).resources, []);
      const indexed = await call(client, "index_folder", { path: p.root, format: "json" });
      equal(indexed.isError, false, indexed.text);
      const { resources } = await client.listResources();
      equal(resources.length, 1);
      equal(resources[0]!.name, indexed.body.repo);
      equal(resources[0]!.mimeType, "application/json");
      const read = await client.readResource({ uri: resources[0]!.uri });
      const outline = JSON.parse((read.contents[0] as { text: string }).text);
      equal(outline.repo, indexed.body.repo);
      await rejects(
        client.readResource({ uri: "codemunch://repo/no-such-repo" }),
        /not|unknown/i,
      );
      const { resourceTemplates } = await client.listResourceTemplates();
      equal(resourceTemplates[0]!.uriTemplate, "codemunch://repo/{repo}");
    });
  } finally {
    await close();
    p.dispose();
  }
});

Deno.test("prompts and resources over Streamable HTTP", async () => {
  const p = tempProject("codemunch-catalog-http-");
  const runner = new ToolRunner({ store: new Store(p.indexDir), log: () => {} });
  const server = await serveHttp(runner, { ...DEFAULT_HTTP_SETTINGS, port: 0 }, () => {});
  const client = new Client({ name: "catalog-test", version: "0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    deepEqual((await client.listPrompts()).prompts.map((x: { name: string }) => x.name), [
      "codemunch_workflow",
      "jcodemunch_guide",
    ]);
    const guide = await client.getPrompt({ name: "jcodemunch_guide" });
    match((guide.messages[0]!.content as { text: string }).text, /## Every tool/);
    deepEqual((await client.listResources()).resources, []);
    await rejects(client.getPrompt({ name: "nope" }), /Unknown prompt/);
    const { resourceTemplates } = await client.listResourceTemplates();
    equal(resourceTemplates[0]!.uriTemplate, "codemunch://repo/{repo}");
  } finally {
    await client.close();
    await server.shutdown();
    await runner.close();
    p.dispose();
  }
});
