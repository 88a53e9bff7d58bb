/**
 * MCP over Streamable HTTP: the SDK's own client against `serveHttp` on 127.0.0.1, with the
 * real runner, parser and SQLite behind it.
 */
import { deepStrictEqual, equal, match, ok, rejects, throws } from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { decode } from "../../mod.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { DEFAULT_SETTINGS } from "../../src/server/config.ts";
import {
  DEFAULT_HTTP_SETTINGS,
  type HttpServer,
  type HttpSettings,
  httpSettingsFromEnv,
  isLoopback,
  serveHttp,
} from "../../src/server/http.ts";
import { inThreadParser, tempWorkspace, testConfig, writeTree } from "../ingest/_helpers.ts";

async function started(settings: Partial<HttpSettings> = {}) {
  const ws = tempWorkspace("codemunch-http-");
  writeTree(ws.root, {
    "lib/alpha.py": "def alpha():\n    pass\n",
    "lib/beta.ts": "export function beta(): number {\n  return 1;\n}\n",
    "lib/gamma.go": "package lib\n\nfunc Gamma() {}\n",
  });
  const runner = new ToolRunner({
    store: ws.store,
    ingest: testConfig(),
    parser: inThreadParser,
    cwd: ws.root,
    settings: DEFAULT_SETTINGS,
  });
  const server: HttpServer = await serveHttp(
    runner,
    { ...DEFAULT_HTTP_SETTINGS, port: 0, ...settings },
    () => {},
  );
  const clients: Client[] = [];
  const client = async (headers: Record<string, string> = {}) => {
    const c = new Client({ name: "codemunch-http-test", version: "0" });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }),
    );
    clients.push(c);
    return c;
  };
  return {
    ws,
    runner,
    server,
    client,
    dispose: async () => {
      await Promise.all(clients.map((c) => c.close().catch(() => {})));
      await server.shutdown();
      await runner.close();
      ws.dispose();
    },
  };
}

async function callTool(c: Client, name: string, args: Record<string, unknown>) {
  const r = await c.callTool({ name, arguments: { format: "json", ...args } });
  const text = (r.content as { text: string }[])[0]!.text;
  return { isError: r.isError === true, body: decode(text) as Record<string, unknown> };
}

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
const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

Deno.test("http: the SDK client lists the tools and calls them", async () => {
  const s = await started();
  try {
    const c = await s.client();
    const tools = await c.listTools();
    for (const name of ["index_folder", "search_symbols", "index_file", "resolve_repo"]) {
      ok(tools.tools.some((t: { name: string }) => t.name === name), name);
    }
    const indexed = await callTool(c, "index_folder", { path: s.ws.root });
    equal(indexed.isError, false, JSON.stringify(indexed.body));
    const repo = String(indexed.body.repo);
    const hits = await callTool(c, "search_symbols", { repo, query: "beta" });
    deepStrictEqual(
      (hits.body.results as { name: string; file: string }[]).map((h) => [h.name, h.file])[0],
      ["beta", "lib/beta.ts"],
    );
    const health = await fetch(s.server.url.replace(/\/mcp$/, "/health"));
    const body = await health.json() as { status: string; sessions: number };
    deepStrictEqual([health.status, body.status, body.sessions], [200, "ok", 1]);
  } finally {
    await s.dispose();
  }
});

Deno.test("http: the bearer token is required when set", async () => {
  const s = await started({ token: "s3cret-token" });
  try {
    const bare = await fetch(s.server.url, { method: "POST", headers: MCP_HEADERS, body: INIT });
    equal(bare.status, 401);
    match(bare.headers.get("www-authenticate") ?? "", /Bearer/);
    await bare.body?.cancel();
    const wrong = await fetch(s.server.url, {
      method: "POST",
      headers: { ...MCP_HEADERS, authorization: "Bearer nope" },
      body: INIT,
    });
    equal(wrong.status, 401);
    await wrong.body?.cancel();
    await rejects(s.client());
    const c = await s.client({ authorization: "Bearer s3cret-token" });
    ok((await c.listTools()).tools.length > 0);
  } finally {
    await s.dispose();
  }
});

Deno.test("http: a non-loopback host without a token refuses to start", () => {
  const runner = {} as ToolRunner;
  throws(
    () => serveHttp(runner, { ...DEFAULT_HTTP_SETTINGS, host: "0.0.0.0", port: 0 }),
    /Refusing to serve on 0\.0\.0\.0 without a token: set JCODEMUNCH_HTTP_TOKEN/,
  );
  ok(isLoopback("127.0.0.1") && isLoopback("localhost") && isLoopback("[::1]"));
  ok(!isLoopback("0.0.0.0") && !isLoopback("10.0.0.1") && !isLoopback("example.com"));
  const env = httpSettingsFromEnv((n) =>
    ({ JCODEMUNCH_HTTP_TOKEN: "t", JCODEMUNCH_RATE_LIMIT: "60" } as Record<string, string>)[n]
  );
  deepStrictEqual([env.token, env.rateLimit, env.host, env.port], ["t", 60, "127.0.0.1", 8901]);
  throws(() => httpSettingsFromEnv((n) => (n === "JCODEMUNCH_RATE_LIMIT" ? "x" : undefined)));
});

