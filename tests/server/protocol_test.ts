/**
 * The one method table (src/server/protocol.ts) and the JSON-RPC reading both transports share
 * (src/server/jsonrpc.ts): message shapes and ids (issue 25, minor 13), a hostile depth with an
 * escaped key, the order of a call's progress notifications and its answer, and the same answers
 * over stdio and Streamable HTTP.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { classify, nestingOf, readMessage, topLevelId } from "../../src/server/jsonrpc.ts";
import { McpProtocol, type Message } from "../../src/server/protocol.ts";
import { DEFAULT_HTTP_SETTINGS, serveHttp } from "../../src/server/http.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { Store } from "../../src/store/store.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";
import { postMcp, pythonModules, stdioExchange } from "./_protocol.ts";

/** A request 100k levels deep whose object keys are escaped (the parser the V8 guard uses). */
function deepWithEscapedKey(id: unknown): string {
  const depth = 100_000;
  return `{"jsonrpc":"2.0","id":${
    JSON.stringify(id)
  },"method":"tools/call","params":{"na\\u006de":"list_repos","arguments":{"\\t":${
    "[".repeat(depth) + "]".repeat(depth)
  }}}}`;
}

Deno.test("jsonrpc: reading messages", async (t) => {
  await t.step("nesting is counted without parsing, strings skipped", () => {
    equal(nestingOf('{"a":[1,{"b":"[[[["}]}'), 3);
    equal(nestingOf("[".repeat(1000), 10), 11);
  });
  await t.step("the top-level id is read from text that is not parsed", () => {
    equal(topLevelId('{"jsonrpc":"2.0","method":"x","id":"a\\"b","params":[[[[['), 'a"b');
    equal(topLevelId('{"params":{"id":5},"id":7}'), 7);
    equal(topLevelId('{"\\u0069d": 9}'), 9);
    equal(topLevelId('{"id":{"x":1}}'), null);
    equal(topLevelId("[1,2]"), null);
    equal(topLevelId("not json"), null);
  });
  await t.step("a request 100k deep with an escaped key is -32600 with its id", () => {
    for (const id of [42, "req-1"]) {
      const read = readMessage(deepWithEscapedKey(id));
      ok("error" in read);
      equal(read.error.error.code, -32600);
      equal(read.error.id, id);
      match(read.error.error.message, /nested deeper than 256/);
    }
  });
  await t.step("ids: a string or a number; an object or null is -32600", () => {
    equal(classify({ jsonrpc: "2.0", id: 1, method: "ping" }).kind, "request");
    equal(classify({ jsonrpc: "2.0", id: "x", method: "ping" }).kind, "request");
    equal(classify({ jsonrpc: "2.0", method: "notifications/initialized" }).kind, "notification");
    equal(classify({ jsonrpc: "2.0", id: 3, result: {} }).kind, "response");
    for (const id of [{ a: 1 }, [1], null, true]) {
      const c = classify({ jsonrpc: "2.0", id, method: "ping" });
      equal(c.kind, "invalid", JSON.stringify(id));
      if (c.kind === "invalid") {
        equal(c.error.error.code, -32600);
        equal(c.error.id, null);
      }
    }
    const noVersion = classify({ id: 4, method: "ping" });
    equal(noVersion.kind === "invalid" && noVersion.error.id, 4);
  });
});

