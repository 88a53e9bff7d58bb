/**
 * MCP wiring: one method table ({@linkcode McpProtocol}) answers both transports —
 * {@linkcode serveStdio} frames lines, `http.ts` hands over what its Streamable HTTP transport
 * received; the {@linkcode ToolRunner} (shared with the CLI) validates arguments, runs a tool
 * and wraps its response (redaction, `_meta`, format).
 *
 * @module
 */
export { McpProtocol, type Peer, SERVER_INFO } from "./protocol.ts";
export { serveStdio } from "./stdio.ts";
export { FORMAT_ARGUMENT } from "./tool_list.ts";
export { type CallOptions, type CallResult, type ServerDeps, ToolRunner } from "./runner.ts";
export { DEFAULT_SETTINGS, type ServerSettings, settingsFromEnv } from "./config.ts";
export { redactDeep, redactText } from "./redact.ts";