Deno.test("http: a foreign Origin or Host is rejected (DNS rebinding)", async () => {
  const s = await started();
  try {
    const bad = await fetch(s.server.url, {
      method: "POST",
      headers: { ...MCP_HEADERS, origin: "http://evil.example" },
      body: INIT,
    });
    equal(bad.status, 403);
    match(await bad.text(), /Origin http:\/\/evil\.example not allowed/);
    // fetch() will not send another Host: speak HTTP/1.1 directly.
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: s.server.port });
    await conn.write(new TextEncoder().encode(
      `POST /mcp HTTP/1.1\r\nHost: evil.example:${s.server.port}\r\n` +
        `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Content-Length: ${INIT.length}\r\nConnection: close\r\n\r\n${INIT}`,
    ));
    let raw = "";
    const buf = new Uint8Array(4096);
    for (let n; (n = await conn.read(buf)) !== null;) {
      raw += new TextDecoder().decode(buf.subarray(0, n));
    }
    conn.close();
    match(raw, /^HTTP\/1\.1 403/);
    match(raw, /Host header not allowed/);
    const own = await fetch(s.server.url, {
      method: "POST",
      headers: { ...MCP_HEADERS, origin: `http://localhost:${s.server.port}` },
      body: INIT,
    });
    equal(own.status, 200);
    await own.body?.cancel();
  } finally {
    await s.dispose();
  }
});

Deno.test("http: the rate limit answers 429 with Retry-After; big bodies 413", async () => {
  const s = await started({ rateLimit: 3, maxBodyBytes: 4096 });
  try {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 5; i++) {
      const r = await fetch(s.server.url, { method: "POST", headers: MCP_HEADERS, body: INIT });
      statuses.push(r.status);
      if (r.status === 429) retryAfter = r.headers.get("retry-after");
      await r.body?.cancel();
    }
    deepStrictEqual(statuses, [200, 200, 200, 429, 429]);
    ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, String(retryAfter));
    const health = await fetch(s.server.url.replace(/\/mcp$/, "/health"));
    equal(health.status, 200);
    await health.body?.cancel();
  } finally {
    await s.dispose();
  }
  const t = await started({ maxBodyBytes: 4096 });
  try {
    const big = await fetch(t.server.url, {
      method: "POST",
      headers: MCP_HEADERS,
      body: INIT.replace('"t"', JSON.stringify("x".repeat(10_000))),
    });
    equal(big.status, 413);
    await big.body?.cancel();
  } finally {
    await t.dispose();
  }
});

Deno.test("http: 20 concurrent clients with mixed calls during an index all get correct answers", async () => {
  const s = await started();
  try {
    const first = await s.client();
    const indexed = await callTool(first, "index_folder", { path: s.ws.root });
    const repo = String(indexed.body.repo);
    // A second folder to index while the clients read the first one.
    const other = join(s.ws.root, "..", "other");
    const many: Record<string, string> = {};
    for (let i = 0; i < 300; i++) many[`m${i}.py`] = `def other_${i}():\n    return ${i}\n`;
    writeTree(other, many);
    const clients = await Promise.all(Array.from({ length: 20 }, () => s.client()));
    const indexing = callTool(first, "index_folder", { path: other });
    indexing.catch(() => {}); // awaited below; a failure must not escape when an assert fails
    const expected: Record<string, (b: Record<string, unknown>) => void> = {
      search_symbols: (b) => deepStrictEqual((b.results as { name: string }[])[0]!.name, "Gamma"),
      get_file_outline: (b) =>
        deepStrictEqual((b.symbols as { name: string }[]).map((x) => x.name), ["alpha"]),
      get_symbol_source: (b) => match(String(b.source), /^function beta\(\): number/),
      list_repos: (b) => ok(Number(b.count) >= 1),
      resolve_repo: (b) => equal(b.repo, repo),
    };
    const args: Record<string, Record<string, unknown>> = {
      search_symbols: { repo, query: "Gamma" },
      get_file_outline: { repo, file_path: "lib/alpha.py" },
      get_symbol_source: { repo, symbol_id: "lib/beta.ts::beta#function" },
      list_repos: {},
      resolve_repo: { path: join(s.ws.root, "lib/alpha.py") },
    };
    const tools = Object.keys(args);
    const results = await Promise.all(
      clients.flatMap((c: Client, i: number) =>
        Array.from({ length: 5 }, async (_, j) => {
          const tool = tools[(i + j) % tools.length]!;
          const r = await callTool(c, tool, args[tool]!);
          equal(r.isError, false, `${tool}: ${JSON.stringify(r.body)}`);
          expected[tool]!(r.body);
          return tool;
        })
      ),
    );
    equal(results.length, 100);
    const done = await indexing;
    equal(done.isError, false, JSON.stringify(done.body));
    equal(done.body.file_count, 300);
    equal(s.server.sessions(), 21);
  } finally {
    await s.dispose();
  }
});

Deno.test("http: a client that never reads its response does not stall another", async () => {
  const s = await started();
  try {
    const fast = await s.client();
    const indexed = await callTool(fast, "index_folder", { path: s.ws.root });
    const repo = String(indexed.body.repo);
    // A slow client: a session of its own, a call whose (SSE) answer it never reads.
    const init = await fetch(s.server.url, { method: "POST", headers: MCP_HEADERS, body: INIT });
    const session = init.headers.get("mcp-session-id")!;
    await init.body?.cancel();
    const headers = {
      ...MCP_HEADERS,
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-06-18",
    };
    const note = await fetch(s.server.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    await note.body?.cancel();
    const unread = await fetch(s.server.url, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "get_repo_outline", arguments: { repo } },
      }),
    });
    equal(unread.status, 200);
    // The other client goes on as usual.
    for (let i = 0; i < 10; i++) {
      const r = await callTool(fast, "search_symbols", { repo, query: "alpha" });
      equal((r.body.results as { name: string }[])[0]!.name, "alpha");
    }
    await unread.body?.cancel();
  } finally {
    await s.dispose();
  }
});
