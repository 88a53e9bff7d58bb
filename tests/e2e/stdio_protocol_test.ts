/**
 * The hand-written stdio server (`serveStdio`) at the JSON-RPC level: what it answers, what it
 * ignores, and that it keeps serving after bad input. (server_test.ts drives it with the SDK
 * client; this covers the messages that client never sends.)
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { PROTOCOL_VERSIONS, TOOLS_LIST } from "../../src/server/stdio.ts";
import { stdioExchange as exchange } from "../server/_protocol.ts";

Deno.test("stdio server: initialize, ping, tools/list, calls, errors, and bad input", async () => {
  const out = await exchange([
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t" } },
    }),
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    "this is not JSON",
    JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
    JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }),
    JSON.stringify({ jsonrpc: "2.0", id: 4, method: "completion/complete" }),
    JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: {} }),
    // Escaped keys in same-shape objects go through parseJson (unknown arguments are ignored).
    JSON.stringify({
      jsonrpc: "2.0",
      id: 6,
      method: "tools/call",
      params: { name: "list_repos", arguments: { "\\": 1, format: "json" } },
    }),
    JSON.stringify({
      jsonrpc: "2.0",
      id: "seven",
      method: "tools/call",
      params: { name: "list_repos", arguments: { "\t": 1, format: "json" } },
    }),
    JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "nope" } }),
    JSON.stringify({
      jsonrpc: "2.0",
      id: 9,
      method: "initialize",
      params: { protocolVersion: "1999-01-01" },
    }),
  ]);
  const byId = new Map(out.map((m) => [m.id, m]));
  equal(out.length, 10, "one answer per request and the bad line; the notification gets none");
  // A line that is not JSON gets a parse error (JSON-RPC 2.0 §5.1), id null.
  equal(byId.get(null)!.error!.code, -32700);
  equal(byId.get(1)!.result!.protocolVersion, "2025-06-18");
  deepStrictEqual(byId.get(1)!.result!.capabilities, {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    resources: { listChanged: true },
  });
  deepStrictEqual(byId.get(2)!.result, {});
  deepStrictEqual(byId.get(3)!.result, TOOLS_LIST);
  equal(byId.get(4)!.error!.code, -32601);
  equal(byId.get(5)!.error!.code, -32602);
  for (const id of [6, "seven"]) {
    const r = byId.get(id)!.result as { content: { text: string }[]; isError?: boolean };
    equal(r.isError, undefined);
    equal(JSON.parse(r.content[0]!.text).count, 0);
  }
  const unknown = byId.get(8)!.result as { content: { text: string }[]; isError?: boolean };
  equal(unknown.isError, true);
  equal(JSON.parse(unknown.content[0]!.text).code, "unknown_tool");
  equal(byId.get(9)!.result!.protocolVersion, PROTOCOL_VERSIONS[0]);
  ok(PROTOCOL_VERSIONS.length > 1);
});

Deno.test("stdio server: a deeply nested request gets a clear error, and the server goes on", async () => {
  const depth = 100_000;
  const nested = "[".repeat(depth) + "]".repeat(depth);
  const out = await exchange([
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_repos","arguments":{"x":${nested}}}}`,
    // So deep that no JSON parser follows it: refused unparsed, never silence.
    "[".repeat(1_000_000),
    JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
  ]);
  const byId = new Map(out.map((m) => [m.id, m]));
  const deep = byId.get(1)!.error as { code: number; message: string } | undefined;
  equal(deep?.code, -32600);
  ok(/nest/i.test(deep!.message), deep!.message);
  equal(byId.get(null)!.error!.code, -32600);
  deepStrictEqual(byId.get(2)!.result, {});
});
