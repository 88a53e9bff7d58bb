/**
 * A request that reuses the id of a request still being answered in the same session is refused
 * (MCP: a request id is never reused within a session; JSON-RPC: -32600), and the first request
 * is answered as if nothing happened — over stdio and Streamable HTTP. The first request is an
 * index run whose parser (the real one) waits at a gate until the duplicate was refused, so it is
 * in flight for sure.
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_HTTP_SETTINGS, serveHttp } from "../../src/server/http.ts";
import { serveStdio } from "../../src/server/stdio.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import type { FileParser } from "../../src/ingest/index_local.ts";
import { Store } from "../../src/store/store.ts";
import { inThreadParser, testConfig } from "../ingest/_helpers.ts";
import { type Answer, initializeRequest, mcpHeaders, openSession, postMcp } from "./_protocol.ts";

/** A folder of a few Python files, a store, and the real parser behind a gate. */
function workspace() {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-dup-ids-" }));
  const root = join(base, "project");
  Deno.mkdirSync(root);
  for (let i = 0; i < 3; i++) {
    Deno.writeTextFileSync(join(root, `m${i}.py`), `def f${i}():\n    return ${i}\n`);
  }
  let open!: () => void;
  const gate = new Promise<void>((resolve) => open = resolve);
  // A server that never refuses the duplicate must not freeze the test: the gate opens anyway.
  const freeze = setTimeout(() => open(), 10_000);
  const parser: FileParser = {
    parse: async (file, bytes) => {
      await gate;
      return inThreadParser.parse(file, bytes);
    },
  };
  return {
    root,
    deps: { store: new Store(join(base, "index")), ingest: testConfig(), parser, log: () => {} },
    open,
    dispose: () => {
      clearTimeout(freeze);
      Deno.removeSync(base, { recursive: true });
    },
  };
}

const indexCall = (id: unknown, root: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "index_folder", arguments: { path: root, format: "json" } },
});

Deno.test("stdio: a request reusing an id in flight gets -32600; the first is answered", async () => {
  const w = workspace();
  const lines = [
    initializeRequest(1),
    { jsonrpc: "2.0", method: "notifications/initialized" },
    indexCall(2, w.root),
    { jsonrpc: "2.0", id: 2, method: "ping" },
    { jsonrpc: "2.0", id: "2", method: "ping" }, // a string id is another id
  ].map((m) => JSON.stringify(m));
  const written: Answer[] = [];
  let pending = "";
  const input = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(lines.join("\n") + "\n"));
      c.close();
    },
  });
  try {
    await serveStdio({
      deps: () => Promise.resolve(w.deps),
      input,
      output: {
        write(bytes: Uint8Array) {
          pending += new TextDecoder().decode(bytes);
          const done = pending.split("\n");
          pending = done.pop()!;
          for (const l of done.filter((l) => l !== "")) {
            const m = JSON.parse(l) as Answer;
            written.push(m);
            if (m.error !== undefined) w.open(); // the duplicate was refused: let the run go on
          }
          return Promise.resolve(bytes.length);
        },
      },
      log: () => {},
    });
    const two = written.filter((m) => m.id === 2 && m.method === undefined);
    equal(two.length, 2, JSON.stringify(written));
    equal(two[0]!.error?.code, -32600);
    match(two[0]!.error!.message, /id 2 is already used by a request in flight/);
    const result = two[1]!.result as { content: { text: string }[]; isError?: boolean };
    equal(result.isError, undefined, JSON.stringify(result));
    equal(JSON.parse(result.content[0]!.text).symbol_count, 3);
    deepStrictEqual(written.find((m) => m.id === "2")?.result, {});
  } finally {
    w.dispose();
  }
});

Deno.test("HTTP: a POST reusing an id in flight gets 400 and -32600; the first is answered", async () => {
  const w = workspace();
  const runner = new ToolRunner(w.deps);
  const server = await serveHttp(runner, { ...DEFAULT_HTTP_SETTINGS, port: 0 }, () => {});
  try {
    const { session } = await openSession(server.url);
    // The answer's event stream opens once the request is handed over (headers before the body).
    const first = await fetch(server.url, {
      method: "POST",
      headers: mcpHeaders(session),
      body: JSON.stringify(indexCall(7, w.root)),
    });
    equal(first.status, 200);
    const dup = await postMcp(server.url, { jsonrpc: "2.0", id: 7, method: "ping" }, session);
    equal(dup.status, 400);
    equal(dup.messages[0]!.id, null, "no id: the client must not take it for the first answer");
    equal(dup.messages[0]!.error!.code, -32600);
    match(dup.messages[0]!.error!.message, /id 7 is already used by a request in flight/);
    // Another session may use the same id meanwhile.
    const other = await openSession(server.url);
    const elsewhere = await postMcp(
      server.url,
      { jsonrpc: "2.0", id: 7, method: "ping" },
      other.session,
    );
    deepStrictEqual([elsewhere.status, elsewhere.messages[0]!.result], [200, {}]);
    w.open();
    const text = await first.text();
    const answer = text.split("\n").filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)) as Answer).find((m) => m.id === 7)!;
    const result = answer.result as { content: { text: string }[]; isError?: boolean };
    equal(result.isError, undefined, text);
    equal(JSON.parse(result.content[0]!.text).symbol_count, 3);
    // Once answered, the id is free again.
    const again = await postMcp(server.url, { jsonrpc: "2.0", id: 7, method: "ping" }, session);
    deepStrictEqual([again.status, again.messages[0]!.result], [200, {}]);
  } finally {
    await server.shutdown();
    await runner.close();
    w.dispose();
  }
});
