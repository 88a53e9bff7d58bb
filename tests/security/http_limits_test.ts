/**
 * HTTP connection limits (issue 25, medium 8), against `serveHttp` on loopback with the real
 * runner: one client opening sessions in a loop no longer locks others out (its own sessions are
 * recycled, a full table recycles the longest idle one, idle sessions close), half-sent request
 * heads are closed at the header timeout while an SDK client goes on working, a half-sent body is
 * answered 408 at the body timeout instead of staying open, wrong tokens are rate-limited (429
 * after the limit), and an `Origin` on localhost must name the server's own port.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolRunner } from "../../src/server/runner.ts";
import { DEFAULT_SETTINGS } from "../../src/server/config.ts";
import { DEFAULT_HTTP_SETTINGS, type HttpSettings, serveHttp } from "../../src/server/http.ts";
import { inThreadParser, tempWorkspace, testConfig, writeTree } from "../ingest/_helpers.ts";
import { mcpHeaders, pythonModules } from "../server/_protocol.ts";

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "t", version: "0" },
  },
});
const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

async function _started(settings: Partial<HttpSettings>) {
  const ws = tempWorkspace("codemunch-httplimits-");
  writeTree(ws.root, pythonModules(30));
  const runner = new ToolRunner({
    store: ws.store,
    ingest: testConfig(),
    parser: inThreadParser,
    cwd: ws.root,
    settings: DEFAULT_SETTINGS,
  });
  const server = await serveHttp(
    runner,
    { ...DEFAULT_HTTP_SETTINGS, port: 0, ...settings },
    () => {},
  );
  return {
    ws,
    server,
    /**
     * POST an initialize request from the loopback address `from` (127.0.0.x: a different
     * client address; the server listens on 127.0.0.1, which any 127/8 source can reach).
     */
    init: async (from = "127.0.0.1", headers: Record<string, string> = {}) => {
      const client = Deno.createHttpClient({ localAddress: from });
      try {
        const r = await fetch(`http://127.0.0.1:${server.port}/mcp`, {
          method: "POST",
          headers: { ...HEADERS, ...headers },
          body: INIT,
          client,
        });
        await r.body?.cancel();
        return r.status;
      } finally {
        client.close();
      }
    },
    dispose: async () => {
      await server.shutdown();
      await runner.close();
      ws.dispose();
    },
  };
}

Deno.test("http: a client opening sessions in a loop does not lock others out", async () => {
  const s = await _started({
    token: "secret-token",
    maxSessions: 20,
    maxSessionsPerClient: 8,
  });
  const auth = { authorization: "Bearer secret-token" };
  try {
    const statuses = new Set<number>();
    for (let i = 0; i < 100; i++) statuses.add(await s.init("127.0.0.1", auth));
    equal([...statuses].join(), "200");
    ok(s.server.sessions() <= 8, `${s.server.sessions()} sessions`);
    // Another client (another loopback address) still gets a session.
    equal(await s.init("127.0.0.2", auth), 200);
  } finally {
    await s.dispose();
  }
});

Deno.test("http: a half-sent body is answered 408 at the body timeout", async () => {
  const s = await _started({ bodyTimeoutMs: 500 });
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: s.server.port });
    await conn.write(new TextEncoder().encode(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${s.server.port}\r\n` +
        `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Content-Length: 1000\r\n\r\n{"jsonrpc":`,
    ));
    const started = performance.now();
    const buf = new Uint8Array(4096);
    const n = await conn.read(buf);
    const ms = performance.now() - started;
    conn.close();
    const raw = new TextDecoder().decode(buf.subarray(0, n ?? 0));
    match(raw, /^HTTP\/1\.1 408/);
    ok(ms < 5000, `${ms} ms`);
  } finally {
    await s.dispose();
  }
});

Deno.test("http: wrong tokens are rate-limited", async () => {
  const s = await _started({ token: "right", authFailuresPerMinute: 5 });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push(await s.init("127.0.0.1", { authorization: `Bearer wrong${i}` }));
    }
    equal(statuses.slice(0, 5).join(), "401,401,401,401,401");
    equal(statuses.slice(5).join(), "429,429,429");
  } finally {
    await s.dispose();
  }
});

Deno.test("http: an Origin on localhost must name the server's own port", async () => {
  const s = await _started({});
  try {
    const port = s.server.port;
    equal(await s.init("127.0.0.1", { origin: `http://localhost:${port}` }), 200);
    equal(await s.init("127.0.0.1", { origin: `http://127.0.0.1:${port}` }), 200);
    equal(await s.init("127.0.0.1", { origin: `http://localhost:${port === 9 ? 10 : 9}` }), 403);
    equal(await s.init("127.0.0.1", { origin: "http://localhost" }), 403);
  } finally {
    await s.dispose();
  }
});

/** Whether the server ends a raw connection (closes it, or answers and closes) within `ms`. */
async function _endedWithin(conn: Deno.Conn, ms: number): Promise<boolean> {
  const buf = new Uint8Array(4096);
  const deadline = Date.now() + ms;
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((done) =>
      timer = setTimeout(() => done("late"), deadline - Date.now())
    );
    const n = await Promise.race([conn.read(buf).catch(() => null), late]);
    clearTimeout(timer);
    if (n === "late") return false;
    if (n === null) return true;
  }
}

