/**
 * MCP over Streamable HTTP (`codemunch serve --http`): one server process for a team of agents.
 * Every session gets its own SDK server and transport (`WebStandardStreamableHTTPServerTransport`,
 * on `Deno.serve`), and all of them share one {@linkcode ToolRunner}: one store, one read model,
 * one query cache, one watcher. Calls of different clients run concurrently; a slow client only
 * holds its own stream.
 *
 * In front of the transport, in this order: `/health` (no token; for load balancers), the size of
 * the request body, the bearer token, the `Host` and `Origin` headers (DNS rebinding), the
 * per-client rate limit.
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `JCODEMUNCH_HTTP_TOKEN` | — | bearer token clients must send; required unless the host is loopback |
 * | `JCODEMUNCH_RATE_LIMIT` | 0 (off) | requests per minute per client address; over it: 429 with `Retry-After` |
 * | `JCODEMUNCH_HTTP_ALLOWED_ORIGINS` | — | extra allowed `Origin` values (comma-separated) besides the server's own |
 * | `JCODEMUNCH_HTTP_MAX_BODY` | 1048576 | largest request body, in bytes (413 over it) |
 * | `JCODEMUNCH_HTTP_MAX_SESSIONS` | 1000 | most open sessions; when full, the longest idle (1 min or more) is closed, else 503; idle ones close after 30 minutes |
 * | `JCODEMUNCH_HTTP_MAX_SESSIONS_PER_CLIENT` | 32 | most open sessions per client address: a new one closes that client's longest idle |
 * | `JCODEMUNCH_HTTP_BODY_TIMEOUT_MS` | 30000 | longest wait for a request body (408 after it) |
 * | `JCODEMUNCH_HTTP_AUTH_FAILURES` | 10 | wrong or missing tokens per client address per minute before 429 |
 *
 * Connection limits (issue 25): one client cannot fill the session table for everyone (its own
 * sessions are recycled, and a full table recycles the longest idle one), a half-sent body does
 * not hold a request open, guessing the token is rate-limited, and an `Origin` on a loopback
 * host must name the server's own port (another local web page is another origin).
 */
import { timingSafeEqual } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { createSessionServer, SERVER_INFO } from "./server.ts";
import type { ToolRunner } from "./runner.ts";
import { envInteger } from "./config.ts";

/** Settings of the HTTP transport. */
export interface HttpSettings {
  /** @default "127.0.0.1" */
  host: string;
  /** 0 picks a free port. @default 8901 */
  port: number;
  /** Bearer token; null: none (allowed on loopback only). */
  token: string | null;
  /** Requests per minute per client address; 0 turns the limit off. @default 0 */
  rateLimit: number;
  /** Extra allowed `Origin` values. */
  allowedOrigins: string[];
  /** @default 1048576 */
  maxBodyBytes: number;
  /** @default 1000 */
  maxSessions: number;
  /** Idle time after which a session is closed, in ms. @default 1800000 */
  sessionIdleMs: number;
  /** @default 32 */
  maxSessionsPerClient: number;
  /** Least idle time of a session closed to make room for a new one, in ms. @default 60000 */
  evictIdleMs: number;
  /** Longest wait for a request body, in ms. @default 30000 */
  bodyTimeoutMs: number;
  /** Failed authentications per client per minute before 429. @default 10 */
  authFailuresPerMinute: number;
}

/** The defaults, without looking at the environment. */
export const DEFAULT_HTTP_SETTINGS: HttpSettings = {
  host: "127.0.0.1",
  port: 8901,
  token: null,
  rateLimit: 0,
  allowedOrigins: [],
  maxBodyBytes: 1024 * 1024,
  maxSessions: 1000,
  sessionIdleMs: 30 * 60 * 1000,
  maxSessionsPerClient: 32,
  evictIdleMs: 60_000,
  bodyTimeoutMs: 30_000,
  authFailuresPerMinute: 10,
};

