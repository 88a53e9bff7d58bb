/**
 * The fast stdio server (src/server/stdio.ts) answers `initialize` and `tools/list` from data:
 * that data must be what the SDK server (src/server/server.ts) produces from the live zod
 * schemas. Run with `CODEMUNCH_UPDATE_TOOLS_LIST=1` to rewrite `src/server/tools_list.json`.
 */
import { deepStrictEqual } from "node:assert/strict";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createServer } from "../../src/server/server.ts";
import { INSTRUCTIONS, SERVER_INFO, TOOLS_LIST } from "../../src/server/stdio.ts";
import { Store } from "../../src/store/store.ts";

/** The raw JSON-RPC results of the SDK server for initialize and tools/list. */
async function sdkAnswers(): Promise<{ initialize: unknown; toolsList: unknown }> {
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-tools-list-" });
  const server = createServer({ store: new Store(dir) });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const answers = new Map<number, unknown>();
  const waiting = new Map<number, () => void>();
  client.onmessage = (m: JSONRPCMessage) => {
    const r = m as { id?: number; result?: unknown };
    if (typeof r.id === "number") {
      // As sent over stdio: JSON text (undefined fields left out).
      answers.set(r.id, JSON.parse(JSON.stringify(r.result)));
      waiting.get(r.id)?.();
    }
  };
  await server.connect(serverSide);
  await client.start();
  const ask = (id: number, method: string, params?: Record<string, unknown>) =>
    new Promise<unknown>((done) => {
      waiting.set(id, () => done(answers.get(id)));
      client.send({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
    });
  try {
    const initialize = await ask(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "0" },
    });
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const toolsList = await ask(2, "tools/list");
    return { initialize, toolsList };
  } finally {
    await server.close();
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("the stdio server's initialize and tools/list answers are the SDK server's", async () => {
  const { initialize, toolsList } = await sdkAnswers();
  if (Deno.env.get("CODEMUNCH_UPDATE_TOOLS_LIST") === "1") {
    const path = new URL("../../src/server/tools_list.json", import.meta.url);
    Deno.writeTextFileSync(path, JSON.stringify(toolsList, null, 2) + "\n");
    return;
  }
  deepStrictEqual(TOOLS_LIST, toolsList);
  deepStrictEqual(initialize, {
    protocolVersion: "2025-06-18",
    capabilities: {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
    },
    serverInfo: SERVER_INFO,
    instructions: INSTRUCTIONS,
  });
});
