/**
 * JSON-RPC 2.0 as MCP uses it, on both transports (issue 25, minor 13): batches (answered as one
 * array on MCP 2025-03-26, the one version that has them; refused with -32600 on later versions,
 * before initialize, empty, or holding initialize), notifications (never answered, whatever their
 * method or params), bad ids and params, and parse errors that keep the caller's id.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_HTTP_SETTINGS, serveHttp } from "../../src/server/http.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { Store } from "../../src/store/store.ts";
import {
  type Answer,
  initializeRequest,
  openSession,
  postMcp,
  stdioExchange,
} from "./_protocol.ts";

const ping = (id: unknown) => ({ jsonrpc: "2.0", id, method: "ping" });
const note = (method: string, params?: unknown) => ({ jsonrpc: "2.0", method, params });
const line = (m: unknown) => JSON.stringify(m);

/** The answers that are arrays (batch answers) and the single ones, by id. */
function split(out: (Answer | Answer[])[]): { batches: Answer[][]; single: Answer[] } {
  return {
    batches: out.filter((m): m is Answer[] => Array.isArray(m)),
    single: out.filter((m): m is Answer => !Array.isArray(m)),
  };
}

Deno.test("stdio on MCP 2025-03-26: a batch gets one array of answers", async () => {
  const out = await stdioExchange([
    line(initializeRequest(0, "2025-03-26")),
    line([]),
    line([
      ping("b1"),
      note("notifications/initialized"),
      { jsonrpc: "2.0", id: "b2", method: "tools/list" },
      { jsonrpc: "2.0", id: { x: 1 }, method: "ping" },
      5,
      { jsonrpc: "2.0", id: "b3", method: "tools/call", params: [1] },
      { jsonrpc: "2.0", id: "b4", method: "no/such" },
    ]),
    line([note("notifications/initialized"), note("no/such", [1, 2])]),
    line([ping("b5"), initializeRequest("b6", "2025-03-26")]),
  ]) as unknown as (Answer | Answer[])[];
  const { batches, single } = split(out);
  equal(batches.length, 1, "one batch answered as an array; a batch of notifications gets none");
  const batch = batches[0]!;
  const byId = new Map(batch.filter((a) => a.id !== null).map((a) => [a.id, a]));
  deepStrictEqual(byId.get("b1")!.result, {});
  ok(Array.isArray((byId.get("b2")!.result as { tools: unknown[] }).tools));
  equal(byId.get("b3")!.error!.code, -32602);
  equal(byId.get("b4")!.error!.code, -32601);
  const nulls = batch.filter((a) => a.id === null);
  deepStrictEqual(nulls.map((a) => a.error!.code), [-32600, -32600], "object id and 5");
  equal(batch.length, 6, "every request and every invalid entry answered, no notification");
  const empty = single.find((a) => /empty batch/.test(a.error?.message ?? ""));
  deepStrictEqual([empty?.id, empty?.error?.code], [null, -32600]);
  const withInit = single.find((a) =>
    /initialize must not be part of a batch/.test(a.error?.message ?? "")
  );
  deepStrictEqual([withInit?.id, withInit?.error?.code], [null, -32600]);
  ok(!out.flat().some((a) => a.id === "b5"), "a batch holding initialize runs none of it");
  equal(single.length, 3, "initialize, the empty batch, the batch with initialize");
});

Deno.test("stdio: batches refused on MCP 2025-06-18 and before initialize", async () => {
  const before = await stdioExchange([line([ping(1)])]);
  equal(before.length, 1);
  deepStrictEqual([before[0]!.id, before[0]!.error!.code], [null, -32600]);
  match(before[0]!.error!.message, /before initialize/);
  const after = await stdioExchange([line(initializeRequest(0)), line([ping(1), ping(2)])]);
  equal(after.length, 2);
  const refused = after.find((a) => a.id === null)!;
  equal(refused.error!.code, -32600);
  match(refused.error!.message, /MCP 2025-06-18 has no JSON-RPC batches/);
});

Deno.test("stdio: notifications are never answered; bad params and parse errors keep the id", async () => {
  const out = await stdioExchange([
    line(initializeRequest(0)),
    line(note("notifications/initialized")),
    line(note("notifications/cancelled", { requestId: 99 })),
    line(note("no/such/method", { a: 1 })),
    line(note("tools/call", [1, 2])),
    line(note("tools/call", { name: "list_repos" })),
    line({ jsonrpc: "2.0", id: 3, method: "tools/call", params: [1] }),
    line({ jsonrpc: "2.0", id: 4, method: "ping", params: 7 }),
    '{"jsonrpc":"2.0","id":9,"method":"ping"',
    '{"jsonrpc":"2.0","id":"x","method":"ping",}',
    "not json",
    '{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
    line(ping(10)),
  ]);
  // Every request answered once (the ids kept where the text names a valid one); no notification.
  const ids = out.slice(1).map((a) => JSON.stringify([a.id, a.error?.code ?? "ok"])).sort();
  deepStrictEqual(
    ids,
    [
      [10, "ok"],
      [3, -32602],
      [4, -32600],
      [9, -32700],
      ["x", -32700],
      [null, -32700],
      [null, -32600],
    ].map((x) => JSON.stringify(x)).sort(),
  );
});

Deno.test("HTTP: a batch is answered on a 2025-03-26 session only", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-batch-" });
  const runner = new ToolRunner({ store: new Store(join(dir, "index")), log: () => {} });
  const server = await serveHttp(runner, { ...DEFAULT_HTTP_SETTINGS, port: 0 }, () => {});
  try {
    const old = await openSession(server.url, "2025-03-26");
    equal((old.answer.result as { protocolVersion: string }).protocolVersion, "2025-03-26");
    const ok1 = await postMcp(server.url, [ping(1), ping(2)], old.session);
    equal(ok1.status, 200);
    deepStrictEqual(ok1.messages.map((m) => m.id).sort(), [1, 2]);
    const onlyNotes = await postMcp(
      server.url,
      [note("notifications/initialized")],
      old.session,
    );
    equal(onlyNotes.status, 202);
    const withInit = await postMcp(
      server.url,
      [ping(3), initializeRequest(4, "2025-03-26")],
      old.session,
    );
    deepStrictEqual([withInit.status, withInit.messages[0]!.error!.code], [400, -32600]);
    const current = await openSession(server.url);
    const refused = await postMcp(server.url, [ping(1)], current.session);
    deepStrictEqual([refused.status, refused.messages[0]!.id, refused.messages[0]!.error!.code], [
      400,
      null,
      -32600,
    ]);
    match(refused.messages[0]!.error!.message, /no JSON-RPC batches/);
    const noSession = await postMcp(server.url, [initializeRequest(1)]);
    deepStrictEqual([noSession.status, noSession.messages[0]!.error!.code], [400, -32600]);
  } finally {
    await server.shutdown();
    await runner.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
