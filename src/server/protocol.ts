/**
 * The MCP methods, one table for every transport: `initialize`, `ping`, `tools/list`,
 * `tools/call`, `prompts/list`, `prompts/get`, `resources/list`, `resources/templates/list` and
 * `resources/read`. A transport only frames messages — stdio reads lines (`stdio.ts`), Streamable
 * HTTP hands over what its SDK transport received (`http.ts`) — and gives a {@linkcode Peer}
 * that writes in order; {@linkcode McpProtocol.receive} answers each message.
 *
 * - `initialize` and `tools/list` are answered from data (`tools_list.json`, generated from the
 *   declarations), so a client gets its tool list before the runner (the tools, the store, zod)
 *   is loaded; it is loaded right after the first `tools/list`, or by the first call.
 * - A `tools/call` with a `progressToken` sends `notifications/progress` through the same peer,
 *   and its result is sent only once every one of its notifications has been written. On a
 *   duplex stream (stdio) it also waits until the client has read them: it sends the client a
 *   `ping` and answers after the client's reply, which the client writes only once it has
 *   handled every message before the ping (the SDK client handles a notification a tick after
 *   reading it, and drops progress it handles after the answer). The order is the code's, not a
 *   timer's; a client that does not answer the ping delays the answer by
 *   {@linkcode BARRIER_TIMEOUT_MS} at most.
 * - Once a call's answer is out, the runner does its idle work (prewarm hooks) — on either
 *   transport.
 * - A request whose id is the id of a request still being answered on the same connection is
 *   refused with -32600 (MCP: an id is never reused within a session); the first one goes on.
 * - Requests run concurrently; notifications and responses from the client are not answered
 *   (whatever their method); an unknown method is -32601, bad params -32602, an unexpected
 *   failure -32603 (logged).
 * - A JSON-RPC batch is answered with one array of answers (none when it held only
 *   notifications) on a connection that negotiated MCP 2025-03-26, the one version with batches;
 *   otherwise, empty, or holding `initialize`, it gets one -32600 (`batchRefusal`).
 *
 * This module loads no SDK, no zod and no tool: the stdio server imports it at start-up.
 *
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };
import toolsList from "./tools_list.json" with { type: "json" };
import { throttledProgress } from "./progress.ts";
import {
  CatalogError,
  getPrompt,
  listResources,
  PROMPTS_LIST,
  readResource,
  RESOURCE_TEMPLATES_LIST,
} from "./catalog.ts";
import {
  batchRefusal,
  classify,
  duplicateIdError,
  errorResponse,
  type RequestId,
} from "./jsonrpc.ts";
import type { ToolRunner } from "./runner.ts";
import { ALL_TOOLS, isServed, notServedReason, type ToolVisibility } from "./tool_profile.ts";

/** Protocol versions, newest first (as the SDK's `SUPPORTED_PROTOCOL_VERSIONS`). */
export const PROTOCOL_VERSIONS = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
] as const;

/** Server name and version. */
export const SERVER_INFO = { name: "codemunch", version: denoJson.version } as const;

/** The `instructions` of `initialize`. */
export const INSTRUCTIONS =
  "codemunch indexes code once and serves symbols, outlines and search results instead of whole files. Start with list_repos (or index_folder for a new folder), then search_symbols / search_text to find code, get_file_outline to see a file's structure, and get_symbol_source to read exactly the symbols you need. Responses may be MUNCH (a compact, lossless text format; header #MUNCH/1) unless you pass format=json.";

/** The `tools/list` result (generated from the tool declarations: `deno task gen`). */
export const TOOLS_LIST: { tools: { name: string }[] } = toolsList;

/** The capabilities `initialize` announces. */
const _CAPABILITIES = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { listChanged: true },
};

/** A JSON-RPC message as sent. */
export type Message = Record<string, unknown>;

/** Where a transport writes: in order, each send resolving once it is written. */
export interface Peer {
  /**
   * Send a message. A notification about a request names it (`relatedTo`), for a transport that
   * routes messages per request (an HTTP request's event stream).
   */
  send(message: Message | Message[], relatedTo?: RequestId): Promise<void>;
  /**
   * One stream both ways (stdio): the client's answers to our requests come back through
   * {@linkcode McpProtocol.receive}, so a ping can confirm what it has read.
   */
  duplex?: boolean;
  /** The protocol version `initialize` negotiated on this connection (set by the protocol). */
  protocolVersion?: string;
}

/** Longest wait for the client's answer to a ping sent before a call's answer, in ms. */
export const BARRIER_TIMEOUT_MS = 2000;

