/**
 * HTTP/1.1 on `Deno.listen`, with the deadlines `Deno.serve` lacks (issue 25, item 8): `Deno.serve`
 * hands its handler nothing before a request's head is complete and has no header timeout, so 300
 * half-sent requests stayed open for as long as their clients liked. Here the connection is ours:
 * a request's head (request line and headers) must arrive whole within `headerTimeoutMs` of its
 * first byte (of the accept, on a new connection), and at most `maxHeadBytes` of it; a kept-alive
 * connection waits `keepAliveTimeoutMs` for the next request; one client address holds at most
 * `maxConnectionsPerClient` connections. The body is the handler's to read (it has its own
 * deadline, `http_body.ts`).
 *
 * Each request becomes a standard `Request` for the handler and its `Response` is written back:
 * an event stream (`text/event-stream`) or any body of unknown length chunk by chunk as it comes
 * (chunked encoding; an HTTP/1.0 client gets the bytes and the end of the connection), anything
 * else whole with its `content-length`. Connections are kept alive unless the client says
 * `Connection: close`, speaks HTTP/1.0, or left part of its body unread. A client that goes away
 * while its event stream is open cancels that stream.
 *
 * The head is read strictly (RFC 9112): a request line of method, origin-form target and version;
 * `name: value` header lines (no space before the colon, no folded lines, no control characters);
 * one `Host`; a body framed by `Content-Length` (digits only, one value) or by
 * `Transfer-Encoding: chunked` alone, never both (request smuggling). Anything else is 400.
 *
 * @module
 */

/** Options of {@linkcode serveHttp1}. */
export interface Http1Options {
  hostname: string;
  /** 0 picks a free port. */
  port: number;
  /** Longest time for a request's head from its first byte (from the accept on a new connection), in ms. @default 10000 */
  headerTimeoutMs: number;
  /** Longest wait for the next request on a kept-alive connection, in ms. @default 30000 */
  keepAliveTimeoutMs: number;
  /** Largest request head, in bytes (431 over it). @default 65536 */
  maxHeadBytes: number;
  /** Most open connections of one client address; more are closed at once. @default 256 */
  maxConnectionsPerClient: number;
  /** The answer when the handler throws. */
  onError: (error: unknown) => Response;
}

/** The defaults of {@linkcode Http1Options}' limits. */
export const DEFAULT_HTTP1_LIMITS: Http1Limits = {
  headerTimeoutMs: 10_000,
  keepAliveTimeoutMs: 30_000,
  maxHeadBytes: 64 * 1024,
  maxConnectionsPerClient: 256,
};

/** The limits of {@linkcode Http1Options}. */
export type Http1Limits = Pick<
  Http1Options,
  "headerTimeoutMs" | "keepAliveTimeoutMs" | "maxHeadBytes" | "maxConnectionsPerClient"
>;

/** Answers a request; `remote` is the client's address. */
export type Http1Handler = (req: Request, remote: Deno.NetAddr) => Response | Promise<Response>;

/** A listening server. */
export interface Http1Server {
  addr: Deno.NetAddr;
  /** Open connections now. */
  connections(): number;
  /** Stop listening and close every connection. */
  shutdown(): Promise<void>;
  /** Resolves once the server stopped and every connection closed. */
  finished: Promise<void>;
}

const _CRLF = new Uint8Array([13, 10]);
const _END_OF_HEAD = new Uint8Array([13, 10, 13, 10]);
const _TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const _REQUEST_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) (\/[\x21-\x7e]*) HTTP\/1\.([01])$/;
/** A `Host` value: a name or address and an optional port; no path, userinfo or list. */
const _HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-_~%]+)(?::\d{1,5})?$/;
const _HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "upgrade",
  "proxy-connection",
]);
const _REASONS: Record<number, string> = {
  200: "OK",
  202: "Accepted",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
};

/** A request line or header line too long, a bad chunk, or the client gone mid-body. */
class _Malformed extends Error {}

/** Bytes as a string of the same code units (a header's ByteString). */
function _latin1(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return s;
}

