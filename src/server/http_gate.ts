/**
 * What the Streamable HTTP transport checks before a request reaches a session, in this order:
 * the bearer token (failed attempts rate-limited per client), the `Host` and `Origin` headers
 * (DNS rebinding: on a loopback host an `Origin` must name the server's own port, since another
 * local web page is another origin), and the per-client rate limit.
 *
 * @module
 */
import { timingSafeEqual } from "node:crypto";
import { rpcErrorResponse } from "./http_body.ts";
import type { HttpSettings } from "./http.ts";

/** Whether a host name or address is this machine's loopback. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

/** A sliding-window limiter: each client's requests of the last minute. */
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

function _sameSecret(given: string, expected: string): boolean {
  const a = new TextEncoder().encode(given), b = new TextEncoder().encode(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The checks in front of the sessions (see the module doc). */
export class HttpGate {
  readonly #settings: HttpSettings;
  readonly #ownPort: () => number;
  readonly #limiter: _RateLimiter;
  readonly #authFailures: _RateLimiter;

  /** `ownPort`: the port the server listens on (0 until it is known). */
  constructor(settings: HttpSettings, ownPort: () => number) {
    this.#settings = settings;
    this.#ownPort = ownPort;
    this.#limiter = new _RateLimiter(settings.rateLimit);
    this.#authFailures = new _RateLimiter(settings.authFailuresPerMinute);
  }

  /** The response refusing `req` from `client`, or null when it may go on. */
  refusal(req: Request, client: string): Response | null {
    return this.#unauthorized(req, client) ?? this.#foreign(req) ?? this.#tooMany(client);
  }

  /** Forget clients not seen in the last minute. */
  sweep(now: number): void {
    this.#limiter.sweep(now);
    this.#authFailures.sweep(now);
  }

  #unauthorized(req: Request, client: string): Response | null {
    const token = this.#settings.token;
    if (token === null) return null;
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.get("authorization") ?? "");
    if (m !== null && _sameSecret(m[1]!.trim(), token)) return null;
    // Each failure counts: past the limit a client waits, so a token cannot be guessed fast.
    const wait = this.#authFailures.take(client);
    if (wait > 0) {
      return rpcErrorResponse(429, -32000, "Too many failed authentications: try again later", {
        "retry-after": String(wait),
      });
    }
    return rpcErrorResponse(401, -32001, "Unauthorized: send Authorization: Bearer <token>", {
      "www-authenticate": 'Bearer realm="codemunch"',
    });
  }

  #foreign(req: Request): Response | null {
    if (!this.#allowedHost(req.headers.get("host"))) {
      return rpcErrorResponse(403, -32000, "Forbidden: Host header not allowed");
    }
    const origin = req.headers.get("origin");
    if (origin === null || this.#allowedOrigin(origin)) return null;
    return rpcErrorResponse(
      403,
      -32000,
      `Forbidden: Origin ${origin} not allowed (add it to JCODEMUNCH_HTTP_ALLOWED_ORIGINS)`,
    );
  }

  #tooMany(client: string): Response | null {
    const wait = this.#limiter.take(client);
    if (wait === 0) return null;
    return rpcErrorResponse(
      429,
      -32000,
      `Too many requests: limit ${this.#settings.rateLimit}/minute`,
      { "retry-after": String(wait) },
    );
  }

  #allowedHost(host: string | null): boolean {
    if (host === null) return false;
    const name = host.replace(/:\d+$/, "");
    if (isLoopback(this.#settings.host)) return isLoopback(name);
    return true; // behind a proxy or on a LAN name: the token guards it
  }

  #allowedOrigin(origin: string): boolean {
    if (this.#settings.allowedOrigins.includes(origin)) return true;
    try {
      const u = new URL(origin);
      const h = u.hostname.replace(/^\[|\]$/g, "");
      // The server's own page origins: loopback names, or the configured host.
      const sameHost = (isLoopback(h) && isLoopback(this.#settings.host)) ||
        h === this.#settings.host;
      // On this machine any local page can send requests: the port tells ours from another's.
      const port = u.port === "" ? (u.protocol === "https:" ? 443 : 80) : Number(u.port);
      const own = this.#ownPort();
      return sameHost && (own === 0 || port === own);
    } catch {
      return false;
    }
  }
}
