/**
 * The HTTP/1.1 server under the MCP endpoint (`src/server/http1.ts`), spoken to over raw TCP
 * sockets: framing both ways (lengths, chunked bodies, event streams), keep-alive and
 * `Connection: close`, pipelining, `Expect: 100-continue`, the strict head rules (smuggling
 * shapes refused), and the deadlines. Deno's own `fetch` is the client where a real client is
 * enough.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import {
  DEFAULT_HTTP1_LIMITS,
  type Http1Handler,
  type Http1Limits,
  serveHttp1,
} from "../../src/server/http1.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A handler echoing the method, path and body, or streaming events on `/events`. */
function _echo(events: { cancelled: number }): Http1Handler {
  return async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/events") {
      let n = 0;
      let timer: ReturnType<typeof setInterval> | undefined;
      const stream = new ReadableStream<Uint8Array>({
        start: (c) => {
          timer = setInterval(() => c.enqueue(enc.encode(`data: ${n++}\n\n`)), 20);
        },
        cancel: () => {
          clearInterval(timer);
          events.cancelled++;
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    }
    const body = req.body === null ? "" : await req.text();
    return new Response(`${req.method} ${url.pathname} ${body}`, {
      headers: { "content-type": "text/plain", "x-host": req.headers.get("host") ?? "" },
    });
  };
}

function _serve(limits: Partial<Http1Limits> = {}) {
  const events = { cancelled: 0 };
  const server = serveHttp1({
    hostname: "127.0.0.1",
    port: 0,
    ...DEFAULT_HTTP1_LIMITS,
    ...limits,
    onError: () => new Response("boom", { status: 500 }),
  }, _echo(events));
  return { server, events, port: server.addr.port };
}

interface _Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Reads whole responses off a raw connection (length, chunked, or to the end). */
class _Raw {
  readonly conn: Deno.Conn;
  #buf = "";
  #ended = false;
  constructor(conn: Deno.Conn) {
    this.conn = conn;
  }
  static async open(port: number): Promise<_Raw> {
    return new _Raw(await Deno.connect({ hostname: "127.0.0.1", port }));
  }
  send(text: string): Promise<number> {
    return this.conn.write(enc.encode(text));
  }
  async #more(): Promise<boolean> {
    const b = new Uint8Array(65536);
    const n = await this.conn.read(b).catch(() => null);
    if (n === null) return !(this.#ended = true);
    this.#buf += dec.decode(b.subarray(0, n));
    return true;
  }
  /** Whether the server closed the connection (reading nothing more). */
  async closed(): Promise<boolean> {
    while (!this.#ended) if (!(await this.#more())) break;
    return this.#buf === "";
  }
  async #until(test: () => number): Promise<number> {
    for (;;) {
      const at = test();
      if (at >= 0) return at;
      if (!(await this.#more())) throw new Error(`connection ended: ${JSON.stringify(this.#buf)}`);
    }
  }
  async answer(): Promise<_Answer> {
    const end = await this.#until(() => this.#buf.indexOf("\r\n\r\n"));
    const [line, ...rest] = this.#buf.slice(0, end).split("\r\n");
    this.#buf = this.#buf.slice(end + 4);
    const headers: Record<string, string> = {};
    for (const h of rest) {
      const i = h.indexOf(":");
      headers[h.slice(0, i).toLowerCase()] = h.slice(i + 1).trim();
    }
    const status = Number(line!.split(" ")[1]);
    let body = "";
    if (headers["content-length"] !== undefined) {
      const n = Number(headers["content-length"]);
      await this.#until(() => this.#buf.length >= n ? 0 : -1);
      body = this.#buf.slice(0, n);
      this.#buf = this.#buf.slice(n);
    } else if (headers["transfer-encoding"] === "chunked") {
      for (;;) {
        const eol = await this.#until(() => this.#buf.indexOf("\r\n"));
        const size = parseInt(this.#buf.slice(0, eol), 16);
        await this.#until(() => this.#buf.length >= eol + 2 + size + 2 ? 0 : -1);
        body += this.#buf.slice(eol + 2, eol + 2 + size);
        this.#buf = this.#buf.slice(eol + 2 + size + 2);
        if (size === 0) break;
      }
    } else if (status >= 200) {
      while (await this.#more());
      body = this.#buf;
      this.#buf = "";
    }
    return { status, headers, body };
  }
  close() {
    try {
      this.conn.close();
    } catch { /* closed by the server */ }
  }
}

const GET = (path: string, extra = "") => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}\r\n`;

Deno.test("http1: requests and answers are framed both ways", async (t) => {
  const s = _serve();
  try {
    await t.step("keep-alive: two requests on one connection, answers with a length", async () => {
      const raw = await _Raw.open(s.port);
      await raw.send(GET("/a"));
      const a = await raw.answer();
      equal(a.status, 200);
      equal(a.body, "GET /a ");
      equal(a.headers["content-length"], "7");
      await raw.send(GET("/b"));
      equal((await raw.answer()).body, "GET /b ");
      raw.close();
    });
    await t.step("pipelined requests are answered in order", async () => {
      const raw = await _Raw.open(s.port);
      await raw.send(
        "POST /p HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nabc" + GET("/q"),
      );
      equal((await raw.answer()).body, "POST /p abc");
      equal((await raw.answer()).body, "GET /q ");
      raw.close();
    });
    await t.step("a chunked request body is decoded, trailers skipped", async () => {
      const raw = await _Raw.open(s.port);
      await raw.send(
        "POST /c HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n" +
          "3\r\nabc\r\n4;ext=1\r\ndefg\r\n0\r\nX-Trailer: t\r\n\r\n",
      );
      equal((await raw.answer()).body, "POST /c abcdefg");
      await raw.send(GET("/after"));
      equal((await raw.answer()).body, "GET /after ");
      raw.close();
    });
    await t.step("Expect: 100-continue gets 100 before the body is sent", async () => {
      const raw = await _Raw.open(s.port);
      await raw.send(
        "POST /e HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n",
      );
      equal((await raw.answer()).status, 100);
      await raw.send("hi");
      equal((await raw.answer()).body, "POST /e hi");
      raw.close();
    });
    await t.step("Connection: close and HTTP/1.0 end the connection after the answer", async () => {
      for (
        const req of [GET("/x", "Connection: close\r\n"), "GET /x HTTP/1.0\r\nHost: h\r\n\r\n"]
      ) {
        const raw = await _Raw.open(s.port);
        await raw.send(req);
        const a = await raw.answer();
        equal(a.status, 200);
        equal(a.headers["connection"], "close");
        ok(await raw.closed());
        raw.close();
      }
    });
    await t.step("a body left unread ends the connection after the answer", async () => {
      const raw = await _Raw.open(s.port);
      await raw.send("GET /g HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\n");
      const a = await raw.answer();
      equal(a.body, "GET /g ");
      equal(a.headers["connection"], "close");
      ok(await raw.closed());
      raw.close();
    });
    await t.step("fetch gets the same answers", async () => {
      const r = await fetch(`http://127.0.0.1:${s.port}/f`, { method: "POST", body: "xyz" });
      equal(await r.text(), "POST /f xyz");
      equal(r.headers.get("x-host"), `127.0.0.1:${s.port}`);
    });
  } finally {
    await s.server.shutdown();
  }
});

