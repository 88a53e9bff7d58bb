/**
 * HTTP connection limits (issue 25, medium 8), against `serveHttp` on loopback with the real
 * runner: one client opening sessions in a loop no longer locks others out (its own sessions are
 * recycled), a half-sent body is answered 408 at the body timeout instead of staying open,
 * wrong tokens are rate-limited (429 after the limit), and an `Origin` on localhost must name the
 * server's own port.
 */
import { equal, match, ok } from "node:assert/strict";
import { ToolRunner } from "../../src/server/runner.ts";
import { DEFAULT_SETTINGS } from "../../src/server/config.ts";
import { DEFAULT_HTTP_SETTINGS, type HttpSettings, serveHttp } from "../../src/server/http.ts";
import { inThreadParser, tempWorkspace, testConfig } from "../ingest/_helpers.ts";

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
