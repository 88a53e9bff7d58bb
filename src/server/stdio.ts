/**
 * The MCP server over stdio, started quickly: line-delimited JSON-RPC 2.0 on stdin/stdout with
 * `initialize`, `ping`, `tools/list`, `tools/call`, and the prompts and resources of catalog.ts
 * (`prompts/list`, `prompts/get`, `resources/list`, `resources/read`,
 * `resources/templates/list`). `initialize` and `tools/list` are answered
 * from data alone — the tool list is generated from the tool declarations (`tools_list.json`,
 * `deno task gen`; `tests/e2e/tools_list_test.ts` checks it is current) — so a client gets its
 * tool list without this process loading the MCP SDK, zod, SQLite or any tool.
 * The {@linkcode ToolRunner} (and with it the tools and the store) is loaded right after the
 * first `tools/list` answer, or by the first `tools/call`.
 *
 * Behaves like the SDK server for these methods: protocol version negotiation, progress
 * notifications for a request with a `progressToken`, "Method not found" (-32601) for other
 * requests, notifications ignored, requests answered concurrently.
 */
import denoJson from "../../deno.json" with { type: "json" };
import toolsList from "./tools_list.json" with { type: "json" };
import { parseJson } from "../codec/json_text.ts";
import { throttledProgress } from "./progress.ts";
import {
  CatalogError,
  getPrompt,
  listResources,
  PROMPTS_LIST,
  readResource,
  RESOURCE_TEMPLATES_LIST,
} from "./catalog.ts";
import type { CallResult, ServerDeps, ToolRunner } from "./runner.ts";

/**
 * The runner module, by a computed specifier: `deno run` walks every import it can read in the
 * source before the first line runs, a dynamic one included, and the runner's graph (the tools,
 * the store, zod, the grammars' registry) is most of the server. `deno compile` embeds it with
 * `--include` (main.ts `LAZY_MODULES`).
 */
function _loadRunner(): Promise<typeof import("./runner.ts")> {
  return import(new URL("./runner.ts", import.meta.url).href);
}

/** Protocol versions, newest first (as the SDK's `SUPPORTED_PROTOCOL_VERSIONS`). */
export const PROTOCOL_VERSIONS = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
] as const;

/** Server name and version (both servers'). */
export const SERVER_INFO = { name: "codemunch", version: denoJson.version } as const;

/** The `instructions` of `initialize` (both servers'). */
export const INSTRUCTIONS =
  "codemunch indexes code once and serves symbols, outlines and search results instead of whole files. Start with list_repos (or index_folder for a new folder), then search_symbols / search_text to find code, get_file_outline to see a file's structure, and get_symbol_source to read exactly the symbols you need. Responses may be MUNCH (a compact, lossless text format; header #MUNCH/1) unless you pass format=json.";

/** The `tools/list` result, as the SDK server lists our tools. */
export const TOOLS_LIST: { tools: { name: string }[] } = toolsList;

/** Deepest nesting of arrays and objects accepted in a message (MCP arguments are shallow). */
export const MAX_NESTING = 256;
/** Longest message line accepted, in UTF-16 characters. */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `max` levels (iterative: a
 * hostile depth cannot overflow the stack here).
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > max) return true;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const c of children) if (c !== null && typeof c === "object") stack.push([c, depth + 1]);
  }
  return false;
}

/** Pause between the last progress notification of a call and its result, in ms. */
const _PROGRESS_GAP_MS = 5;

/** Where the server reads and writes. */
export interface StdioServerOptions {
  /** Builds the runner's dependencies on the first tool call (loads the store and the tools). */
  deps: () => Promise<ServerDeps>;
  input?: ReadableStream<Uint8Array>;
  output?: { write(bytes: Uint8Array): Promise<number> };
  log?: (message: string) => void;
}

type _Id = string | number;
interface _Message {
  jsonrpc?: string;
  id?: _Id | null;
  method?: string;
  params?: Record<string, unknown>;
}

/**
 * Serve MCP on stdin/stdout until stdin ends; then wait for the calls in flight, close the
 * runner (parser pool, store) and return.
 */
