/**
 * `deno task bench startup [--baseline DIR] [--runs N]`: how long an MCP client waits after it
 * spawns the server until it has the tool list — the server as a client config starts it (the
 * launcher, `scripts/serve.ts serve`) and the server process alone (`main.ts serve` with the
 * launcher's flags). With `--baseline`, another checkout (an older commit, unpacked with its
 * `node_modules`) is measured in turns with this one, so the machine's drift cancels out.
 *
 * Each run: spawn, `initialize`, `tools/list` answered, close (the SDK client, as a client does).
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  loadAverages,
  markdownTable,
  median,
  parseFlags,
  percentile,
  serverEnv,
} from "./bench_util.ts";

const CHECKOUT = fileURLToPath(new URL("..", import.meta.url));

/** The two ways a client starts the server. */
type Mode = "launcher" | "server";

/** `deno run` arguments that start the server of `checkout`, as the launcher's child would run. */
async function _serverArgs(checkout: string, mode: Mode, env: Record<string, string>) {
  if (mode === "launcher") {
    return [
      "run",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      join(checkout, "scripts/serve.ts"),
      "serve",
    ];
  }
  // The checkout's own launcher computes the flags (they may differ between commits).
  const launcher = await import(join(checkout, "scripts/serve.ts"));
  return launcher.childArgs(launcher.permissionInputs((n: string) => env[n], checkout), ["serve"]);
}

async function _once(args: string[], env: Record<string, string>, cwd: string): Promise<number> {
  const t0 = performance.now();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args,
    env,
    cwd,
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-startup", version: "0" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const ms = performance.now() - t0;
  await client.close();
  if (tools.length === 0) throw new Error("the server listed no tools");
  return ms;
}

/** Run the benchmark. */
export async function main(argv: string[]): Promise<void> {
  const flags = parseFlags(argv);
  const runs = Number(flags.get("runs") ?? 30);
  const checkouts = [CHECKOUT, ...(flags.has("baseline") ? [resolve(flags.get("baseline")!)] : [])];
  const indexDir = Deno.makeTempDirSync({ prefix: "codemunch-bench-startup-" });
  const env = serverEnv(indexDir, indexDir);
  const samples = new Map<string, number[]>();
  try {
    const plans: { key: string; args: string[] }[] = [];
    for (const checkout of checkouts) {
      for (const mode of ["launcher", "server"] as const) {
        plans.push({ key: `${checkout}\t${mode}`, args: await _serverArgs(checkout, mode, env) });
      }
    }
    for (const p of plans) await _once(p.args, env, indexDir); // warm the module caches
    for (let i = 0; i < runs; i++) {
      for (const p of plans) {
        const list = samples.get(p.key) ?? [];
        list.push(await _once(p.args, env, indexDir));
        samples.set(p.key, list);
      }
    }
  } finally {
    Deno.removeSync(indexDir, { recursive: true });
  }
  const rows = [...samples].map(([key, ms]) => {
    const [checkout, mode] = key.split("\t");
    return [
      checkout === CHECKOUT ? "this checkout" : checkout!,
      mode!,
      median(ms),
      percentile(ms, 90),
      Math.min(...ms),
    ];
  });
  console.log(`spawn to tools/list, ms (${runs} runs each, in turns; ${loadAverages()})\n`);
  console.log(markdownTable(["checkout", "started as", "p50", "p90", "min"], rows));
}

if (import.meta.main) await main(Deno.args);
