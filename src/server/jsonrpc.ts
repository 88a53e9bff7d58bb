/**
 * JSON-RPC 2.0 messages as text, read safely for both transports: a message nested deeper than
 * {@linkcode MAX_NESTING} levels is refused before it is parsed (no parser recursion, no stack
 * overflow), with the caller's id when the top level names one; text that is not JSON is a parse
 * error (-32700); objects with escaped keys are parsed with the codec's guard against a V8
 * defect (`parseJson`). A message's shape (`jsonrpc`, `id`, `method`) is checked by
 * {@linkcode classify}; whether a batch (a JSON array of messages) may be answered at all, by
 * {@linkcode batchRefusal}: MCP 2025-03-26 added JSON-RPC batches and 2025-06-18 removed them, so
 * a batch is answered only on a connection that negotiated 2025-03-26.
 *
 * @module
 */
import { parseJson } from "../codec/json_text.ts";

/** Deepest nesting of arrays and objects accepted in a message (MCP arguments are shallow). */
export const MAX_NESTING = 256;

/** A request id: MCP allows a string or an integer (JSON-RPC a number too; never null). */
export type RequestId = string | number;

/** A JSON-RPC error answer. */
export interface ErrorResponse {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: { code: number; message: string };
}

/** A JSON-RPC error answer with `code`. */
export function errorResponse(
  id: RequestId | null,
  code: number,
  message: string,
): ErrorResponse {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/**
 * How deeply `text` nests arrays and objects (strings skipped), counted without parsing; stops
 * counting once past `limit`.
 */
export function nestingOf(text: string, limit = Infinity): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max && (max = depth) > limit) return max;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return max;
}

/** The end of the JSON value starting at `at` (skipping nested values and strings), or -1. */
function _skipValue(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) {
        if (text.charCodeAt(i) === 92) i++;
      }
      if (depth === 0) return i + 1;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (--depth === 0) return i + 1;
      if (depth < 0) return i;
    } else if (depth === 0 && (c === 44 /* , */ || c === 125 || c === 93)) return i;
    else if (depth === 0 && /[\s]/.test(text[i]!) && i > at) return i;
  }
  return depth === 0 ? text.length : -1;
}

const _WS = /\s*/y;

function _skipWs(text: string, at: number): number {
  _WS.lastIndex = at;
  _WS.exec(text);
  return _WS.lastIndex;
}

/**
 * The `id` of a message's top-level object read without parsing the rest (for an answer to a
 * message that cannot be parsed whole): a string or a number; null when there is none, or it is
 * not a valid id, or the text is not an object.
 */
