/**
 * The Quick-start setup of `bench fresh`, as a user gets it: a temporary HOME with a client
 * config file (Cursor's `~/.cursor/mcp.json`, empty), the real `init` command run on a copy of a
 * corpus (it writes the client's server entry and indexes the folder in a one-shot process),
 * then servers started exactly from the entry `init` wrote — what the client does at the start
 * of each session.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { decode } from "../mod.ts";

const CHECKOUT = resolve(fileURLToPath(new URL("..", import.meta.url)));

/** The server entry `init` wrote. */
export interface ServerEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** What `init` set up. */
export interface QuickStart {
  /** The project (a copy of the corpus; the shared corpora are never edited). */
  folder: string;
  home: string;
  entry: ServerEntry;
  /** Wall time of `init` (writing the config and indexing the folder), in ms. */
  initMs: number;
  /** The real Deno cache (the temporary HOME has none). */
  denoDir: string;
}

/** Copy the corpus (once), make a HOME with a client config, and run `init` as a user would. */
export async function quickStart(corpus: string): Promise<QuickStart> {
  const source = join(CHECKOUT, "corpora", corpus);
  const folder = join(CHECKOUT, "bench-out", `fresh-${corpus}`);
  try {
    Deno.statSync(folder);
  } catch {
    console.error(`bench fresh: copying ${source} to ${folder} (once)`);
    Deno.mkdirSync(join(CHECKOUT, "bench-out"), { recursive: true });
    const cp = await new Deno.Command("cp", { args: ["-rL", source, folder] }).output();
    if (!cp.success) throw new Error(`cannot copy ${source}`);
  }
  const home = Deno.makeTempDirSync({ prefix: "codemunch-bench-home-" });
  Deno.mkdirSync(join(home, ".cursor"));
  Deno.writeTextFileSync(join(home, ".cursor", "mcp.json"), "{}\n");
  const denoDir = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache/deno");
  const t0 = performance.now();
  const init = await new Deno.Command(Deno.execPath(), {
    // `deno task init <folder>` of the Quick start, for one client and without the agent note.
    args: [
      "run",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      join(CHECKOUT, "scripts", "serve.ts"),
      "init",
      folder,
      "--client",
      "cursor",
      "--yes",
      "--no-policy",
    ],
    cwd: CHECKOUT,
    clearEnv: true,
    env: { HOME: home, PATH: Deno.env.get("PATH") ?? "", DENO_DIR: denoDir },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const initMs = performance.now() - t0;
  if (!init.success) {
    throw new Error(`init failed: ${new TextDecoder().decode(init.stderr)}`);
  }
  const config = JSON.parse(Deno.readTextFileSync(join(home, ".cursor", "mcp.json")));
  const entry = config.mcpServers?.codemunch as ServerEntry | undefined;
  if (entry === undefined) throw new Error("init wrote no codemunch entry for Cursor");
  return { folder, home, entry, initMs, denoDir };
}

/** A server started from the entry, and an MCP client connected to it. */
export interface BenchServer {
  client: Client;
  /** What the server logged (stderr lines). */
  logs: string[];
  repo: string;
  call(name: string, args: Record<string, unknown>): Promise<CallOutcome>;
  close(): Promise<void>;
}

/** One tool call's decoded answer and round-trip time. */
export interface CallOutcome {
  isError: boolean;
  body: Record<string, unknown>;
  ms: number;
}

/**
 * Start a server as the client would (the entry's command, arguments and environment, plus
 * `extraEnv`), connect, and wait until the project's index is followed (its watcher reports and
 * its start-up incremental index ran), unless watch mode is off.
 */
export async function startServer(
  q: QuickStart,
  extraEnv: Record<string, string>,
): Promise<BenchServer> {
  const transport = new StdioClientTransport({
    command: q.entry.command,
    args: q.entry.args,
    env: {
      HOME: q.home,
      PATH: Deno.env.get("PATH") ?? "",
      DENO_DIR: q.denoDir,
      ...q.entry.env,
      ...extraEnv,
    },
    cwd: q.home,
    stderr: "pipe",
  });
  const logs: string[] = [];
  const client = new Client({ name: "bench-fresh", version: "0" });
  _collect(transport, logs);
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>): Promise<CallOutcome> => {
    const t0 = performance.now();
    const r = await client.callTool({ name, arguments: { format: "json", ...args } }, undefined, {
      timeout: 600_000,
    });
    const ms = performance.now() - t0;
    const text = (r.content as { text: string }[])[0]!.text;
    return { isError: r.isError === true, body: decode(text) as Record<string, unknown>, ms };
  };
  const listed = await call("list_repos", {});
  const repo = String((listed.body.repos as { repo: string }[])[0]!.repo);
  if (extraEnv.CODEMUNCH_WATCH !== "0") await _untilFollowed(call);
  return { client, logs, repo, call, close: () => client.close() };
}

function _collect(transport: StdioClientTransport, logs: string[]): void {
  // With `stderr: "pipe"` the SDK hands out the child's stderr as a Node stream.
  const stderr = transport.stderr as unknown as
    | { on(event: "data", listener: (chunk: Uint8Array) => void): void }
    | null;
  stderr?.on("data", (chunk) => {
    logs.push(...new TextDecoder().decode(chunk).split("\n").filter((l) => l !== ""));
  });
}

/** Wait until get_watch_status shows the project watched and its start-up index done. */
async function _untilFollowed(
  call: (name: string, args: Record<string, unknown>) => Promise<CallOutcome>,
): Promise<void> {
  const t0 = performance.now();
  for (;;) {
    const s = await call("get_watch_status", {});
    const row = (s.body.repos as Record<string, unknown>[] | undefined)?.[0];
    if (row !== undefined && row.watch === "running" && row.batches !== 0 && !row.batch_running) {
      return;
    }
    if (performance.now() - t0 > 120_000) {
      throw new Error(`the project is not followed after 120 s: ${JSON.stringify(row)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
