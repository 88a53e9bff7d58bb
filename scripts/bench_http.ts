/**
 * `deno task bench http [--corpus gostd] [--calls N] [--rounds R] [--json FILE]`: latency and
 * throughput of `search_symbols` over MCP Streamable HTTP at 1, 8 and 32 concurrent clients
 * (each its own session), beside the stdio server with 1, 8 and 32 requests in flight on its one
 * pipe. Both are the real server (`main.ts serve` / `serve --http`, narrow permissions, watch
 * mode off) over the same index (`bench-out/http-index`), measured in alternating turns.
 * Target: HTTP p50 within 2 ms of stdio at one client.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { permissionFlags, permissionInputs } from "./serve.ts";
import {
  loadAverages,
  markdownTable,
  median,
  parseFlags,
  percentile,
  serverEnv,
  writeJson,
} from "./bench_util.ts";

const CHECKOUT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const QUERIES = [
  "parse",
  "Handler",
  "NewReader",
  "get user",
  "compile",
  "ServeHTTP",
  "render",
  "Close",
  "write header",
  "json",
  "Context",
  "error",
  "query",
  "String",
  "validate",
  "encode",
  "Router",
  "lookup",
];

function _freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

interface Run {
  transport: "stdio" | "http";
  concurrency: number;
  ms: number[];
  wallMs: number;
}

/** `calls` calls spread over `lanes` sequential lanes, all lanes at once. */
async function _drive(
  lanes: readonly ((q: string) => Promise<void>)[],
  calls: number,
): Promise<{ ms: number[]; wallMs: number }> {
  const ms: number[] = [];
  const per = Math.ceil(calls / lanes.length);
  const t0 = performance.now();
  await Promise.all(lanes.map(async (call, lane) => {
    for (let i = 0; i < per; i++) {
      const q = QUERIES[(lane * 7 + i) % QUERIES.length]!;
      const t = performance.now();
      await call(q);
      ms.push(performance.now() - t);
    }
  }));
  return { ms, wallMs: performance.now() - t0 };
}

function _searcher(client: Client, repo: string) {
  return async (query: string) => {
    const r = await client.callTool({
      name: "search_symbols",
      arguments: { repo, query, max_results: 10 },
    });
    if (r.isError) throw new Error(JSON.stringify(r.content));
  };
}

/** Run the benchmark. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const corpus = flags.get("corpus") ?? "gostd";
  const calls = Number(flags.get("calls") ?? 320);
  const rounds = Number(flags.get("rounds") ?? 3);
  const levels = [1, 8, 32];
  const indexDir = join(CHECKOUT, "bench-out", "http-index");
  // Real paths: `corpora` may be a symlink, and permissions are granted on real paths.
  const corporaDir = Deno.realPathSync(join(CHECKOUT, "corpora"));
  const folder = join(corporaDir, corpus);
  const env = serverEnv(indexDir, corporaDir, { CODEMUNCH_WATCH: "0" });
  const flagsFor = (port?: number) => {
    const inputs = permissionInputs((n) => env[n], CHECKOUT);
    if (port !== undefined) inputs.hosts.push(`127.0.0.1:${port}`);
    return permissionFlags(inputs);
  };

  const stdio = new Client({ name: "bench-http-stdio", version: "0" });
  await stdio.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", ...flagsFor(), join(CHECKOUT, "main.ts"), "serve"],
      env,
      cwd: CHECKOUT,
      stderr: "ignore",
    }),
  );
  const t0 = performance.now();
  const indexed = await stdio.callTool(
    { name: "index_folder", arguments: { path: folder, format: "json" } },
    undefined,
    { timeout: 900_000 },
  );
  const indexText = (indexed.content as { text: string }[])[0]!.text;
  if (indexed.isError) throw new Error(`index_folder failed: ${indexText}`);
  const repo = String(JSON.parse(indexText).repo);
  console.error(`bench http: ${repo} ready in ${Math.round(performance.now() - t0)} ms`);

  const port = _freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...flagsFor(port),
      join(CHECKOUT, "main.ts"),
      "serve",
      "--http",
      "--port",
      String(port),
    ],
    env,
    clearEnv: true,
    cwd: CHECKOUT,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let banner = "";
  while (!/MCP over HTTP at/.test(banner)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`HTTP server exited: ${banner}`);
    banner += value;
  }
  (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })().catch(() => {});
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const httpClients: Client[] = [];
  for (let i = 0; i < Math.max(...levels); i++) {
    const c = new Client({ name: `bench-http-${i}`, version: "0" });
    await c.connect(new StreamableHTTPClientTransport(url));
    httpClients.push(c);
  }
  const runs: Run[] = [];
  try {
    // Warm both servers: every query once (read model, ranking, query cache).
    for (const q of QUERIES) {
      await _searcher(stdio, repo)(q);
      await _searcher(httpClients[0]!, repo)(q);
    }
    for (let round = 0; round < rounds; round++) {
      for (const c of levels) {
        const s = await _drive(Array.from({ length: c }, () => _searcher(stdio, repo)), calls);
        runs.push({ transport: "stdio", concurrency: c, ...s });
        const h = await _drive(httpClients.slice(0, c).map((cl) => _searcher(cl, repo)), calls);
        runs.push({ transport: "http", concurrency: c, ...h });
      }
    }
  } finally {
    await Promise.all(httpClients.map((c) => c.close().catch(() => {})));
    await stdio.close();
    child.kill("SIGTERM");
    await child.status;
  }
  const summary = levels.flatMap((c) =>
    (["stdio", "http"] as const).map((t) => {
      const mine = runs.filter((r) => r.transport === t && r.concurrency === c);
      return {
        transport: t,
        concurrency: c,
        p50: median(mine.map((r) => median(r.ms))),
        p95: median(mine.map((r) => percentile(r.ms, 95))),
        throughput: median(mine.map((r) => r.ms.length / (r.wallMs / 1000))),
      };
    })
  );
  console.log(
    `\nsearch_symbols on ${corpus}: ${calls} calls per turn, median of ${rounds} alternating turns (${loadAverages()})\n`,
  );
  const rows = levels.flatMap((c) => {
    const s = summary.find((r) => r.transport === "stdio" && r.concurrency === c)!;
    const h = summary.find((r) => r.transport === "http" && r.concurrency === c)!;
    return [
      [`stdio, ${c} in flight on 1 pipe`, s.p50, s.p95, s.throughput, ""],
      [
        `http, ${c} client${c > 1 ? "s" : ""}`,
        h.p50,
        h.p95,
        h.throughput,
        `${(h.p50 - s.p50).toFixed(2)} ms`,
      ],
    ];
  });
  console.log(
    markdownTable(["transport", "p50 ms", "p95 ms", "calls/s", "http − stdio p50"], rows),
  );
  const one = summary.filter((r) => r.concurrency === 1);
  const gap = one[1]!.p50 - one[0]!.p50;
  console.log(
    `\nTarget: HTTP p50 within 2 ms of stdio at one client — ${gap <= 2 ? "met" : "NOT met"} (${
      gap.toFixed(2)
    } ms)`,
  );
  await writeJson(flags, { corpus, repo, load: loadAverages(), summary, runs });
}

if (import.meta.main) await main(Deno.args);
