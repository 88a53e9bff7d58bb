/**
 * MCP prompts and resources (src/server/catalog.ts), through the SDK client over stdio against
 * the real server, and on the SDK server of `createServer` over an in-memory transport.
 */
import { deepEqual, equal, match, ok, rejects } from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createServer } from "../../src/server/server.ts";
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
      deepEqual(prompts.map((x: { name: string }) => x.name), ["codemunch_workflow"]);
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

Deno.test("prompts and resources on the SDK server (createServer)", async () => {
  const p = tempProject("codemunch-catalog-sdk-");
  const store = new Store(p.indexDir);
  const server = createServer({ store });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "catalog-test", version: "0" });
  try {
    await server.connect(a);
    await client.connect(b);
    deepEqual((await client.listPrompts()).prompts.map((x: { name: string }) => x.name), [
      "codemunch_workflow",
    ]);
    deepEqual((await client.listResources()).resources, []);
    await rejects(client.getPrompt({ name: "nope" }), /Unknown prompt/);
  } finally {
    await client.close();
    await server.close();
    p.dispose();
  }
});
