/**
 * The files derived from the tool declarations are current: `src/server/tools_list.json` (what
 * the stdio server answers `tools/list` with, without loading a tool), the README tools table and
 * `docs/tools.md`. A stale file fails here; `deno task gen` rewrites them (this test never
 * writes). And the SDK server (HTTP sessions) answers initialize and tools/list like the stdio
 * server.
 */
import { deepStrictEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createServer } from "../../src/server/server.ts";
import { INSTRUCTIONS, SERVER_INFO, TOOLS_LIST } from "../../src/server/stdio.ts";
import { Store } from "../../src/store/store.ts";
import { generatedFiles } from "../../scripts/gen.ts";
import { CHECKOUT } from "./_server.ts";

Deno.test("generated files are current (run `deno task gen` after changing a tool)", async (t) => {
  for (const f of await generatedFiles()) {
    await t.step(f.path, () => {
      const actual = Deno.readTextFileSync(join(CHECKOUT, f.path));
      // A first differing line makes a readable failure; the whole text must match.
      const a = actual.split("\n"), e = f.text.split("\n");
      const at = e.findIndex((line, i) => line !== a[i]);
      equal(
        actual === f.text,
        true,
        `${f.path} is stale: run \`deno task gen\`${
          at === -1
            ? ""
            : ` (line ${at + 1}: expected ${JSON.stringify(e[at])}, found ${
              JSON.stringify(a[at] ?? "(end of file)")
            })`
        }`,
      );
    });
  }
});

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

Deno.test("the SDK server's initialize and tools/list answers are the stdio server's", async () => {
  const { initialize, toolsList } = await sdkAnswers();
  deepStrictEqual(toolsList, TOOLS_LIST);
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