export function topLevelId(text: string): RequestId | null {
  let i = _skipWs(text, 0);
  if (text[i] !== "{") return null;
  i++;
  for (let guard = 0; guard < 10_000; guard++) {
    i = _skipWs(text, i);
    if (text[i] !== '"') return null;
    const keyEnd = _skipValue(text, i);
    if (keyEnd === -1) return null;
    let key: unknown;
    try {
      key = JSON.parse(text.slice(i, keyEnd));
    } catch {
      return null;
    }
    i = _skipWs(text, keyEnd);
    if (text[i] !== ":") return null;
    const start = _skipWs(text, i + 1);
    const end = _skipValue(text, start);
    if (end === -1) return null;
    if (key === "id") {
      const raw = text.slice(start, end).trim();
      if (!/^(?:"|-?\d)/.test(raw)) return null;
      try {
        const id = JSON.parse(raw) as unknown;
        return typeof id === "string" || typeof id === "number" ? id : null;
      } catch {
        return null;
      }
    }
    i = _skipWs(text, end);
    if (text[i] !== ",") return null;
    i++;
  }
  return null;
}

/**
 * Read one message (or a batch): the parsed value, or the error answer to send instead — -32600
 * for a message nested deeper than {@linkcode MAX_NESTING}, -32700 for text that is not JSON,
 * each with the caller's id when its top level names one.
 */
export function readMessage(text: string): { message: unknown } | { error: ErrorResponse } {
  if (nestingOf(text, MAX_NESTING) > MAX_NESTING) {
    return {
      error: errorResponse(
        topLevelId(text),
        -32600,
        `Invalid Request: the message is nested deeper than ${MAX_NESTING} levels; send flat arguments`,
      ),
    };
  }
  try {
    return { message: parseJson(text) };
  } catch (e) {
    const why = e instanceof Error ? e.message.split("\n")[0]!.slice(0, 200) : String(e);
    return { error: errorResponse(topLevelId(text), -32700, `Parse error: ${why}`) };
  }
}

/** What a parsed message is. */
export type Classified =
  | { kind: "request"; id: RequestId; method: string; params: Record<string, unknown> }
  | { kind: "notification"; method: string }
  | { kind: "response" }
  | { kind: "invalid"; error: ErrorResponse };

function _invalid(id: RequestId | null, why: string): Classified {
  return { kind: "invalid", error: errorResponse(id, -32600, `Invalid Request: ${why}`) };
}

/**
 * Classify a parsed message (JSON-RPC 2.0 §4, MCP's rule that an id is a string or an integer,
 * never null): a request, a notification (no id: answered by nothing, whatever its method or
 * params), a response (to a ping of ours; else ignored), or invalid with the error answer
 * (-32600; its id is the message's when that is a valid id; -32602 for a request whose params
 * are a list, since every MCP method takes named params).
 */
export function classify(message: unknown): Classified {
  if (typeof message !== "object" || message === null || Array.isArray(message)) {
    return _invalid(null, "a message must be a JSON object");
  }
  const m = message as Record<string, unknown>;
  const id = m.id;
  const validId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  const answerId = validId ? id as RequestId : null;
  if (m.jsonrpc !== "2.0") return _invalid(answerId, 'the message must say "jsonrpc": "2.0"');
  if (typeof m.method !== "string") {
    if (("result" in m || "error" in m) && (validId || id === null)) return { kind: "response" };
    return _invalid(answerId, "a request needs a method name");
  }
  if (id === undefined) return { kind: "notification", method: m.method };
  if (!validId) {
    const got = id === null
      ? "null"
      : Array.isArray(id)
      ? "a list"
      : typeof id === "object"
      ? "an object"
      : JSON.stringify(id);
    return _invalid(null, `the id must be a string or a number, not ${got}`);
  }
  const params = m.params;
  if (params !== undefined && (typeof params !== "object" || params === null)) {
    return _invalid(answerId, "params must be an object or an array");
  }
  if (Array.isArray(params)) {
    // JSON-RPC allows positional params; every MCP method takes named ones.
    const error = errorResponse(
      answerId,
      -32602,
      "Invalid params: MCP params are an object, not a list",
    );
    return { kind: "invalid", error };
  }
  return {
    kind: "request",
    id: id as RequestId,
    method: m.method,
    params: (params ?? {}) as Record<string, unknown>,
  };
}

/** The one MCP protocol version with JSON-RPC batches (added in 2025-03-26, removed in 2025-06-18). */
export const BATCH_VERSION = "2025-03-26";

/**
 * Why a batch cannot be answered as one, as the single error answer to send (-32600, id null), or
 * null when it can: it is empty (JSON-RPC), the connection negotiated no protocol version yet or
 * one without batches (MCP 2025-06-18 and later; `initialize` itself must come alone), or it
 * holds an `initialize` request (MCP 2025-03-26: initialize MUST NOT be part of a batch).
 */
export function batchRefusal(
  batch: readonly unknown[],
  version: string | null,
): ErrorResponse | null {
  const refuse = (why: string) => errorResponse(null, -32600, `Invalid Request: ${why}`);
  if (batch.length === 0) return refuse("an empty batch");
  if (version === null) {
    return refuse("a batch before initialize; send initialize alone, then one message at a time");
  }
  if (version !== BATCH_VERSION) {
    return refuse(
      `MCP ${version} has no JSON-RPC batches (only ${BATCH_VERSION} had them); send one message at a time`,
    );
  }
  const initializes = batch.some((m) =>
    typeof m === "object" && m !== null && (m as { method?: unknown }).method === "initialize"
  );
  return initializes ? refuse("initialize must not be part of a batch; send it alone") : null;
}

/**
 * The answer to a request whose id is already used by a request in flight on the same
 * connection (MCP: "The request ID MUST NOT have been previously used by the requestor within the
 * same session"): -32600, with `answerId` (the request's id on stdio, as JSON-RPC answers a
 * request whose id it read; null on HTTP, where the refusal is the POST's 400 and the answer
 * carries no id, so that the client does not take it for the first request's).
 */
export function duplicateIdError(id: RequestId, answerId: RequestId | null): ErrorResponse {
  return errorResponse(
    answerId,
    -32600,
    `Invalid Request: id ${
      JSON.stringify(id)
    } is already used by a request in flight on this session; send each request with a new id`,
  );
}

/** The ids of the requests in a parsed message or batch (notifications and responses have none). */
export function requestIds(parsed: unknown): RequestId[] {
  const ids: RequestId[] = [];
  for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
    const c = classify(m);
    if (c.kind === "request") ids.push(c.id);
  }
  return ids;
}
