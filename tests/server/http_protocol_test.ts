/**
 * Streamable HTTP conforms with the method table behind it (protocol.ts, no SDK server): the
 * SDK's client gets progress on the request's event stream before its answer, pings, ends its
 * session with DELETE; and stdio and HTTP give the same answers to the same requests.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { DEFAULT_HTTP_SETTINGS, serveHttp } from "../../src/server/http.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { Store } from "../../src/store/store.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";
import {
  httpExchange,
  initializeRequest,
  postMcp,
  pythonModules,
  stdioExchange,
} from "./_protocol.ts";

Deno.test("http: the SDK client gets progress before the answer, pings, and ends its session", async () => {
  const ws = tempWorkspace("codemunch-http-protocol-");
  writeTree(ws.root, pythonModules(30));
  const runner = workspaceRunner(ws);
  let idled = 0;
  const idle = runner.idle.bind(runner);
  runner.idle = () => {
    idled++;
    idle();
  };
  const server = await serveHttp(runner, { ...DEFAULT_HTTP_SETTINGS, port: 0 }, () => {});
  const transport = new StreamableHTTPClientTransport(new URL(server.url));
  const client = new Client({ name: "codemunch-http-protocol", version: "0" });
  const sessions = async () =>
    ((await (await fetch(server.url.replace(/\/mcp$/, "/health"))).json()) as {
      sessions: number;
    }).sessions;
  try {
    await client.connect(transport);
    deepStrictEqual(await client.ping(), {});
    const progress: { progress: number; total?: number }[] = [];
    const r = await client.callTool(
      { name: "index_folder", arguments: { path: ws.root, format: "json" } },
      undefined,
      { onprogress: (p: { progress: number; total?: number }) => progress.push(p) },
    );
    equal(r.isError, undefined, JSON.stringify(r));
    // The SDK client drops progress that arrives after the answer: all of it came before.
    ok(progress.length >= 1, "progress reached the client");
    equal(progress.at(-1)!.progress, progress.at(-1)!.total);
    // The idle work runs after an answer on HTTP too.
    for (let i = 0; i < 50 && idled === 0; i++) await new Promise((d) => setTimeout(d, 20));
    ok(idled >= 1, "the runner's idle work ran after the call");
    equal(await sessions(), 1);
    const id = transport.sessionId!;
    await transport.terminateSession();
    equal(await sessions(), 0);
    const after = await postMcp(server.url, { jsonrpc: "2.0", id: 5, method: "ping" }, id);
    equal(after.status, 404, "a closed session is gone");
  } finally {
    await client.close().catch(() => {});
    await server.shutdown();
    await runner.close();
    ws.dispose();
  }
});

Deno.test("stdio and Streamable HTTP give the same answers (one method table)", async () => {
  const requests: Record<string, unknown>[] = [
    { jsonrpc: "2.0", id: 1, method: "ping" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    { jsonrpc: "2.0", id: 3, method: "prompts/list" },
    {
      jsonrpc: "2.0",
      id: 4,
      method: "prompts/get",
      params: { name: "codemunch_workflow", arguments: { task: "find the parser" } },
    },
    { jsonrpc: "2.0", id: 5, method: "prompts/get", params: { name: "nope" } },
    { jsonrpc: "2.0", id: 6, method: "resources/templates/list" },
    { jsonrpc: "2.0", id: 7, method: "resources/list" },
    { jsonrpc: "2.0", id: 8, method: "resources/read", params: { uri: "codemunch://repo/x" } },
    { jsonrpc: "2.0", id: 9, method: "completion/complete", params: {} },
    { jsonrpc: "2.0", id: 10, method: "tools/call", params: {} },
    {
      jsonrpc: "2.0",
      id: 11,
      method: "tools/call",
      params: { name: "list_repos", arguments: { format: "json" } },
    },
  ];
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-same-answers-" });
  const runner = new ToolRunner({ store: new Store(join(dir, "http")), log: () => {} });
  const server = await serveHttp(runner, { ...DEFAULT_HTTP_SETTINGS, port: 0 }, () => {});
  try {
    const http = await httpExchange(server.url, requests);
    const stdio = await stdioExchange(
      [initializeRequest(0), ...requests].map((r) => JSON.stringify(r)),
      () => Promise.resolve({ store: new Store(join(dir, "stdio")), log: () => {} }),
    );
    const byId = new Map(stdio.map((m) => [m.id, m]));
    equal(http.length, requests.length + 1);
    for (const answer of http) {
      const mine = _comparable(answer);
      deepStrictEqual(_comparable(byId.get(answer.id)!), mine, `id ${answer.id}`);
    }
    equal(byId.get(9)!.error!.code, -32601);
    equal(byId.get(10)!.error!.code, -32602);
  } finally {
    await server.shutdown();
    await runner.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

/** An answer without what differs by run: a tool result's `_meta.timing_ms`. */
function _comparable(answer: Record<string, unknown>): unknown {
  const result = answer.result as { content?: { text: string }[] } | undefined;
  if (result?.content === undefined) return answer;
  const body = JSON.parse(result.content[0]!.text) as { _meta?: Record<string, unknown> };
  delete body._meta?.timing_ms;
  return { ...answer, result: { ...result, content: [{ ...result.content[0], text: body }] } };
}
