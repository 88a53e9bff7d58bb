/**
 * The MCP server spawned directly (`deno run main.ts serve`, no launcher in between) with a V8
 * heap limit, so a test can read the server process's own peak memory (`VmHWM` in
 * `/proc/<pid>/status`) after an attack and time `ping` while one runs.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CHECKOUT } from "../e2e/_server.ts";
import { procStatusField } from "../../scripts/bench_util.ts";

/** A server process and a client connected to it. */
export interface LimitedServer {
  client: Client;
  pid: number;
  /** Peak resident memory of the server process so far, in MB (Linux). */
  peakRssMb(): number;
  /** Current resident memory, in MB (Linux). */
  rssMb(): number;
  stderr(): string;
  close(): Promise<void>;
}

/** A numeric field of the process's `/proc/<pid>/status` (see scripts/bench_util.ts). */
export const procField = procStatusField;

/** Spawn `main.ts serve` with a heap limit of `heapMb` and these environment variables. */
export async function limitedServer(
  env: Record<string, string>,
  heapMb = 256,
): Promise<LimitedServer> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-net=127.0.0.1",
      "--allow-sys",
      `--v8-flags=--max-old-space-size=${heapMb}`,
      join(CHECKOUT, "main.ts"),
      "serve",
    ],
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
      ...env,
    },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array | string) => {
    stderr += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
  });
  const client = new Client({ name: "codemunch-limits", version: "0" });
  await client.connect(transport);
  const pid = transport.pid!;
  return {
    client,
    pid,
    peakRssMb: () => procField(pid, "VmHWM"),
    rssMb: () => procField(pid, "VmRSS"),
    stderr: () => stderr,
    close: () => client.close(),
  };
}

/**
 * The longest `ping` round trip a test accepts while an attack runs: long enough that a loaded
 * 2-core CI machine passes, short enough that a frozen event loop (a search or an archive
 * holding the main thread for its whole run) fails. The 1 s latency target itself is measured by
 * `deno task bench ping`, not by a timed test.
 */
export const FREEZE_MS = 10_000;

/**
 * Ping the server every `everyMs` until `until` settles; resolves with the longest round trip
 * in ms (a frozen server answers late, and the wait is what is measured).
 */
export async function longestPing(
  client: Client,
  until: Promise<unknown>,
  everyMs = 100,
): Promise<number> {
  let done = false;
  until.then(() => done = true, () => done = true);
  let longest = 0;
  while (!done) {
    const t = performance.now();
    await client.ping();
    longest = Math.max(longest, performance.now() - t);
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return longest;
}
