/**
 * The long-running commands besides the stdio server: `serve --http` (MCP over Streamable HTTP)
 * and `watch <folder>` (index, then re-index what changes). Both run until SIGINT/SIGTERM.
 *
 * @module
 */
import { resolve } from "node:path";
import { createRunner, type Environment } from "../server/compose.ts";
import { httpSettingsFromEnv, serveHttp } from "../server/http.ts";
import type { ToolRunner } from "../server/runner.ts";
import { SERVER_INFO } from "../server/stdio.ts";
import type { WatchBatch } from "../server/watch.ts";
import { type Invocation, UsageError } from "./args.ts";
import { printError } from "./output.ts";

/** Resolve when SIGINT or SIGTERM arrives. */
function _stopSignal(): Promise<void> {
  return new Promise((done) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, done);
  });
}

/** `serve --http [--host H] [--port P]`. */
export async function serveHttpCommand(inv: Invocation, environment: Environment) {
  const flags = inv.flags;
  const port = Number(flags.get("port") ?? "8901");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`"--port" must be a port number, got "${flags.get("port")}"`);
  }
  const settings = httpSettingsFromEnv((n) => environment.env(n), {
    host: flags.get("host") ?? "127.0.0.1",
    port,
  });
  const { runner, store } = createRunner(environment, { watch: true });
  let server;
  try {
    server = await serveHttp(runner, settings);
  } catch (e) {
    await runner.close();
    throw e;
  }
  console.error(
    `codemunch ${SERVER_INFO.version}: MCP over HTTP at ${server.url}${
      settings.token === null ? "" : " (bearer token required)"
    }, index in ${store.indexDir}`,
  );
  _stopSignal().then(() => server.shutdown());
  await server.finished;
  await runner.close();
  return 0;
}

/** `watch <folder>`. */
export async function watchCommand(inv: Invocation, environment: Environment) {
  if (inv.positional.length !== 1) throw new UsageError(`"watch" expects a folder path`);
  // This command follows its one folder, not every indexed one.
  const { runner, settings } = createRunner(environment, { watch: "indexed-here" });
  try {
    if (!settings.watch.enabled) {
      throw new UsageError(`"watch" needs watch mode: unset CODEMUNCH_WATCH=0`);
    }
    const path = resolve(environment.cwd, inv.positional[0]!);
    const result = await runner.call("index_folder", { path, format: "json" });
    if (result.isError) return printError(result, inv);
    const body = JSON.parse(result.text) as { repo: string; folder_path: string };
    console.error(`codemunch: watching ${body.folder_path} (${body.repo}); Ctrl-C stops`);
    runner.watcher?.onBatch((b) => console.error(_batchLine(b)));
    await Promise.race([_stopSignal(), _unwatched(runner)]);
    return 0;
  } finally {
    await runner.close();
  }
}

/** Resolve once the runner watches no folder any more (the folder was deleted). */
function _unwatched(runner: ToolRunner): Promise<void> {
  return new Promise((done) => {
    const poll = setInterval(() => {
      if ((runner.watcher?.folders.length ?? 0) > 0) return;
      clearInterval(poll);
      done();
    }, 500);
  });
}

function _batchLine(b: WatchBatch): string {
  const what = b.mode === "folder" ? `folder index (${b.reason})` : "batch";
  return `codemunch: ${what}: ${b.added} new, ${b.changed} changed, ${b.deleted} deleted in ${
    Math.round(b.duration_ms)
  } ms${b.error ? ` — failed: ${b.error}` : ""}`;
}