function _indexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = Math.max(0, from); i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

const _TIMEOUT = Symbol("timeout");

/** `p`, or `_TIMEOUT` after `ms`. */
async function _within<T>(p: Promise<T>, ms: number): Promise<T | typeof _TIMEOUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<typeof _TIMEOUT>((done) => timer = setTimeout(() => done(_TIMEOUT), ms)),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A connection's unread bytes and its one pending read. */
class _Wire {
  readonly conn: Deno.TcpConn;
  #buf: Uint8Array = new Uint8Array(0);
  #reading: Promise<boolean> | null = null;
  #ended = false;

  constructor(conn: Deno.TcpConn) {
    this.conn = conn;
  }

  get buffered(): Uint8Array {
    return this.#buf;
  }

  /** Read more bytes into the buffer (one read at a time, shared); false once the peer is gone. */
  more(): Promise<boolean> {
    if (this.#ended) return Promise.resolve(false);
    this.#reading ??= this.#read().finally(() => this.#reading = null);
    return this.#reading;
  }

  async #read(): Promise<boolean> {
    const chunk = new Uint8Array(64 * 1024);
    let n: number | null;
    try {
      n = await this.conn.read(chunk);
    } catch {
      n = null;
    }
    if (n === null) {
      this.#ended = true;
      return false;
    }
    const joined = new Uint8Array(this.#buf.length + n);
    joined.set(this.#buf);
    joined.set(chunk.subarray(0, n), this.#buf.length);
    this.#buf = joined;
    return true;
  }

  /** Remove and return the first `n` buffered bytes. */
  take(n: number): Uint8Array {
    const out = this.#buf.subarray(0, n);
    this.#buf = this.#buf.subarray(n);
    return out;
  }

  /** The next line (without its CRLF), at most `max` bytes; throws `_Malformed` past it or at EOF. */
  async line(max: number): Promise<string> {
    let from = 0;
    for (;;) {
      const at = _indexOf(this.#buf, _CRLF, from);
      if (at >= 0) {
        const s = _latin1(this.#buf.subarray(0, at));
        this.take(at + 2);
        return s;
      }
      if (this.#buf.length > max) throw new _Malformed("line too long");
      from = this.#buf.length - 1;
      if (!(await this.more())) throw new _Malformed("connection closed");
    }
  }

  async write(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.length;) at += await this.conn.write(bytes.subarray(at));
  }

  close(): void {
    this.#ended = true;
    try {
      this.conn.close();
    } catch { /* already closed */ }
  }
}

interface _Head {
  method: string;
  target: string;
  /** 0 or 1 (HTTP/1.0 or HTTP/1.1). */
  minor: number;
  headers: Headers;
  host: string;
  /** Body framing: a length, or chunked. */
  length: number | "chunked";
  keepAlive: boolean;
  expectContinue: boolean;
}

/** A request head from its text, or the status to refuse it with. */
function _parseHead(text: string): _Head | number {
  const lines = text.split("\r\n");
  const m = _REQUEST_LINE.exec(lines[0]!);
  if (m === null) return 400;
  const headers = new Headers();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    if (colon <= 0) return 400;
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, "");
    // deno-lint-ignore no-control-regex
    if (!_TOKEN.test(name) || /[\x00-\x08\x0a-\x1f\x7f]/.test(value)) return 400;
    try {
      headers.append(name, value);
    } catch {
      return 400;
    }
  }
  const minor = Number(m[3]);
  const host = headers.get("host");
  if (host === null || !_HOST.test(host)) return 400;
  const te = headers.get("transfer-encoding");
  const cl = headers.get("content-length");
  let length: number | "chunked" = 0;
  if (te !== null) {
    if (cl !== null || minor === 0) return 400;
    if (te.toLowerCase() !== "chunked") return 501;
    length = "chunked";
  } else if (cl !== null) {
    if (!/^\d{1,15}$/.test(cl)) return 400;
    length = Number(cl);
  }
  const connection = (headers.get("connection") ?? "").toLowerCase().split(",").map((t) =>
    t.trim()
  );
  const expect = headers.get("expect");
  if (expect !== null && expect.toLowerCase() !== "100-continue") return 417;
  return {
    method: m[1]!,
    target: m[2]!,
    minor,
    headers,
    host,
    length,
    keepAlive: minor === 1 && !connection.includes("close"),
    expectContinue: expect !== null && minor === 1,
  };
}

/** The request body as the handler reads it; `done` once all of it was read. */
class _Body {
  done: boolean;
  readonly stream: ReadableStream<Uint8Array> | null;
  readonly #wire: _Wire;
  readonly #head: _Head;
  #left: number;
  #chunkedEnd = false;
  #continued = false;

  constructor(wire: _Wire, head: _Head, maxLine: number) {
    this.#wire = wire;
    this.#head = head;
    this.#left = head.length === "chunked" ? 0 : head.length;
    const hasBody = head.length === "chunked" || head.length > 0;
    this.done = !hasBody;
    // A GET or HEAD has no body for the handler; one sent anyway stays unread (and the
    // connection closes after the answer).
    if (!hasBody || head.method === "GET" || head.method === "HEAD") {
      this.stream = null;
      return;
    }
    let cancelled = false;
    this.stream = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const chunk = await this.#next(maxLine);
          if (cancelled) return;
          if (chunk === null) controller.close();
          else controller.enqueue(chunk);
        } catch (e) {
          if (!cancelled) controller.error(e);
        }
      },
      // Not waiting for a pending read: the handler gives up on a late body without waiting
      // for its next byte.
      cancel: () => void (cancelled = true),
    }, { highWaterMark: 0 });
  }

  async #next(maxLine: number): Promise<Uint8Array | null> {
    if (this.#head.expectContinue && !this.#continued) {
      this.#continued = true;
      await this.#wire.write(new TextEncoder().encode("HTTP/1.1 100 Continue\r\n\r\n"));
    }
    if (this.#left === 0 && this.#head.length === "chunked" && !this.#chunkedEnd) {
      await this.#chunkStart(maxLine);
    }
    if (this.#left === 0) {
      this.done = true;
      return null;
    }
    if (this.#wire.buffered.length === 0 && !(await this.#wire.more())) {
      throw new _Malformed("connection closed mid-body");
    }
    const chunk = this.#wire.take(Math.min(this.#left, this.#wire.buffered.length)).slice();
    this.#left -= chunk.length;
    if (this.#left === 0 && this.#head.length === "chunked") {
      if ((await this.#wire.line(2)) !== "") throw new _Malformed("chunk without CRLF");
    }
    if (this.#left === 0 && this.#head.length !== "chunked") this.done = true;
    return chunk;
  }

  /** Read a chunk-size line (and at the last chunk, the trailers). */
  async #chunkStart(maxLine: number): Promise<void> {
    const m = /^([0-9A-Fa-f]{1,12})(?:[ \t]*;.*)?$/.exec(await this.#wire.line(maxLine));
    if (m === null) throw new _Malformed("bad chunk size");
    this.#left = parseInt(m[1]!, 16);
    if (this.#left > 0) return;
    this.#chunkedEnd = true;
    for (let trailers = 0; (await this.#wire.line(maxLine)) !== ""; trailers++) {
      if (trailers > 100) throw new _Malformed("too many trailers");
    }
  }
}

function _statusLine(status: number, text: string): string {
  return `HTTP/1.1 ${status} ${text || _REASONS[status] || "Status"}\r\n`;
}

/** A bare answer that ends the connection (the handler never saw the request). */
function _refusal(status: number): Uint8Array {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    error: { code: -32000, message: `${_REASONS[status] ?? "Bad request"}` },
    id: null,
  });
  return new TextEncoder().encode(
    _statusLine(status, "") +
      `content-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** One client connection: requests in turn, each answered before the next head is read. */
class _Connection {
  readonly #wire: _Wire;
  readonly #options: Http1Options;
  readonly #handler: Http1Handler;
  readonly remote: Deno.NetAddr;
  #closing = false;

  constructor(conn: Deno.TcpConn, options: Http1Options, handler: Http1Handler) {
    this.#wire = new _Wire(conn);
    this.#options = options;
    this.#handler = handler;
    this.remote = conn.remoteAddr;
    try {
      conn.setNoDelay(true);
    } catch { /* closed already */ }
  }

  close(): void {
    this.#closing = true;
    this.#wire.close();
  }

  async serve(): Promise<void> {
    try {
      for (let fresh = true; !this.#closing; fresh = false) {
        const head = await this.#readHead(fresh);
        if (head === null) return;
        if (typeof head === "number") {
          await _within(this.#wire.write(_refusal(head)), 1000).catch(() => {});
          return;
        }
        if (!(await this.#exchange(head))) return;
      }
    } catch {
      // The peer went away or sent garbage mid-body: nothing more to say on this connection.
    } finally {
      this.#wire.close();
    }
  }

  /**
   * The next request head; null when the connection ended or sat idle (nothing of a request
   * sent in time), or the status to refuse a late, oversized or malformed head with.
   */
  async #readHead(fresh: boolean): Promise<_Head | number | null> {
    const { headerTimeoutMs, keepAliveTimeoutMs, maxHeadBytes } = this.#options;
    let started = fresh;
    let deadline = Date.now() + (fresh ? headerTimeoutMs : keepAliveTimeoutMs);
    let from = 0;
    for (;;) {
      let buf = this.#wire.buffered;
      // RFC 9112 2.2: empty lines before a request line are ignored.
      while (buf.length >= 2 && buf[0] === 13 && buf[1] === 10) {
        this.#wire.take(2);
        buf = this.#wire.buffered;
        from = 0;
      }
      if (!started && buf.length > 0) {
        started = true;
        deadline = Date.now() + headerTimeoutMs;
      }
      const end = _indexOf(buf, _END_OF_HEAD, from);
      if (end >= 0 && end + 4 <= maxHeadBytes) {
        const text = _latin1(buf.subarray(0, end));
        this.#wire.take(end + 4);
        return _parseHead(text);
      }
      if (buf.length > maxHeadBytes) return 431;
      from = Math.max(0, buf.length - 3);
      const left = deadline - Date.now();
      const more = left <= 0 ? _TIMEOUT : await _within(this.#wire.more(), left);
      if (more === _TIMEOUT) return buf.length > 0 ? 408 : null;
      if (!more) return null;
    }
  }

  /** Answer one request; whether the connection stays open for the next. */
  async #exchange(head: _Head): Promise<boolean> {
    const body = new _Body(this.#wire, head, this.#options.maxHeadBytes);
    const aborted = new AbortController();
    let req: Request;
    try {
      req = new Request(`http://${head.host}${head.target}`, {
        method: head.method,
        headers: head.headers,
        body: body.stream,
        signal: aborted.signal,
      });
    } catch {
      await this.#wire.write(_refusal(400));
      return false;
    }
    let res: Response;
    try {
      res = await this.#handler(req, this.remote);
    } catch (e) {
      res = this.#options.onError(e);
    }
    const keepAlive = head.keepAlive && body.done && !this.#closing;
    return await this.#respond(res, head, keepAlive, body, aborted) && keepAlive;
  }

  /** Write `res`; false when the connection broke. */
  async #respond(
    res: Response,
    head: _Head,
    keepAlive: boolean,
    body: _Body,
    aborted: AbortController,
  ): Promise<boolean> {
    const s = res.status;
    const bodiless = head.method === "HEAD" || s === 204 || s === 304 || s < 200;
    let text = _statusLine(s, res.statusText);
    for (const [name, value] of res.headers) {
      if (!_HOP_BY_HOP.has(name) && name !== "set-cookie") text += `${name}: ${value}\r\n`;
    }
    for (const cookie of res.headers.getSetCookie()) text += `set-cookie: ${cookie}\r\n`;
    if (!keepAlive) text += "connection: close\r\n";
    const enc = new TextEncoder();
    const streamed = res.body !== null && !bodiless &&
      (res.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
    try {
      if (!streamed) {
        const bytes = res.body === null || bodiless
          ? new Uint8Array()
          : new Uint8Array(await res.arrayBuffer());
        if (bodiless) await res.body?.cancel().catch(() => {});
        if (s >= 200 && s !== 204 && s !== 304) text += `content-length: ${bytes.length}\r\n`;
        const headBytes = enc.encode(text + "\r\n");
        const all = new Uint8Array(headBytes.length + (head.method === "HEAD" ? 0 : bytes.length));
        all.set(headBytes);
        if (head.method !== "HEAD") all.set(bytes, headBytes.length);
        await this.#wire.write(all);
        return true;
      }
      const chunked = head.minor === 1;
      if (chunked) text += "transfer-encoding: chunked\r\n";
      await this.#wire.write(enc.encode(text + "\r\n"));
      return await this.#stream(res.body!, chunked, body, aborted);
    } catch {
      await res.body?.cancel().catch(() => {});
      return false;
    }
  }

  /** Copy an event stream as it comes; the client leaving cancels it. */
  async #stream(
    stream: ReadableStream<Uint8Array>,
    chunked: boolean,
    body: _Body,
    aborted: AbortController,
  ): Promise<boolean> {
    const reader = stream.getReader();
    let gone = false;
    if (body.done) {
      // Watch for the client leaving (any bytes it sends meanwhile are the next request's).
      void this.#wire.more().then((open) => {
        if (open) return;
        gone = true;
        aborted.abort();
        reader.cancel().catch(() => {});
      });
    }
    const enc = new TextEncoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (gone) return false;
      if (done) break;
      if (value.length === 0) continue;
      if (!chunked) {
        await this.#wire.write(value);
        continue;
      }
      const size = enc.encode(value.length.toString(16) + "\r\n");
      const frame = new Uint8Array(size.length + value.length + 2);
      frame.set(size);
      frame.set(value, size.length);
      frame.set(_CRLF, size.length + value.length);
      await this.#wire.write(frame);
    }
    if (chunked) await this.#wire.write(enc.encode("0\r\n\r\n"));
    return chunked;
  }
}

