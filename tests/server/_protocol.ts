/**
 * Helpers for the protocol tests: JSON-RPC lines through the real stdio server (`serveStdio`
 * over in-memory streams) and JSON-RPC messages posted to a real Streamable HTTP server, each
 * answer parsed (from the event stream when the server sent one).
 */
import { join } from "node:path";
import { serveStdio } from "../../src/server/stdio.ts";
import type { ServerDeps } from "../../src/server/runner.ts";
import { Store } from "../../src/store/store.ts";

/** A JSON-RPC message as a test reads it. */
export type Answer = {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
};

/**
 * Send `lines` to a stdio server (split into 7-byte chunks: a message may arrive in pieces) and
 * return what it wrote once stdin ended. The server's index lives in a temp folder unless `deps`
 * says otherwise.
 */
export async function stdioExchange(
  lines: string[],
  deps?: () => Promise<ServerDeps>,
): Promise<Answer[]> {
  const dir = await Deno.makeTempDir({ prefix: "codemunch-stdio-" });
  const written: string[] = [];
  const decoder = new TextDecoder();
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      const bytes = new TextEncoder().encode(lines.join("\r\n") + "\n");
      for (let at = 0; at < bytes.length; at += 7) controller.enqueue(bytes.slice(at, at + 7));
      controller.close();
    },
  });
  try {
    await serveStdio({
      deps: deps ??
        (() => Promise.resolve({ store: new Store(join(dir, "index")), log: () => {} })),
      input,
      output: {
        write(bytes: Uint8Array) {
          written.push(decoder.decode(bytes));
          return Promise.resolve(bytes.length);
        },
      },
      log: () => {},
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  return written.join("").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
}

/** `n` small Python modules (`pkg/m0.py` …), enough for an index run to report progress. */
export function pythonModules(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) files[`pkg/m${i}.py`] = `def f${i}():\n    return ${i}\n`;
  return files;
}

/** The headers of an MCP POST (and of a session, once it has an id). */
export function mcpHeaders(session?: string): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" } : {}),
  };
}

/**
 * POST one message, a batch, or raw text to a Streamable HTTP server: the status, the messages of its
 * answer (JSON, or every `data:` event of its stream) and the session id it names.
 */
export async function postMcp(
  url: string,
  message: unknown,
  session?: string,
): Promise<{ status: number; messages: Answer[]; session: string | null }> {
  const r = await fetch(url, {
    method: "POST",
    headers: mcpHeaders(session),
    body: typeof message === "string" ? message : JSON.stringify(message),
  });
  const text = await r.text();
  const messages = (r.headers.get("content-type") ?? "").includes("text/event-stream")
    ? text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)))
    : text === ""
    ? []
    : [JSON.parse(text)].flat();
  return { status: r.status, messages, session: r.headers.get("mcp-session-id") };
}

/** An `initialize` request (for protocol `version`). */
export function initializeRequest(
  id: number | string = 1,
  version = "2025-06-18",
): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: "codemunch-test", version: "0" },
    },
  };
}

/**
 * Open a session (`initialize`, then `notifications/initialized`) and post each request in it:
 * the answers, the initialize answer first.
 */
export async function httpExchange(
  url: string,
  requests: Record<string, unknown>[],
): Promise<Answer[]> {
  const { session, answer } = await openSession(url);
  const answers = [answer];
  for (const r of requests) answers.push((await postMcp(url, r, session)).messages.at(-1)!);
  return answers;
}

/** Open a session for protocol `version`: its id and the initialize answer. */
export async function openSession(
  url: string,
  version = "2025-06-18",
): Promise<{ session: string; answer: Answer }> {
  const init = await postMcp(url, initializeRequest(0, version));
  const session = init.session!;
  await postMcp(url, { jsonrpc: "2.0", method: "notifications/initialized" }, session);
  return { session, answer: init.messages.at(-1)! };
}