/** Read the HTTP settings from the environment (see the module doc); bad values throw. */
export function httpSettingsFromEnv(
  env: (name: string) => string | undefined,
  overrides: Partial<HttpSettings> = {},
): HttpSettings {
  const int = (name: string, fallback: number, min: number) => envInteger(env, name, fallback, min);
  const token = env("JCODEMUNCH_HTTP_TOKEN")?.trim();
  return {
    ...DEFAULT_HTTP_SETTINGS,
    token: token ? token : null,
    rateLimit: int("JCODEMUNCH_RATE_LIMIT", 0, 0),
    allowedOrigins: (env("JCODEMUNCH_HTTP_ALLOWED_ORIGINS") ?? "").split(",").map((o) => o.trim())
      .filter((o) => o !== ""),
    maxBodyBytes: int("JCODEMUNCH_HTTP_MAX_BODY", DEFAULT_HTTP_SETTINGS.maxBodyBytes, 1),
    maxSessions: int("JCODEMUNCH_HTTP_MAX_SESSIONS", DEFAULT_HTTP_SETTINGS.maxSessions, 1),
    maxSessionsPerClient: int(
      "JCODEMUNCH_HTTP_MAX_SESSIONS_PER_CLIENT",
      DEFAULT_HTTP_SETTINGS.maxSessionsPerClient,
      1,
    ),
    bodyTimeoutMs: int("JCODEMUNCH_HTTP_BODY_TIMEOUT_MS", DEFAULT_HTTP_SETTINGS.bodyTimeoutMs, 1),
    authFailuresPerMinute: int(
      "JCODEMUNCH_HTTP_AUTH_FAILURES",
      DEFAULT_HTTP_SETTINGS.authFailuresPerMinute,
      1,
    ),
    ...overrides,
  };
}

