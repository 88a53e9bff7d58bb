/**
 * MCP wiring: {@linkcode createServer} builds the server from its dependencies; the
 * {@linkcode ToolRunner} (shared with the CLI) validates arguments, runs a tool and wraps its
 * response (redaction, `_meta`, format).
 *
 * @module
 */
export { createServer, FORMAT_ARGUMENT, SERVER_INFO } from "./server.ts";
export { type CallOptions, type CallResult, type ServerDeps, ToolRunner } from "./runner.ts";
export { DEFAULT_SETTINGS, type ServerSettings, settingsFromEnv } from "./config.ts";
export { redactDeep, redactText } from "./redact.ts";
