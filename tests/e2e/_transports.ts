/**
 * Both transports over one workspace, for tests that ask each the same calls: a spawned server
 * over stdio (its own index beside the workspace's) and the in-process Streamable HTTP server on
 * the workspace's store, each behind the same call function (`call` of `_server.ts`).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { DEFAULT_HTTP_SETTINGS, serveHttp } from "../../src/server/http.ts";
import type { Store } from "../../src/store/mod.ts";
import { workspaceRunner } from "../ingest/_helpers.ts";
import { call, connect } from "./_server.ts";

/** A tool call on one transport: the decoded body and the raw text. */
export type TransportCall = (
  name: string,
  args: Record<string, unknown>,
) => ReturnType<typeof call>;

/** The stdio and HTTP servers of a workspace, named, and how to close both. */
export async function bothTransports(
  ws: { root: string; indexDir: string; store: Store },
  clientName: string,
): Promise<{ transports: [string, TransportCall][]; close: () => Promise<void> }> {
  const root = Deno.realPathSync(ws.root);
  const stdio = await connect(root, `${ws.indexDir}-stdio`);
  const runner = workspaceRunner(ws);
  const http = await serveHttp(runner, { ...DEFAULT_HTTP_SETTINGS, port: 0 }, () => {});
  const client = new Client({ name: clientName, version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  return {
    transports: [
      ["stdio", (name, args) => call(stdio.client, name, args)],
      ["http", (name, args) => call(client, name, args)],
    ],
    close: async () => {
      await client.close().catch(() => {});
      await http.shutdown();
      await runner.close();
      await stdio.close();
    },
  };
}