export async function serveStdio(options: StdioServerOptions): Promise<void> {
  const input = options.input ?? Deno.stdin.readable;
  const output = options.output ?? Deno.stdout;
  const log = options.log ?? ((m: string) => console.error(m));
  const encoder = new TextEncoder();
  let writing = Promise.resolve();
  const send = (message: unknown) => {
    const bytes = encoder.encode(JSON.stringify(message) + "\n");
    writing = writing.then(async () => {
      for (let at = 0; at < bytes.length;) at += await output.write(bytes.subarray(at));
    }).catch((e) => log(`codemunch: cannot write to stdout: ${e}`));
    return writing;
  };
  const state: { runner: Promise<ToolRunner> | null } = { runner: null };
  const getRunner = () =>
    state.runner ??= (async () => {
      const [{ ToolRunner }, deps] = await Promise.all([_loadRunner(), options.deps()]);
      return new ToolRunner(deps);
    })();
  const inFlight = new Set<Promise<void>>();

  const handle = async (m: _Message): Promise<void> => {
    const id = m.id as _Id;
    try {
      switch (m.method) {
        case "initialize": {
          const asked = m.params?.protocolVersion;
          const version = typeof asked === "string" &&
              (PROTOCOL_VERSIONS as readonly string[]).includes(asked)
            ? asked
            : PROTOCOL_VERSIONS[0];
          await send({
            jsonrpc: "2.0",
            id,
            result: {
              protocolVersion: version,
              capabilities: {
                tools: { listChanged: true },
                prompts: { listChanged: true },
                resources: { listChanged: true },
              },
              serverInfo: SERVER_INFO,
              instructions: INSTRUCTIONS,
            },
          });
          return;
        }
        case "ping":
          await send({ jsonrpc: "2.0", id, result: {} });
          return;
        case "tools/list":
          await send({ jsonrpc: "2.0", id, result: TOOLS_LIST });
          // A client lists the tools before calling one: load the runner meanwhile. A failure
          // is reported by the call that needs the runner.
          setTimeout(() => {
            getRunner().catch(() => {
              state.runner = null;
            });
          }, 0);
          return;
        case "tools/call": {
          const params = m.params ?? {};
          if (typeof params.name !== "string") {
            await send({
              jsonrpc: "2.0",
              id,
              error: { code: -32602, message: "Invalid params: tools/call needs a tool name" },
            });
            return;
          }
          const meta = params._meta as { progressToken?: _Id } | undefined;
          const token = meta?.progressToken;
          const onProgress = token === undefined
            ? undefined
            : throttledProgress(token, (params) => {
              send({ jsonrpc: "2.0", method: "notifications/progress", params });
            });
          const runner = await getRunner();
          const result: CallResult = await runner.call(
            params.name,
            params.arguments,
            onProgress === undefined ? {} : { onProgress },
          );
          if (onProgress !== undefined) {
            // The SDK client handles a response at once but notifications a tick later, and
            // drops progress that arrives after the response: leave the last progress
            // notification a moment to be read on its own.
            await writing;
            await new Promise((done) => setTimeout(done, _PROGRESS_GAP_MS));
          }
          await send({
            jsonrpc: "2.0",
            id,
            result: {
              content: [{ type: "text", text: result.text }],
              ...(result.isError ? { isError: true } : {}),
            },
          });
          // The answer is written: prepare for the next call.
          setTimeout(() => runner.idle(), 0);
          return;
        }
        case "prompts/list":
          await send({ jsonrpc: "2.0", id, result: PROMPTS_LIST });
          return;
        case "prompts/get":
          await send({ jsonrpc: "2.0", id, result: getPrompt(m.params) });
          return;
        case "resources/list":
          await send({ jsonrpc: "2.0", id, result: await listResources(await getRunner()) });
          return;
        case "resources/templates/list":
          await send({ jsonrpc: "2.0", id, result: RESOURCE_TEMPLATES_LIST });
          return;
        case "resources/read":
          await send({
            jsonrpc: "2.0",
            id,
            result: await readResource(await getRunner(), m.params),
          });
          return;
        default:
          await send({ jsonrpc: "2.0", id, error: { code: -32601, message: "Method not found" } });
      }
    } catch (e) {
      if (e instanceof CatalogError) {
        await send({ jsonrpc: "2.0", id, error: { code: e.code, message: e.message } });
        return;
      }
      log(`codemunch: internal error in ${m.method}: ${e instanceof Error ? e.stack : e}`);
      await send({
        jsonrpc: "2.0",
        id,
        error: { code: -32603, message: `Internal error: ${e instanceof Error ? e.message : e}` },
      });
    }
  };

  const dispatch = (m: unknown) => {
    if (typeof m !== "object" || m === null) return;
    const message = m as _Message;
    // Notifications (no id) and responses to requests we never send need no answer.
    if (message.id === undefined || message.id === null || typeof message.method !== "string") {
      return;
    }
    if (nestedDeeperThan(message, MAX_NESTING)) {
      send({
        jsonrpc: "2.0",
        id: message.id,
        error: {
          code: -32600,
          message:
            `Invalid Request: the message is nested deeper than ${MAX_NESTING} levels; send flat arguments`,
        },
      });
      return;
    }
    const p = handle(message);
    inFlight.add(p);
    p.finally(() => inFlight.delete(p));
  };

  const onLine = (raw: string) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      // Not JSON.parse: Deno 2.9.6's V8 can return the wrong key for an escaped object key.
      parsed = parseJson(line);
    } catch (e) {
      // JSON-RPC 2.0 §5.1: invalid JSON is answered with a parse error (the id is unknown).
      const why = e instanceof Error ? e.message.split("\n")[0]!.slice(0, 200) : String(e);
      log(`codemunch: a message that is not JSON: ${why}`);
      send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: `Parse error: ${why}` } });
      return;
    }
    if (Array.isArray(parsed)) parsed.forEach(dispatch);
    else dispatch(parsed);
  };

  // Lines are split chunk by chunk: a newline is looked for in each chunk once, so a long line
  // costs linear time, and a line over MAX_LINE_CHARS is dropped (answered with a parse error).
  const decoder = new TextDecoder();
  let parts: string[] = [];
  let partsLength = 0;
  let oversized = false;
  const take = (text: string) => {
    let at = 0;
    for (;;) {
      const nl = text.indexOf("\n", at);
      if (nl === -1) {
        const rest = text.slice(at);
        if (!oversized && partsLength + rest.length > MAX_LINE_CHARS) {
          oversized = true;
          parts = [];
          partsLength = 0;
        }
        if (!oversized && rest !== "") {
          parts.push(rest);
          partsLength += rest.length;
        }
        return;
      }
      const piece = text.slice(at, nl);
      if (oversized || partsLength + piece.length > MAX_LINE_CHARS) {
        send({
          jsonrpc: "2.0",
          id: null,
          error: {
            code: -32700,
            message: `Parse error: a message over ${MAX_LINE_CHARS} characters was dropped`,
          },
        });
      } else onLine(parts.length === 0 ? piece : parts.join("") + piece);
      parts = [];
      partsLength = 0;
      oversized = false;
      at = nl + 1;
    }
  };
  for await (const chunk of input) take(decoder.decode(chunk, { stream: true }));
  take(decoder.decode());
  if (parts.length > 0 && !oversized) onLine(parts.join(""));
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  await writing;
  if (state.runner !== null) await (await state.runner).close();
}
