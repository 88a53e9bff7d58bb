/**
 * The bodies and error answers of the Streamable HTTP transport: a POST body read within a size
 * and a time limit (a half-sent request must not hold the server's resources), then read as
 * stdio reads a line (`jsonrpc.ts`: depth-checked before parsing, escaped keys guarded, every
 * message a valid request, notification or response).
 *
 * @module
 */
import { classify, readMessage } from "./jsonrpc.ts";

/** A JSON response. */
export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** A JSON-RPC error answer (id null: it answers the HTTP request, not a message of it). */
export function rpcErrorResponse(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse(status, { jsonrpc: "2.0", error: { code, message }, id: null }, headers);
}

/** A body that did not arrive in time. */
class _BodyTimeout extends Error {}

/**
 * Read a body of at most `max` bytes within `timeoutMs`; null when it is larger. Throws
 * `_BodyTimeout` when it is late.
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

/**
 * The JSON-RPC body of a POST (at most `max` bytes, within `timeoutMs`), or the error response to
 * send instead: 408 late, 413 too large, 400 with the JSON-RPC error (and the caller's id where it
 * can be read) when it is not JSON, nested too deep or not a valid message.
 */
export async function jsonRpcBody(
  req: Request,
  max: number,
  timeoutMs: number,
): Promise<{ parsed: unknown } | Response> {
  let body: Uint8Array | null;
  try {
    body = await _readBody(req, max, timeoutMs);
  } catch (e) {
    if (!(e instanceof _BodyTimeout)) throw e;
    return rpcErrorResponse(408, -32000, `Request body not received within ${timeoutMs} ms`);
  }
  if (body === null) return rpcErrorResponse(413, -32000, `Request body over ${max} bytes`);
  const read = readMessage(new TextDecoder().decode(body));
  if ("error" in read) return jsonResponse(400, read.error);
  const messages = Array.isArray(read.message) ? read.message : [read.message];
  for (const m of messages) {
    const c = classify(m);
    if (c.kind === "invalid") return jsonResponse(400, c.error);
  }
  return { parsed: read.message };
}
