/**
 * The MCP server over the SDK (Streamable HTTP sessions): `tools/list` answers the list derived
 * from the declarations (tool_list.ts, the same the stdio server sends), and calls are answered
 * by the {@linkcode ToolRunner} so that every failure — unknown tool, bad arguments, tool errors —
 * comes back as an `isError` result with a stable code, never as a protocol fault or a crash.
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
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { throttledProgress } from "./progress.ts";
import { FORMAT_ARGUMENT, listedTools } from "./tool_list.ts";
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

export { FORMAT_ARGUMENT, SERVER_INFO };

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
    capabilities: {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
    },
    instructions: INSTRUCTIONS,
  });
  const tools = { tools: listedTools(runner.tools) };
  // deno-lint-ignore no-explicit-any
  server.server.setRequestHandler(ListToolsRequestSchema, () => tools as any);
  // Calls go to the runner with the raw arguments: it coerces ("true", "10"), validates and
  // reports every failure with our error codes, where the SDK's own validation would not.
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
