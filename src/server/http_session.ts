/**
 * The sessions of the Streamable HTTP transport. Each one is the SDK's transport
 * (`WebStandardStreamableHTTPServerTransport`: session ids, the per-request event streams, the
 * resumption headers) framing the messages, answered by the method table every transport shares
 * (`protocol.ts`) — no SDK server in between; a notification about a request goes onto that
 * request's stream, before its answer.
 *
 * The table keeps the connection limits (issue 25): one client cannot fill it for everyone (its
 * own sessions are recycled past `maxSessionsPerClient`, and a full table recycles the longest
 * idle one, or answers 503), and idle sessions close after `sessionIdleMs`.
 *
 * @module
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { McpProtocol, Peer } from "./protocol.ts";
import { batchRefusal, duplicateIdError, type RequestId, requestIds } from "./jsonrpc.ts";
import { jsonResponse, jsonRpcBody, rpcErrorResponse } from "./http_body.ts";
import type { HttpSettings } from "./http.ts";

interface _Session {
  transport: WebStandardStreamableHTTPServerTransport;
  /** Where the protocol answers this session (it knows the negotiated protocol version). */
  peer: Peer;
  lastSeen: number;
  /** The client address that opened it. */
  client: string;
  /** The ids of its requests not answered yet (an id is not reused within a session). */
  pending: Set<RequestId>;
}

/** The session seen longest ago. */
function _longestIdle(list: [string, _Session][]): [string, _Session] | undefined {
  let best: [string, _Session] | undefined;
  for (const e of list) if (best === undefined || e[1].lastSeen < best[1].lastSeen) best = e;
  return best;
}

/** The open sessions of one server, all answered by one protocol. */
export class SessionTable {
  readonly #protocol: McpProtocol;
  readonly #settings: HttpSettings;
  readonly #sessions = new Map<string, _Session>();

  constructor(protocol: McpProtocol, settings: HttpSettings) {
    this.#protocol = protocol;
    this.#settings = settings;
  }

  /** Open sessions now. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Answer an MCP request of `client`: in its session (any method), or, for a POST of
   * `initialize` without one, in a new session.
   */
  async handle(req: Request, client: string): Promise<Response> {
    const id = req.headers.get("mcp-session-id");
    const session = id === null ? undefined : this.#sessions.get(id);
    if (id !== null && session === undefined) {
      return rpcErrorResponse(404, -32001, "Session not found: initialize again");
    }
    if (session !== undefined) session.lastSeen = Date.now();
    if (session !== undefined && req.method !== "POST") return session.transport.handleRequest(req);
    if (session === undefined && req.method !== "POST") {
      return rpcErrorResponse(
        400,
        -32000,
        "Bad Request: no session; POST an initialize request first",
      );
    }
    const body = await jsonRpcBody(req, this.#settings.maxBodyBytes, this.#settings.bodyTimeoutMs);
    if (body instanceof Response) return body;
    if (Array.isArray(body.parsed)) {
      // The SDK transport would split any batch; MCP allows them in 2025-03-26 only.
      const refusal = batchRefusal(body.parsed, session?.peer.protocolVersion ?? null);
      if (refusal !== null) return jsonResponse(400, refusal);
    }
    if (session !== undefined) return await this.#inSession(session, req, body.parsed);
    if (!isInitializeRequest(body.parsed)) {
      return rpcErrorResponse(400, -32000, "Bad Request: no valid session id; initialize first");
    }
    const full = await this.#makeRoom(client);
    if (full !== null) return full;
    const transport = await this.#open(client);
    return transport.handleRequest(req, { parsedBody: body.parsed });
  }

  /**
   * A POST of a session: refused with 400 (MCP: input the server cannot accept; the JSON-RPC
   * error carries no id, so the client cannot take it for the first request's answer) when it
   * reuses the id of a request still being answered, else handed to the session's transport. Its
   * request ids are pending until answered, or until the transport refuses the POST unread.
   */
  async #inSession(session: _Session, req: Request, parsed: unknown): Promise<Response> {
    const ids = requestIds(parsed);
    const clash = ids.find((id, i) => session.pending.has(id) || ids.indexOf(id) !== i);
    if (clash !== undefined) return jsonResponse(400, duplicateIdError(clash, null));
    for (const id of ids) session.pending.add(id);
    const forget = () => ids.forEach((id) => session.pending.delete(id));
    try {
      const res = await session.transport.handleRequest(req, { parsedBody: parsed });
      if (res.status !== 200) forget();
      return res;
    } catch (e) {
      forget();
      throw e;
    }
  }

  /** Close the sessions idle longer than `sessionIdleMs`. */
  sweep(now: number): void {
    for (const [id, s] of this.#sessions) {
      if (now - s.lastSeen > this.#settings.sessionIdleMs) this.#close(id);
    }
  }

  /** Close every session. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((id) => this.#close(id)));
  }

  /**
   * Room for a new session of `client`: its own sessions make room for it, a full table gives
   * up its longest idle one; the 503 to send when nothing may be closed, else null.
   */
  async #makeRoom(client: string): Promise<Response | null> {
    const { maxSessionsPerClient, maxSessions, evictIdleMs } = this.#settings;
    const own = [...this.#sessions].filter(([, s]) => s.client === client);
    if (own.length >= maxSessionsPerClient) await this.#close(_longestIdle(own)![0]);
    if (this.#sessions.size < maxSessions) return null;
    const idle = [...this.#sessions].filter(([, s]) => Date.now() - s.lastSeen >= evictIdleMs);
    const oldest = _longestIdle(idle);
    if (oldest === undefined) {
      return rpcErrorResponse(
        503,
        -32000,
        "Too many open sessions; close one (DELETE) or retry later",
        { "retry-after": String(Math.ceil(evictIdleMs / 1000)) },
      );
    }
    await this.#close(oldest[0]);
    return null;
  }

  /** A transport for a new session of `client`, its messages answered by the protocol. */
  async #open(client: string): Promise<WebStandardStreamableHTTPServerTransport> {
    // The transport splits batches itself: the protocol gets one message at a time here.
    const pending = new Set<RequestId>();
    const peer: Peer = {
      send: (message, relatedTo) => {
        // An answer frees its id (before it is written: the client may reuse it once it reads).
        for (const m of Array.isArray(message) ? message : [message]) {
          if (!("method" in m) && (typeof m.id === "string" || typeof m.id === "number")) {
            pending.delete(m.id);
          }
        }
        return transport.send(
          message as JSONRPCMessage,
          relatedTo === undefined ? undefined : { relatedRequestId: relatedTo },
        ).catch(() => {/* the client went away; the call still completes */});
      },
    };
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        maxRequestBodySize: this.#settings.maxBodyBytes,
        onsessioninitialized: (id: string) => {
          this.#sessions.set(id, { transport, peer, lastSeen: Date.now(), client, pending });
        },
        onsessionclosed: (id: string) => void this.#sessions.delete(id),
      });
    transport.onmessage = (message: JSONRPCMessage) => void this.#protocol.receive(message, peer);
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.#sessions.delete(transport.sessionId);
    };
    await transport.start();
    return transport;
  }

  async #close(id: string): Promise<void> {
    const s = this.#sessions.get(id);
    if (s === undefined) return;
    this.#sessions.delete(id);
    await s.transport.close().catch(() => {});
  }
}