/** Whether a host name or address is this machine's loopback. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/** A running HTTP server. */
export interface HttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:8901/mcp`. */
  url: string;
  /** The port it listens on (useful with port 0). */
  port: number;
  /** Open sessions now. */
  sessions(): number;
  /** Stop listening, close every session; the runner stays open (its owner closes it). */
  shutdown(): Promise<void>;
  /** Resolves when the server stopped. */
  finished: Promise<void>;
}

interface _Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
  /** The client address that opened it. */
  client: string;
}

/** A fixed-window-free limiter: each client's requests of the last minute. */
class _RateLimiter {
  readonly #perMinute: number;
  readonly #hits = new Map<string, number[]>();

  constructor(perMinute: number) {
    this.#perMinute = perMinute;
  }

  /** Seconds to wait before the next request is allowed, or 0 when it is allowed (and counted). */
  take(client: string, now = Date.now()): number {
    if (this.#perMinute <= 0) return 0;
    const since = now - 60_000;
    let hits = this.#hits.get(client);
    if (hits === undefined) this.#hits.set(client, hits = []);
    while (hits.length > 0 && hits[0]! <= since) hits.shift();
    if (hits.length >= this.#perMinute) return Math.max(1, Math.ceil((hits[0]! - since) / 1000));
    hits.push(now);
    return 0;
  }

  /** Forget clients with no request in the last minute. */
  sweep(now = Date.now()): void {
    for (const [client, hits] of this.#hits) {
      if (hits.length === 0 || hits[hits.length - 1]! <= now - 60_000) this.#hits.delete(client);
    }
  }
}

/** The session seen longest ago. */
function _longestIdle(list: [string, _Session][]): [string, _Session] | undefined {
  let best: [string, _Session] | undefined;
  for (const e of list) if (best === undefined || e[1].lastSeen < best[1].lastSeen) best = e;
  return best;
}

function _json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function _rpcError(status: number, code: number, message: string, headers = {}): Response {
  return _json(status, { jsonrpc: "2.0", error: { code, message }, id: null }, headers);
}

function _sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given), b = new TextEncoder().encode(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A body that did not arrive in time. */
class _BodyTimeout extends Error {}

/**
 * Read a body of at most `max` bytes within `timeoutMs`; null when it is larger. Throws
 * `_BodyTimeout` when it is late (a half-sent request must not hold the server's resources).
 */
async function _readBody(req: Request, max: number, timeoutMs: number): Promise<Uint8Array | null> {
  if (req.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new _BodyTimeout()), timeoutMs);
  });
  late.catch(() => {});
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), late]);
      if (done) break;
      size += value.length;
      if (size > max) {
        await reader.cancel().catch(() => {});
        return null;
      }
      chunks.push(value);
    }
  } catch (e) {
    await reader.cancel().catch(() => {});
    throw e;
  } finally {
    clearTimeout(timer);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) out.set(c, at), at += c.length;
  return out;
}

/** The JSON body of a POST (at most `max` bytes), or the error response to send instead. */
async function _jsonBody(
  req: Request,
  max: number,
  timeoutMs: number,
): Promise<{ parsed: unknown } | Response> {
  let body: Uint8Array | null;
  try {
    body = await _readBody(req, max, timeoutMs);
  } catch (e) {
    if (!(e instanceof _BodyTimeout)) throw e;
    return _rpcError(408, -32000, `Request body not received within ${timeoutMs} ms`);
  }
  if (body === null) return _rpcError(413, -32000, `Request body over ${max} bytes`);
  try {
    return { parsed: JSON.parse(new TextDecoder().decode(body)) };
  } catch {
    return _rpcError(400, -32700, "Parse error: the body is not JSON");
  }
}

/**
 * Serve MCP over Streamable HTTP at `/mcp` (and `/health`) with tools run by `runner`. Refuses
 * to start (throws `RangeError`) on a non-loopback host without a token.
 */
export function serveHttp(
  runner: ToolRunner,
  settings: HttpSettings,
  log: (message: string) => void = (m) => console.error(m),
): Promise<HttpServer> {
  if (!isLoopback(settings.host) && settings.token === null) {
    throw new RangeError(
      `Refusing to serve on ${settings.host} without a token: set JCODEMUNCH_HTTP_TOKEN (clients send "Authorization: Bearer <token>"), or bind to 127.0.0.1`,
    );
  }
  const sessions = new Map<string, _Session>();
  const limiter = new _RateLimiter(settings.rateLimit);
  const authFailures = new _RateLimiter(settings.authFailuresPerMinute);
  /** The port the server listens on (known once it listens). */
  let ownPort = settings.port;
  const abort = new AbortController();
  const hostForUrl = settings.host.includes(":") ? `[${settings.host}]` : settings.host;

  const allowedHost = (host: string | null) => {
    if (host === null) return false;
    const name = host.replace(/:\d+$/, "");
    if (isLoopback(settings.host)) return isLoopback(name);
    return true; // behind a proxy or on a LAN name: the token guards it
  };
  const allowedOrigin = (origin: string) => {
    if (settings.allowedOrigins.includes(origin)) return true;
    try {
      const u = new URL(origin);
      const h = u.hostname.replace(/^\[|\]$/g, "");
      // The server's own page origins: loopback names, or the configured host.
      const sameHost = (isLoopback(h) && isLoopback(settings.host)) || h === settings.host;
      // On this machine any local page can send requests: the port tells ours from another's.
      const port = u.port === "" ? (u.protocol === "https:" ? 443 : 80) : Number(u.port);
      return sameHost && (ownPort === 0 || port === ownPort);
    } catch {
      return false;
    }
  };

  const closeSession = async (id: string) => {
    const s = sessions.get(id);
    if (s === undefined) return;
    sessions.delete(id);
    await s.server.close().catch(() => {});
  };

  const handler = async (req: Request, info: Deno.ServeHandlerInfo): Promise<Response> => {
    const url = new URL(req.url);
    if (url.pathname === "/health") {
      return _json(200, {
        status: "ok",
        name: SERVER_INFO.name,
        version: SERVER_INFO.version,
        sessions: sessions.size,
      });
    }
    if (url.pathname !== "/mcp") {
      return _json(404, { error: "Not found: the MCP endpoint is /mcp, health is /health" });
    }
    const declared = Number(req.headers.get("content-length") ?? "0");
    if (declared > settings.maxBodyBytes) {
      return _rpcError(413, -32000, `Request body over ${settings.maxBodyBytes} bytes`);
    }
    const client = (info.remoteAddr as Deno.NetAddr).hostname ?? "unknown";
    if (settings.token !== null) {
      const auth = req.headers.get("authorization") ?? "";
      const m = /^Bearer\s+(.+)$/i.exec(auth);
      if (m === null || !_sameSecret(m[1]!.trim(), settings.token)) {
        // Each failure counts: past the limit a client waits, so a token cannot be guessed fast.
        const wait = authFailures.take(client);
        if (wait > 0) {
          return _rpcError(429, -32000, "Too many failed authentications: try again later", {
            "retry-after": String(wait),
          });
        }
        return _rpcError(401, -32001, "Unauthorized: send Authorization: Bearer <token>", {
          "www-authenticate": 'Bearer realm="codemunch"',
        });
      }
    }
    if (!allowedHost(req.headers.get("host"))) {
      return _rpcError(403, -32000, "Forbidden: Host header not allowed");
    }
    const origin = req.headers.get("origin");
    if (origin !== null && !allowedOrigin(origin)) {
      return _rpcError(
        403,
        -32000,
        `Forbidden: Origin ${origin} not allowed (add it to JCODEMUNCH_HTTP_ALLOWED_ORIGINS)`,
      );
    }
    const wait = limiter.take(client);
    if (wait > 0) {
      return _rpcError(429, -32000, `Too many requests: limit ${settings.rateLimit}/minute`, {
        "retry-after": String(wait),
      });
    }

    const sessionId = req.headers.get("mcp-session-id");
    if (sessionId !== null) {
      const s = sessions.get(sessionId);
      if (s === undefined) return _rpcError(404, -32001, "Session not found: initialize again");
      s.lastSeen = Date.now();
      if (req.method !== "POST") return s.transport.handleRequest(req);
      const message = await _jsonBody(req, settings.maxBodyBytes, settings.bodyTimeoutMs);
      if (message instanceof Response) return message;
      return s.transport.handleRequest(req, { parsedBody: message.parsed });
    }
    if (req.method !== "POST") {
      return _rpcError(400, -32000, "Bad Request: no session; POST an initialize request first");
    }
    const message = await _jsonBody(req, settings.maxBodyBytes, settings.bodyTimeoutMs);
    if (message instanceof Response) return message;
    const parsed = message.parsed;
    if (!isInitializeRequest(parsed)) {
      return _rpcError(400, -32000, "Bad Request: no valid session id; initialize first");
    }
    // A client's own sessions make room for its new one; a full table gives up its longest idle.
    const own = [...sessions].filter(([, s]) => s.client === client);
    if (own.length >= settings.maxSessionsPerClient) await closeSession(_longestIdle(own)![0]);
    if (sessions.size >= settings.maxSessions) {
      const idle = [...sessions].filter(([, s]) => Date.now() - s.lastSeen >= settings.evictIdleMs);
      const oldest = _longestIdle(idle);
      if (oldest === undefined) {
        return _rpcError(503, -32000, "Too many open sessions; close one (DELETE) or retry later", {
          "retry-after": String(Math.ceil(settings.evictIdleMs / 1000)),
        });
      }
      await closeSession(oldest[0]);
    }
    const server = createSessionServer(runner);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      maxRequestBodySize: settings.maxBodyBytes,
      onsessioninitialized: (id: string) => {
        sessions.set(id, { transport, server, lastSeen: Date.now(), client });
      },
      onsessionclosed: (id: string) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(req, { parsedBody: parsed });
  };

  const sweeper = setInterval(() => {
    const now = Date.now();
    limiter.sweep(now);
    authFailures.sweep(now);
    for (const [id, s] of sessions) {
      if (now - s.lastSeen > settings.sessionIdleMs) closeSession(id);
    }
  }, 60_000);

  let listening!: (addr: Deno.NetAddr) => void;
  const listened = new Promise<Deno.NetAddr>((done) => listening = done);
  let server: Deno.HttpServer;
  try {
    server = Deno.serve({
      hostname: settings.host,
      port: settings.port,
      signal: abort.signal,
      onListen: (addr) => listening(addr as Deno.NetAddr),
      onError: (e) => {
        log(`codemunch: HTTP handler error: ${e instanceof Error ? e.stack : e}`);
        return _rpcError(500, -32603, "Internal server error");
      },
    }, handler);
  } catch (e) {
    clearInterval(sweeper);
    return Promise.reject(e);
  }
  return listened.then((addr) => (ownPort = addr.port, {
    url: `http://${hostForUrl}:${addr.port}/mcp`,
    port: addr.port,
    sessions: () => sessions.size,
    shutdown: async () => {
      clearInterval(sweeper);
      await Promise.all([...sessions.keys()].map(closeSession));
      abort.abort();
      await server.finished;
    },
    finished: server.finished.finally(() => clearInterval(sweeper)),
  }));
}