/** One request being answered. */
interface _Call {
  id: RequestId;
  /** The connection the request came on. */
  peer: Peer;
  params: Record<string, unknown>;
  /** Send a notification about this request (written before its answer). */
  notify(method: string, params: Record<string, unknown>): void;
  /** Run once the answer is written. */
  afterAnswer(work: () => void): void;
}

/** A method's handler: the `result` of its answer. */
type _Method = (protocol: McpProtocol, call: _Call) => unknown;

/** What a protocol is built from. */
export interface ProtocolOptions {
  /** The runner (loaded on first use; a rejected load is retried by the next call). */
  runner: () => Promise<ToolRunner>;
  /** Where unexpected failures are logged. @default console.error */
  log?: (message: string) => void;
  /** The tools clients see and may call (tool_profile.ts). @default every tool */
  tools?: ToolVisibility;
}

/** The method table. */
const METHODS: Record<string, _Method> = {
  initialize: (_p, call) => {
    const asked = call.params.protocolVersion;
    const known = typeof asked === "string" &&
      (PROTOCOL_VERSIONS as readonly string[]).includes(asked);
    const version = known ? asked : PROTOCOL_VERSIONS[0];
    call.peer.protocolVersion = version;
    return {
      protocolVersion: version,
      capabilities: _CAPABILITIES,
      serverInfo: SERVER_INFO,
      instructions: INSTRUCTIONS,
    };
  },
  ping: () => ({}),
  "tools/list": (p, call) => {
    // A client lists the tools before calling one: load the runner meanwhile.
    call.afterAnswer(() => p.warm());
    return p.toolsList;
  },
  "tools/call": (p, call) => p.callTool(call),
  "prompts/list": () => PROMPTS_LIST,
  "prompts/get": (p, call) => getPrompt(call.params, () => p.runner()),
  "resources/list": async (p) => listResources(await p.runner()),
  "resources/templates/list": () => RESOURCE_TEMPLATES_LIST,
  "resources/read": async (p, call) => readResource(await p.runner(), call.params),
};

/** The method names this server answers. */
export const METHOD_NAMES: readonly string[] = Object.keys(METHODS);

/** Answers MCP messages for any transport (see the module doc). */
export class McpProtocol {
  readonly #load: () => Promise<ToolRunner>;
  readonly #log: (message: string) => void;
  readonly #tools: ToolVisibility;
  /** The `tools/list` result: the served tools of {@linkcode TOOLS_LIST}. */
  readonly toolsList: { tools: { name: string }[] };
  #runner: Promise<ToolRunner> | null = null;
  readonly #inFlight = new Set<Promise<void>>();
  /** The ids of the requests being answered, per connection. */
  readonly #ids = new WeakMap<Peer, Set<RequestId>>();
  /** Our pings waiting for the client's answer, by id. */
  readonly #pings = new Map<RequestId, () => void>();
  #lastPing = 0;

  constructor(options: ProtocolOptions) {
    this.#load = options.runner;
    this.#log = options.log ?? ((m) => console.error(m));
    this.#tools = options.tools ?? ALL_TOOLS;
    const tools = this.#tools;
    this.toolsList = { tools: TOOLS_LIST.tools.filter((t) => isServed(tools, t.name)) };
  }

  /** The runner, loaded once (a failed load is tried again next time). */
  runner(): Promise<ToolRunner> {
    if (this.#runner === null) {
      this.#runner = this.#load();
      this.#runner.catch(() => this.#runner = null);
    }
    return this.#runner;
  }

  /** Start loading the runner; a failure is reported by the call that needs it. */
  warm(): void {
    setTimeout(() => this.runner().catch(() => {}), 0);
  }

  /** The runner if it was ever loaded (for closing it), else null. */
  loadedRunner(): Promise<ToolRunner> | null {
    return this.#runner;
  }

  /**
   * Answer one parsed message, or a batch of them: a request gets its answer through `peer`; a
   * notification or a response gets none; an invalid message gets -32600. A batch gets one array
   * of its answers, or one -32600 when it may not be batched (see the module doc).
   */
  receive(message: unknown, peer: Peer): Promise<void> {
    if (!Array.isArray(message)) return this.#receiveOne(message, peer);
    const refusal = batchRefusal(message, peer.protocolVersion ?? null);
    if (refusal !== null) return peer.send({ ...refusal });
    return this.#receiveBatch(message, peer);
  }