Deno.test("http: 300 half-sent request heads are closed at the header timeout; an SDK client goes on", async () => {
  const s = await _started({ headerTimeoutMs: 1000, maxConnectionsPerClient: 256 });
  const port = s.server.port;
  const enc = new TextEncoder();
  const conns: Deno.Conn[] = [];
  const client = Deno.createHttpClient({ localAddress: "127.0.0.2" });
  const sdk = new Client({ name: "codemunch-http-limits", version: "0" });
  try {
    // 300 connections from one address: request heads cut short, one sending nothing at all,
    // and slow drips of one header byte every 100 ms (each byte is in time, the head never is).
    const started = Date.now();
    for (let i = 0; i < 300; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      conns.push(conn);
      if (i % 30 === 1) continue;
      await conn.write(enc.encode(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/js`,
      ));
    }
    const drip = setInterval(() => {
      for (let i = 0; i < 300; i += 30) conns[i]!.write(enc.encode("o")).catch(() => {});
    }, 100);
    // Meanwhile a client of another address works as usual: progress on the call's event stream
    // before its answer, and its standalone event stream stays open past the header timeout.
    const transport = new StreamableHTTPClientTransport(new URL(s.server.url), {
      fetch: (url: string | URL, init?: RequestInit) => fetch(url, { ...init, client }),
    });
    await sdk.connect(transport);
    deepStrictEqual(await sdk.ping(), {});
    const progress: { progress: number; total?: number }[] = [];
    const r = await sdk.callTool(
      { name: "index_folder", arguments: { path: s.ws.root, format: "json" } },
      undefined,
      { onprogress: (p: { progress: number; total?: number }) => progress.push(p) },
    );
    equal(r.isError, undefined, JSON.stringify(r));
    ok(progress.length >= 1, "progress reached the client");
    // The SDK client holds its session's standalone stream (a second one would be 409): open
    // one of another session.
    const init = await fetch(s.server.url, {
      method: "POST",
      headers: HEADERS,
      body: INIT,
      client,
    });
    const session = init.headers.get("mcp-session-id")!;
    await init.body?.cancel();
    const events = await fetch(s.server.url, {
      headers: { ...mcpHeaders(session), accept: "text/event-stream" },
      client,
    });
    equal(events.status, 200);
    match(events.headers.get("content-type") ?? "", /^text\/event-stream/);
    const reader = events.body!.getReader();
    const read = reader.read();
    // Every half-sent connection is ended within the timeout and some slack.
    const ended = await Promise.all(conns.map((c) => _endedWithin(c, 5000)));
    clearInterval(drip);
    equal(ended.filter((e) => !e).length, 0, "half-sent connections still open");
    ok(Date.now() - started < 8000, `${Date.now() - started} ms`);
    // The event stream outlived them all, and the client still gets answers.
    const still = await Promise.race([read, new Promise((d) => setTimeout(() => d("open"), 200))]);
    equal(still, "open");
    await reader.cancel();
    deepStrictEqual(await sdk.ping(), {});
  } finally {
    for (const c of conns) {
      try {
        c.close();
      } catch { /* closed by the server */ }
    }
    await sdk.close().catch(() => {});
    client.close();
    await s.dispose();
  }
});

Deno.test("http: idle sessions close, and a full table recycles the longest idle one", async (t) => {
  await t.step("a session idle past sessionIdleMs is closed", async () => {
    const s = await _started({ sessionIdleMs: 300 });
    try {
      equal(await s.init(), 200);
      equal(s.server.sessions(), 1);
      for (let i = 0; i < 40 && s.server.sessions() > 0; i++) {
        await new Promise((d) => setTimeout(d, 50));
      }
      equal(s.server.sessions(), 0);
    } finally {
      await s.dispose();
    }
  });
  await t.step("a full table closes its longest idle session, else answers 503", async () => {
    const s = await _started({ maxSessions: 3, evictIdleMs: 200 });
    try {
      for (const from of ["127.0.0.2", "127.0.0.3", "127.0.0.4"]) equal(await s.init(from), 200);
      equal(await s.init("127.0.0.5"), 503, "no session idle long enough yet");
      await new Promise((d) => setTimeout(d, 250));
      equal(await s.init("127.0.0.5"), 200);
      equal(s.server.sessions(), 3);
    } finally {
      await s.dispose();
    }
  });
});

Deno.test("http: connections past the per-client limit are closed at once", async () => {
  const s = await _started({ maxConnectionsPerClient: 5 });
  const conns: Deno.Conn[] = [];
  try {
    for (let i = 0; i < 8; i++) {
      conns.push(await Deno.connect({ hostname: "127.0.0.1", port: s.server.port }));
    }
    const ended = await Promise.all(conns.slice(5).map((c) => _endedWithin(c, 2000)));
    deepStrictEqual(ended, [true, true, true]);
    // Another address is not affected.
    equal(await s.init("127.0.0.2"), 200);
  } finally {
    for (const c of conns) {
      try {
        c.close();
      } catch { /* closed by the server */ }
    }
    await s.dispose();
  }
});
