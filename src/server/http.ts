/**
 * MCP over Streamable HTTP (`codemunch serve --http`): one server process for a team of agents.
 * Every session gets its own transport (`http_session.ts`, on our HTTP/1.1 server `http1.ts`),
 * answered by the one method table every transport uses (`protocol.ts`), and all of them share one
 * {@linkcode ToolRunner}: one store, one read model, one query cache, one watcher. Calls of
 * different clients run concurrently; a slow client only holds its own stream.
 *
 * In front of the sessions, in this order: `/health` (no token; for load balancers), the size of
 * the request body, the bearer token, the `Host` and `Origin` headers (DNS rebinding), the
 * per-client rate limit (`http_gate.ts`); then the body is read within its limits
 * (`http_body.ts`) and handed to its session.
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
 * | `JCODEMUNCH_HTTP_HEADER_TIMEOUT_MS` | 10000 | longest time for a request's head, from its first byte (the connection closes after it) |
 * | `JCODEMUNCH_HTTP_MAX_CONNECTIONS_PER_CLIENT` | 256 | most open connections per client address; more are closed at once |
 *
 * Connection limits (issue 25): one client cannot fill the session table for everyone (its own
 * sessions are recycled, and a full table recycles the longest idle one), a half-sent head or
 * body does not hold a connection open (the server speaks HTTP/1.1 itself, `http1.ts`, since
 * `Deno.serve` has no header timeout), guessing the token is rate-limited, and an `Origin` on a
 * loopback host must name the server's own port (another local web page is another origin).
 */
import { McpProtocol, SERVER_INFO } from "./protocol.ts";
import { jsonResponse, rpcErrorResponse } from "./http_body.ts";
import { HttpGate, isLoopback } from "./http_gate.ts";
import { SessionTable } from "./http_session.ts";
import type { ToolRunner } from "./runner.ts";
import { envInteger } from "./config.ts";
import { DEFAULT_HTTP1_LIMITS, type Http1Server, serveHttp1 } from "./http1.ts";

export { isLoopback };

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
  /** Longest time for a request's head from its first byte, in ms. @default 10000 */
  headerTimeoutMs: number;
  /** Longest wait for the next request on a kept-alive connection, in ms. @default 30000 */
  keepAliveTimeoutMs: number;
  /** Most open connections per client address. @default 256 */
  maxConnectionsPerClient: number;
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
  headerTimeoutMs: DEFAULT_HTTP1_LIMITS.headerTimeoutMs,
  keepAliveTimeoutMs: DEFAULT_HTTP1_LIMITS.keepAliveTimeoutMs,
  maxConnectionsPerClient: DEFAULT_HTTP1_LIMITS.maxConnectionsPerClient,
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
    headerTimeoutMs: int(
      "JCODEMUNCH_HTTP_HEADER_TIMEOUT_MS",
      DEFAULT_HTTP_SETTINGS.headerTimeoutMs,
      1,
    ),
    maxConnectionsPerClient: int(
      "JCODEMUNCH_HTTP_MAX_CONNECTIONS_PER_CLIENT",
      DEFAULT_HTTP_SETTINGS.maxConnectionsPerClient,
      1,
    ),
    ...overrides,
  };
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
  const protocol = new McpProtocol({
    runner: () => Promise.resolve(runner),
    log,
    tools: runner.visibility,
  });
  const sessions = new SessionTable(protocol, settings);
  /** The port the server listens on (known once it listens). */
  let ownPort = settings.port;
  const gate = new HttpGate(settings, () => ownPort);
  const handler = async (req: Request, remote: Deno.NetAddr): Promise<Response> => {
    const url = new URL(req.url);
    if (url.pathname === "/health") {
      const { name, version } = SERVER_INFO;
      return jsonResponse(200, { status: "ok", name, version, sessions: sessions.size });
    }
    if (url.pathname !== "/mcp") {
      return jsonResponse(404, { error: "Not found: the MCP endpoint is /mcp, health is /health" });
    }
    if (Number(req.headers.get("content-length") ?? "0") > settings.maxBodyBytes) {
      return rpcErrorResponse(413, -32000, `Request body over ${settings.maxBodyBytes} bytes`);
    }
    const client = remote.hostname;
    return gate.refusal(req, client) ?? await sessions.handle(req, client);
  };
  const sweeper = setInterval(() => {
    const now = Date.now();
    gate.sweep(now);
    sessions.sweep(now);
  }, Math.min(60_000, Math.max(100, settings.sessionIdleMs)));
  const hostForUrl = settings.host.includes(":") ? `[${settings.host}]` : settings.host;
  let server: Http1Server;
  try {
    server = serveHttp1({
      hostname: settings.host,
      port: settings.port,
      headerTimeoutMs: settings.headerTimeoutMs,
      keepAliveTimeoutMs: settings.keepAliveTimeoutMs,
      maxHeadBytes: DEFAULT_HTTP1_LIMITS.maxHeadBytes,
      maxConnectionsPerClient: settings.maxConnectionsPerClient,
      onError: (e) => {
        log(`codemunch: HTTP handler error: ${e instanceof Error ? e.stack : e}`);
        return rpcErrorResponse(500, -32603, "Internal server error");
      },
    }, handler);
  } catch (e) {
    clearInterval(sweeper);
    return Promise.reject(e);
  }
  ownPort = server.addr.port;
  return Promise.resolve({
    url: `http://${hostForUrl}:${server.addr.port}/mcp`,
    port: server.addr.port,
    sessions: () => sessions.size,
    shutdown: async () => {
      clearInterval(sweeper);
      await sessions.closeAll();
      await server.shutdown();
    },
    finished: server.finished.finally(() => clearInterval(sweeper)),
  });
}