/** Serve HTTP/1.1 on `hostname:port` (see the module doc); throws when it cannot listen. */
export function serveHttp1(options: Http1Options, handler: Http1Handler): Http1Server {
  const listener = Deno.listen({ hostname: options.hostname, port: options.port });
  const open = new Set<_Connection>();
  const perClient = new Map<string, number>();
  const tasks = new Set<Promise<void>>();
  let stopped = false;
  const accepting = (async () => {
    while (!stopped) {
      let conn: Deno.TcpConn;
      try {
        conn = await listener.accept();
      } catch (e) {
        if (stopped || e instanceof Deno.errors.BadResource) return;
        // Out of file descriptors and the like: wait a little and accept again.
        await new Promise((done) => setTimeout(done, 50));
        continue;
      }
      const client = conn.remoteAddr.hostname;
      const count = perClient.get(client) ?? 0;
      if (count >= options.maxConnectionsPerClient) {
        conn.close();
        continue;
      }
      perClient.set(client, count + 1);
      const c = new _Connection(conn, options, handler);
      open.add(c);
      const task = c.serve().finally(() => {
        open.delete(c);
        const n = (perClient.get(client) ?? 1) - 1;
        if (n === 0) perClient.delete(client);
        else perClient.set(client, n);
        tasks.delete(task);
      });
      tasks.add(task);
    }
  })();
  const stop = async () => {
    if (!stopped) {
      stopped = true;
      try {
        listener.close();
      } catch { /* closed */ }
    }
    await accepting;
    for (const c of open) c.close();
    await Promise.all([...tasks]);
  };
  let finish!: () => void;
  const finished = new Promise<void>((done) => finish = done);
  return {
    addr: listener.addr,
    connections: () => open.size,
    shutdown: () => stop().then(finish),
    finished,
  };
}
