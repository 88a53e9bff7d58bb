/**
 * The MCP server: every tool of `src/tools/mod.ts` registered on an SDK `McpServer` (name,
 * description, zod input schema with `format`, annotations), with calls answered by the
 * {@linkcode ToolRunner} so that every failure — unknown tool, bad arguments, tool errors — comes
 * back as an `isError` result with a stable code, never as a protocol fault or a crash.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { throttledProgress } from "./progress.ts";
import { type CallResult, type ServerDeps, ToolRunner } from "./runner.ts";
import { INSTRUCTIONS, SERVER_INFO } from "./stdio.ts";
import {
  CatalogError,
  getPrompt,
  listResources,
  PROMPTS_LIST,
  readResource,
  RESOURCE_TEMPLATES_LIST,
} from "./catalog.ts";

export { SERVER_INFO };

/** The `format` argument every tool takes. */
export const FORMAT_ARGUMENT = z.enum([
  "auto",
  "compact",
  "json",
  "table",
  "adaptive",
  "encoded",
  "raw",
])
  .optional()
  .describe(
    "Response format: auto (default: compact MUNCH when it saves at least 15%, else JSON), compact (always MUNCH), json, or table (JSON with columnar lists)",
  );

function _toResult(r: CallResult): CallToolResult {
  return { content: [{ type: "text", text: r.text }], ...(r.isError ? { isError: true } : {}) };
}

/**
 * Build a server from its dependencies (no module-level state). Connect it to a transport with
 * `server.connect(transport)`; closing the server stops the parser pool and the store.
 */
export function createServer(deps: ServerDeps): McpServer {
  const runner = new ToolRunner(deps);
  const server = createSessionServer(runner);
  const previous = server.server.onclose;
  server.server.onclose = () => {
    previous?.();
    runner.close().catch((e) => console.error(`codemunch: error while closing: ${e}`));
  };
  return server;
}

/**
 * A server over a runner it shares with other servers (one per HTTP session): every session
 * reads the same index through the same runner, views and caches. Closing it leaves the runner
 * open; its owner closes it.
 */
export function createSessionServer(runner: ToolRunner): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: {}, prompts: {}, resources: {} },
    instructions: INSTRUCTIONS,
  });
  for (const tool of runner.tools) {
    server.registerTool(tool.name, {
      description: tool.description,
      inputSchema: tool.inputSchema.extend({ format: FORMAT_ARGUMENT }),
      annotations: tool.annotations,
    }, async (args: Record<string, unknown>) => _toResult(await runner.call(tool.name, args)));
  }
  // Calls go to the runner with the raw arguments: it coerces ("true", "10"), validates and
  // reports every failure with our error codes, where the SDK's own validation would not.
  server.server.removeRequestHandler("tools/call");
  server.server.setRequestHandler(CallToolRequestSchema, async (
    request: CallToolRequest,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  ) => {
    const token = request.params._meta?.progressToken;
    const onProgress = token === undefined ? undefined : throttledProgress(token, (params) => {
      extra.sendNotification({ method: "notifications/progress", params })
        .catch(() => {/* the client went away; the call still completes */});
    });
    const result = await runner.call(
      request.params.name,
      request.params.arguments,
      onProgress === undefined ? {} : { onProgress },
    );
    return _toResult(result);
  });
  // Prompts and resources (catalog.ts), as the stdio server answers them.
  const catalog = async <T>(answer: () => T | Promise<T>): Promise<T> => {
    try {
      return await answer();
    } catch (e) {
      if (e instanceof CatalogError) throw new McpError(ErrorCode.InvalidParams, e.message);
      throw e;
    }
  };
  // deno-lint-ignore no-explicit-any
  type Any = any;
  server.server.setRequestHandler(ListPromptsRequestSchema, () => PROMPTS_LIST as Any);
  server.server.setRequestHandler(
    GetPromptRequestSchema,
    (request: { params: Record<string, unknown> }) =>
      catalog(() => getPrompt(request.params)) as Any,
  );
  server.server.setRequestHandler(
    ListResourcesRequestSchema,
    () => catalog(() => listResources(runner)) as Any,
  );
  server.server.setRequestHandler(
    ListResourceTemplatesRequestSchema,
    () => RESOURCE_TEMPLATES_LIST as Any,
  );
  server.server.setRequestHandler(
    ReadResourceRequestSchema,
    (request: { params: Record<string, unknown> }) =>
      catalog(() => readResource(runner, request.params)) as Any,
  );
  return server;
}