Deno.test("stdio and HTTP answer hostile ids and depths alike", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-protocol-" });
  const runner = new ToolRunner({ store: new Store(join(dir, "index")), log: () => {} });
  const server = await serveHttp(runner, { ...DEFAULT_HTTP_SETTINGS, port: 0 }, () => {});
  try {
    const cases = [
      deepWithEscapedKey(7),
      JSON.stringify({ jsonrpc: "2.0", id: { evil: true }, method: "ping" }),
      JSON.stringify({ jsonrpc: "2.0", id: null, method: "ping" }),
    ];
    const stdio = await stdioExchange(cases);
    deepStrictEqual(stdio.map((m) => [m.id, (m.error as { code: number }).code]), [
      [7, -32600],
      [null, -32600],
      [null, -32600],
    ]);
    // HTTP: the same answers, before any session (a body is read like a stdio line).
    for (const [i, body] of cases.entries()) {
      const r = await postMcp(server.url, body);
      equal(r.status, 400);
      const answer = r.messages[0]!;
      deepStrictEqual([answer.id, answer.error?.code], [stdio[i]!.id, -32600], body.slice(0, 80));
    }
  } finally {
    await server.shutdown();
    await runner.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a call's progress notifications are all written before its answer", async () => {
  const ws = tempWorkspace("codemunch-progress-order-");
  writeTree(ws.root, pythonModules(40));
  const runner = workspaceRunner(ws);
  const protocol = new McpProtocol({ runner: () => Promise.resolve(runner), log: () => {} });
  const sent: Message[] = [];
  // A slow writer: each message takes a while to be written, notifications included.
  const peer = {
    send: async (m: Message) => {
      await new Promise((done) => setTimeout(done, 2));
      sent.push(m);
    },
  };
  try {
    const call = (id: number, token: string) =>
      protocol.receive({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: {
          name: "index_folder",
          arguments: { path: ws.root, incremental: false, format: "json" },
          _meta: { progressToken: token },
        },
      }, peer);
    await Promise.all([call(1, "a"), call(2, "b")]);
    for (const [id, token] of [[1, "a"], [2, "b"]] as const) {
      const answerAt = sent.findIndex((m) => m.id === id);
      const notes = sent.flatMap((m, i) =>
        (m.params as { progressToken?: string } | undefined)?.progressToken === token ? [i] : []
      );
      ok(answerAt !== -1, `call ${id} was answered`);
      ok(notes.length >= 1, `call ${id} reported progress`);
      ok(notes.every((i) => i < answerAt), `call ${id}: notifications ${notes} before ${answerAt}`);
      const last = sent[notes.at(-1)!]!.params as { progress: number; total: number };
      equal(last.progress, last.total);
    }
  } finally {
    await protocol.drain();
    await runner.close();
    ws.dispose();
  }
});

Deno.test("on stdio a call with progress is answered after the client has read the progress", async () => {
  const ws = tempWorkspace("codemunch-read-back-");
  writeTree(ws.root, { "a.py": "def a():\n    return 1\n", "b.py": "def b():\n    return 2\n" });
  const runner = workspaceRunner(ws);
  const protocol = new McpProtocol({ runner: () => Promise.resolve(runner), log: () => {} });
  const events: string[] = [];
  // A client on one duplex stream: it answers our ping once it has handled what came before.
  const peer = {
    duplex: true,
    send: (m: Message) => {
      if (m.method === "ping") {
        events.push("ping");
        setTimeout(() => {
          events.push("pong");
          protocol.receive({ jsonrpc: "2.0", id: m.id, result: {} }, peer);
        }, 20);
      } else if (m.method === "notifications/progress") events.push("progress");
      else if (m.id === 1) events.push("answer");
      return Promise.resolve();
    },
  };
  try {
    await protocol.receive({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "index_folder",
        arguments: { path: ws.root, format: "json" },
        _meta: { progressToken: 1 },
      },
    }, peer);
    const answer = events.indexOf("answer");
    ok(events.indexOf("progress") !== -1 && events.lastIndexOf("progress") < answer, `${events}`);
    deepStrictEqual(events.slice(answer - 2), ["ping", "pong", "answer"]);
    // A call without progress needs no read-back.
    events.length = 0;
    await protocol.receive({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "list_repos", arguments: {} },
    }, peer);
    deepStrictEqual(events, ["answer"]);
  } finally {
    await protocol.drain();
    await runner.close();
    ws.dispose();
  }
});
