/**
 * MCP over stdio: line-delimited JSON-RPC 2.0 on stdin/stdout. This module only frames
 * messages — lines in (split chunk by chunk, a line over {@linkcode MAX_LINE_CHARS} dropped with
 * a parse error), one ordered writer out — and hands each message to the method table that
 * Streamable HTTP uses too (`protocol.ts`). It loads no SDK, zod, SQLite or tool: the runner is
 * built by `deps` when the protocol first needs it, so a client gets `initialize` and
 * `tools/list` answered from data at once.
 */
import { readMessage } from "./jsonrpc.ts";
import { McpProtocol, type Message, type Peer } from "./protocol.ts";
import type { ServerDeps, ToolRunner } from "./runner.ts";
import type { ToolVisibility } from "./tool_profile.ts";

export { INSTRUCTIONS, PROTOCOL_VERSIONS, SERVER_INFO, TOOLS_LIST } from "./protocol.ts";
export { MAX_NESTING } from "./jsonrpc.ts";

/** Longest message line accepted, in UTF-16 characters. */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

/**
 * The runner module, by a computed specifier: `deno run` walks every import it can read in the
 * source before the first line runs, a dynamic one included, and the runner's graph (the tools,
 * the store, zod, the grammars' registry) is most of the server. `deno compile` embeds it with
 * `--include` (`src/cli/lazy.ts`).
 */
function _loadRunner(): Promise<typeof import("./runner.ts")> {
  return import(new URL("./runner.ts", import.meta.url).href);
}

/** Where the server reads and writes. */
export interface StdioServerOptions {
  /** Builds the runner's dependencies on first use (loads the store and the tools). */
  deps: () => Promise<ServerDeps>;
  /**
   * The tools clients see and may call, known before the runner loads (the runner built by
   * `deps` should carry the same, in its settings). @default every tool
   */
  tools?: ToolVisibility;
  input?: ReadableStream<Uint8Array>;
  output?: { write(bytes: Uint8Array): Promise<number> };
  log?: (message: string) => void;
}

/** A peer writing one JSON line per message, in the order they are sent. */
function _linePeer(
  output: { write(bytes: Uint8Array): Promise<number> },
  log: (message: string) => void,
): Peer & { flushed(): Promise<void> } {
  const encoder = new TextEncoder();
  let writing = Promise.resolve();
  return {
    duplex: true,
    send(message: Message | Message[]): Promise<void> {
      const bytes = encoder.encode(JSON.stringify(message) + "\n");
      writing = writing.then(async () => {
        for (let at = 0; at < bytes.length;) at += await output.write(bytes.subarray(at));
      }).catch((e) => log(`codemunch: cannot write to stdout: ${e}`));
      return writing;
    },
    flushed: () => writing,
  };
}

/**
 * Split text chunks into lines, linear in the input: `onLine` gets each line; a line longer than
 * `max` characters is not kept (`onOversized` instead).
 */
export function lineSplitter(
  max: number,
  onLine: (line: string) => void,
  onOversized: () => void,
): { take(text: string): void; end(): void } {
  let parts: string[] = [];
  let length = 0;
  let oversized = false;
  const flush = (piece: string) => {
    if (oversized || length + piece.length > max) onOversized();
    else onLine(parts.length === 0 ? piece : parts.join("") + piece);
    parts = [];
    length = 0;
    oversized = false;
  };
  return {
    take(text: string) {
      let at = 0;
      for (let nl = text.indexOf("\n", at); nl !== -1; nl = text.indexOf("\n", at)) {
        flush(text.slice(at, nl));
        at = nl + 1;
      }
      const rest = text.slice(at);
      if (oversized || rest === "") return;
      if (length + rest.length > max) {
        oversized = true;
        parts = [];
        length = 0;
      } else {
        parts.push(rest);
        length += rest.length;
      }
    },
    end() {
      if (oversized) onOversized();
      else if (parts.length > 0) onLine(parts.join(""));
    },
  };
}

/**
 * Serve MCP on stdin/stdout until stdin ends; then answer the requests in flight, close the
 * runner (parser pool, store) and return.
 */
export async function serveStdio(options: StdioServerOptions): Promise<void> {
  const log = options.log ?? ((m: string) => console.error(m));
  const peer = _linePeer(options.output ?? Deno.stdout, log);
  const protocol = new McpProtocol({
    runner: async (): Promise<ToolRunner> => {
      const [{ ToolRunner }, deps] = await Promise.all([_loadRunner(), options.deps()]);
      return new ToolRunner(deps);
    },
    log,
    ...(options.tools === undefined ? {} : { tools: options.tools }),
  });
  const onLine = (raw: string) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "") return;
    const read = readMessage(line);
    if ("error" in read) {
      log(`codemunch: a message that cannot be read: ${read.error.error.message}`);
      peer.send({ ...read.error });
    } else protocol.receive(read.message, peer);
  };
  const lines = lineSplitter(MAX_LINE_CHARS, onLine, () => {
    peer.send({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32700,
        message: `Parse error: a message over ${MAX_LINE_CHARS} characters was dropped`,
      },
    });
  });
  const decoder = new TextDecoder();
  for await (const chunk of options.input ?? Deno.stdin.readable) {
    lines.take(decoder.decode(chunk, { stream: true }));
  }
  lines.take(decoder.decode());
  lines.end();
  await protocol.drain();
  await peer.flushed();
  const runner = protocol.loadedRunner();
  if (runner !== null) await (await runner.catch(() => null))?.close();
}