Deno.test("http1: an event stream is sent as it comes, and cancelled when the client leaves", async () => {
  const s = _serve();
  try {
    const r = await fetch(`http://127.0.0.1:${s.port}/events`);
    match(r.headers.get("content-type")!, /^text\/event-stream/);
    const reader = r.body!.getReader();
    const first = dec.decode((await reader.read()).value);
    match(first, /^data: 0\n\n/);
    await reader.cancel();
    for (let i = 0; i < 50 && s.events.cancelled === 0; i++) {
      await new Promise((d) => setTimeout(d, 20));
    }
    equal(s.events.cancelled, 1);
  } finally {
    await s.server.shutdown();
  }
});

Deno.test("http1: malformed and smuggling-shaped heads are refused", async (t) => {
  const s = _serve({ maxHeadBytes: 4096 });
  const cases: [string, string, number][] = [
    [
      "Content-Length with Transfer-Encoding",
      "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
      400,
    ],
    [
      "two Content-Lengths",
      "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
      400,
    ],
    ["a non-digit length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +3\r\n\r\n", 400],
    [
      "a transfer coding other than chunked",
      "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n",
      501,
    ],
    ["a space before the colon", "GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400],
    ["a folded header line", "GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n  2\r\n\r\n", 400],
    ["no Host", "GET / HTTP/1.1\r\nX-A: 1\r\n\r\n", 400],
    ["a Host with a path", "GET / HTTP/1.1\r\nHost: h/evil\r\n\r\n", 400],
    ["an absolute-form target", "GET http://h/ HTTP/1.1\r\nHost: h\r\n\r\n", 400],
    ["HTTP/2 on the wire", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400],
    [
      "a head over the limit",
      `GET / HTTP/1.1\r\nHost: h\r\nX-Big: ${"a".repeat(5000)}\r\n\r\n`,
      431,
    ],
  ];
  try {
    for (const [name, text, status] of cases) {
      await t.step(name, async () => {
        const raw = await _Raw.open(s.port);
        await raw.send(text);
        const a = await raw.answer();
        equal(a.status, status);
        equal(a.headers["connection"], "close");
        ok(await raw.closed());
        raw.close();
      });
    }
  } finally {
    await s.server.shutdown();
  }
});

Deno.test("http1: a head must arrive within the header timeout; idle connections close", async (t) => {
  const s = _serve({ headerTimeoutMs: 300, keepAliveTimeoutMs: 600 });
  try {
    await t.step("part of a head: 408, then closed", async () => {
      const raw = await _Raw.open(s.port);
      const started = Date.now();
      await raw.send("GET / HTTP/1.1\r\nHost: h\r\n");
      equal((await raw.answer()).status, 408);
      ok(await raw.closed());
      const ms = Date.now() - started;
      ok(ms >= 250 && ms < 3000, `${ms} ms`);
      raw.close();
    });
    await t.step("a slow drip is cut at the deadline, not reset by each byte", async () => {
      const raw = await _Raw.open(s.port);
      const started = Date.now();
      const drip = setInterval(() => raw.send("a").catch(() => {}), 50);
      await raw.send("GET / HTTP/1.1\r\nX-Slow: ");
      const a = await raw.answer();
      clearInterval(drip);
      equal(a.status, 408);
      ok(Date.now() - started < 3000);
      raw.close();
    });
    await t.step("a new connection sending nothing is closed", async () => {
      const raw = await _Raw.open(s.port);
      ok(await raw.closed());
      raw.close();
    });
    await t.step("a kept-alive connection waits longer for its next request", async () => {
      const raw = await _Raw.open(s.port);
      await raw.send(GET("/1"));
      equal((await raw.answer()).status, 200);
      await new Promise((d) => setTimeout(d, 400)); // past the header timeout, within keep-alive
      await raw.send(GET("/2"));
      equal((await raw.answer()).body, "GET /2 ");
      const idle = Date.now();
      ok(await raw.closed());
      ok(Date.now() - idle >= 500, "closed after the keep-alive timeout");
      raw.close();
    });
    deepStrictEqual(s.server.connections(), 0);
  } finally {
    await s.server.shutdown();
  }
});