  /** Answer a batch: its answers collected into one array; notifications pass straight on. */
  async #receiveBatch(batch: unknown[], peer: Peer): Promise<void> {
    const answers: Message[] = [];
    const collector: Peer = {
      duplex: peer.duplex === true,
      send: (message, relatedTo) => {
        if (Array.isArray(message) || "method" in message) return peer.send(message, relatedTo);
        answers.push(message);
        return Promise.resolve();
      },
    };
    await Promise.all(batch.map((m) => this.#receiveOne(m, collector, peer)));
    if (answers.length > 0) await peer.send(answers);
  }

  /** Answer one message arriving through `peer` on the connection `session`. */
  #receiveOne(message: unknown, peer: Peer, session: Peer = peer): Promise<void> {
    const m = classify(message);
    if (m.kind === "invalid") return peer.send({ ...m.error });
    if (m.kind === "response") {
      const id = (message as { id: RequestId }).id;
      this.#pings.get(id)?.();
      this.#pings.delete(id);
    }
    if (m.kind !== "request") return Promise.resolve();
    let ids = this.#ids.get(session);
    if (ids === undefined) this.#ids.set(session, ids = new Set());
    if (ids.has(m.id)) return peer.send({ ...duplicateIdError(m.id, m.id) });
    ids.add(m.id);
    const done = this.#answer(m.id, m.method, m.params, peer);
    this.#inFlight.add(done);
    done.finally(() => {
      this.#inFlight.delete(done);
      ids.delete(m.id);
    });
    return done;
  }

  /** Resolve once every request received so far is answered. */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  async #answer(
    id: RequestId,
    method: string,
    params: Record<string, unknown>,
    peer: Peer,
  ): Promise<void> {
    const notes: Promise<void>[] = [];
    const after: (() => void)[] = [];
    const call: _Call = {
      id,
      peer,
      params,
      notify: (m, p) => void notes.push(peer.send({ jsonrpc: "2.0", method: m, params: p }, id)),
      afterAnswer: (work) => void after.push(work),
    };
    let answer: Message;
    try {
      const handler = Object.hasOwn(METHODS, method) ? METHODS[method]! : undefined;
      answer = handler === undefined
        ? { ...errorResponse(id, -32601, "Method not found") }
        : { jsonrpc: "2.0", id, result: await handler(this, call) };
    } catch (e) {
      answer = { ...this.#failure(id, method, e) };
    }
    // Every notification of the request is written, and on stdio read, before its answer.
    await Promise.all(notes);
    if (notes.length > 0 && peer.duplex === true) await this.#readBack(peer);
    await peer.send(answer);
    for (const work of after) work();
  }

  /** Resolve once the client answered a ping sent now (or after BARRIER_TIMEOUT_MS). */
  async #readBack(peer: Peer): Promise<void> {
    const id = `codemunch-read-${++this.#lastPing}`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answered = new Promise<void>((done) => {
      this.#pings.set(id, done);
      timer = setTimeout(done, BARRIER_TIMEOUT_MS);
    });
    await peer.send({ jsonrpc: "2.0", id, method: "ping" });
    await answered;
    clearTimeout(timer);
    this.#pings.delete(id);
  }

  #failure(id: RequestId, method: string, e: unknown) {
    if (e instanceof CatalogError) return errorResponse(id, e.code, e.message);
    this.#log(`codemunch: internal error in ${method}: ${e instanceof Error ? e.stack : e}`);
    return errorResponse(id, -32603, `Internal error: ${e instanceof Error ? e.message : e}`);
  }

  /** `tools/call`: the runner's answer as MCP content; then the runner's idle work. */
  async callTool(call: _Call): Promise<Record<string, unknown>> {
    const name = call.params.name;
    if (typeof name !== "string") {
      throw new CatalogError("Invalid params: tools/call needs a tool name");
    }
    const meta = call.params._meta as { progressToken?: unknown } | undefined;
    const token = meta?.progressToken;
    const onProgress = typeof token === "string" || typeof token === "number"
      ? throttledProgress(token, (p) => call.notify("notifications/progress", { ...p }))
      : undefined;
    const runner = await this.runner();
    const own = runner.canonicalName(name);
    const refused = own === undefined ? null : notServedReason(this.#tools, own);
    if (refused !== null) {
      const text = JSON.stringify({ error: refused, code: "tool_disabled" });
      return { content: [{ type: "text", text }], isError: true };
    }
    const result = await runner.call(
      name,
      call.params.arguments,
      onProgress === undefined ? {} : { onProgress },
    );
    // The answer is written: prepare for the next call.
    call.afterAnswer(() => setTimeout(() => runner.idle(), 0));
    return {
      content: [{ type: "text", text: result.text }],
      ...(result.isError ? { isError: true } : {}),
    };
  }
}
