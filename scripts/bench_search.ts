/**
 * `deno task bench search [--corpora a,b] [--index DIR] [--runs N] [--cold-runs N] [--json FILE]`:
 * query latency of the MCP server on the real corpora (corpora/, see prepare_corpora.sh), measured
 * through a real stdio client, side by side with ripgrep for the same text queries in the same run:
 *
 * - search_symbols (a fixed set of names and words), search_text (a rare, a common and an absent
 *   literal, and one regex per corpus), get_symbol_source and get_file_outline (ids and files
 *   taken from the index);
 * - `rg -n -i` for the same text queries, piped to `head -n <max_results>` as an agent would run
 *   it (so ripgrep may stop early on common queries, exactly like our search);
 * - cold start: spawn of `deno run <server flags> main.ts serve` to the first tools/list answer,
 *   and the same through the `deno task start` launcher (scripts/serve.ts), alternating
 *   (`--cold-runs`, default 15 each).
 *
 * Corpora are indexed (incrementally) into `--index` (default bench-out/search-index) through the
 * same server before measuring. Targets: search_symbols p50 < 5 ms; search_text p50 below rg's on
 * every corpus and query and ≥ 20x faster than rg for a rare or absent literal on the Go standard
 * library; cold start < 300 ms.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { decode } from "../mod.ts";
import { permissionFlags, permissionInputs } from "./serve.ts";
import {
  markdownTable,
  median,
  parseFlags,
  percentile,
  serverEnv,
  writeJson,
} from "./bench_util.ts";

const CHECKOUT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const ALL = ["express", "gin", "typescript", "django", "gostd"];
const ABSENT = "zqxjv_absent_marker";

/**
 * Text queries per corpus: a rare literal (1-3 files), a common one, a three-word phrase (a
 * literal with spaces: 1-12 files), and a regex.
 */
const TEXT_QUERIES: Record<
  string,
  { rare: string; common: string; phrase: string; regex: string }
> = {
  express: {
    rare: "escapeHtml",
    common: "return",
    phrase: "throw new TypeError",
    regex: "res\\.set\\w*\\(",
  },
  gin: {
    rare: "redirectTrailingSlash",
    common: "return",
    phrase: "returns the value",
    regex: "func \\(\\w+ \\*?\\w+\\) Close\\(",
  },
  typescript: {
    rare: "isInJSDoc",
    common: "return",
    phrase: "the type of",
    regex: "function\\s+isIn\\w+\\(",
  },
  django: {
    rare: "_get_FIELD_display",
    common: "return",
    phrase: "the given field",
    regex: "def\\s+get_\\w+_display\\(",
  },
  gostd: {
    rare: "maxConsecutiveEmptyReads",
    common: "return",
    phrase: "http server handler",
    regex: "func \\(\\w+ \\*?\\w+\\) Close\\(",
  },
};

/** Symbol queries: exact names, prefixes, words and camelCase parts. */
const SYMBOL_QUERIES = [
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
  "test",
  "query",
  "String",
  "validate",
  "request body",
  "encode",
  "Router",
  "lookup",
  "func (c *Conn) Read",
];

interface Sample {
  corpus: string;
  tool: string;
  label: string;
  query: string;
  ms: number[];
  /** Server-side `_meta.timing_ms` of the same calls (ours only). */
  server: number[];
}

function _env(indexDir: string): Record<string, string> {
  // The real path: corpora/ is often a symlink, and the server checks real paths.
  return serverEnv(indexDir, Deno.realPathSync(join(CHECKOUT, "corpora")));
}

function _serverArgs(env: Record<string, string>, launcher: boolean): string[] {
  if (launcher) {
    return [
      "run",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      join(CHECKOUT, "scripts/serve.ts"),
    ];
  }
  const flags = permissionFlags(permissionInputs((n) => env[n], CHECKOUT));
  return ["run", ...flags, join(CHECKOUT, "main.ts"), "serve"];
}

async function _connect(env: Record<string, string>, launcher = false) {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: _serverArgs(env, launcher),
    env,
    cwd: CHECKOUT,
    stderr: "ignore",
  });
  const client = new Client({ name: "bench-search", version: "0" });
  await client.connect(transport);
  return client;
}

/** `_meta.timing_ms` of every response, in call order (the tool's time inside the server). */
const serverMs: number[] = [];

async function _call(client: Client, name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
  const text = (r.content as { text: string }[])[0]!.text;
  if (r.isError) throw new Error(`${name} failed: ${text}`);
  const body = decode(text) as Record<string, unknown>;
  const meta = body._meta as { timing_ms?: number } | undefined;
  if (meta?.timing_ms !== undefined) serverMs.push(meta.timing_ms);
  return body;
}

async function _time(f: () => Promise<unknown>, runs: number): Promise<number[]> {
  await f(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  return ms;
}

async function _rg(dir: string, query: string, regex: boolean, max: number): Promise<void> {
  const quoted = `'${query.replaceAll("'", `'\\''`)}'`;
  const out = await new Deno.Command("sh", {
    args: ["-c", `rg -n -i ${regex ? "-e" : "-F -e"} ${quoted} ${dir} | head -n ${max}`],
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!out.success) throw new Error(`rg failed for ${query}`);
}

async function _coldStart(env: Record<string, string>, launcher: boolean, runs: number) {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const client = await _connect(env, launcher);
    await client.listTools();
    ms.push(performance.now() - t0);
    await client.close();
  }
  return ms;
}

/** Run the benchmark. */
export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const corpora = (flags.get("corpora") ?? ALL.join(",")).split(",").filter((c) => c !== "");
  const runs = Number(flags.get("runs") ?? 30);
  const indexDir = resolve(flags.get("index") ?? join(CHECKOUT, "bench-out", "search-index"));
  const env = _env(indexDir);
  try {
    new Deno.Command("rg", { args: ["--version"], stdout: "null" }).outputSync();
  } catch {
    console.error("bench search: ripgrep (rg) is not installed (apt-get install -y ripgrep)");
    Deno.exit(2);
  }
  const client = await _connect(env);
  const samples: Sample[] = [];
  const perQuery: { corpus: string; query: string; ms: number[]; server: number[] }[] = [];
  const facts: Record<string, unknown>[] = [];
  try {
    for (const corpus of corpora) {
      const dir = Deno.realPathSync(join(CHECKOUT, "corpora", corpus));
      const q = TEXT_QUERIES[corpus];
      if (q === undefined) throw new Error(`No queries for corpus "${corpus}"`);
      const t0 = performance.now();
      const indexed = await _call(client, "index_folder", { path: dir, format: "json" });
      const repo = String(indexed.repo);
      const outline = await _call(client, "get_repo_outline", { repo, format: "json" });
      facts.push({
        corpus,
        repo,
        files: outline.file_count,
        symbols: outline.symbol_count,
        index_check_ms: Math.round(performance.now() - t0),
      });
      console.error(
        `bench search: ${corpus}: ${outline.file_count} files, ${outline.symbol_count} symbols`,
      );
      // Server times recorded since the previous sample belong to this one (warm-ups included).
      let mark = serverMs.length;
      const add = (tool: string, label: string, query: string, ms: number[]) => {
        const server = tool === "rg" ? [] : serverMs.slice(mark);
        mark = serverMs.length;
        samples.push({ corpus, tool, label, query, ms, server });
      };

      // search_symbols: the first call of each query (nothing cached) and repeated calls (served
      // from the per-server result cache, as the reference's LRU does), each pooled.
      const first = { ms: [] as number[], server: [] as number[] };
      const repeat = { ms: [] as number[], server: [] as number[] };
      const ids: string[] = [];
      const timed = async (into: typeof first, query: string) => {
        const t1 = performance.now();
        const r = await _call(client, "search_symbols", { repo, query });
        into.ms.push(performance.now() - t1);
        into.server.push(serverMs.at(-1)!);
        return r;
      };
      for (const query of SYMBOL_QUERIES) {
        const r = await timed(first, query);
        for (const hit of r.results as { id: string }[]) ids.push(hit.id);
        for (let k = 0; k < 5; k++) await timed(repeat, query);
      }
      // Each query on its own: `symbolRuns` uncached calls (a different max_results each, so
      // none is answered from the result cache).
      const symbolRuns = Number(flags.get("symbol-runs") ?? 9);
      for (const query of SYMBOL_QUERIES) {
        const one = { ms: [] as number[], server: [] as number[] };
        for (let k = 0; k < symbolRuns; k++) {
          const t1 = performance.now();
          await _call(client, "search_symbols", { repo, query, max_results: 11 + k });
          one.ms.push(performance.now() - t1);
          one.server.push(serverMs.at(-1)!);
        }
        perQuery.push({ corpus, query, ...one });
      }
      const n = `${SYMBOL_QUERIES.length} queries`;
      samples.push({ corpus, tool: "search_symbols", label: "first call", query: n, ...first });
      samples.push({
        corpus,
        tool: "search_symbols",
        label: "repeated (cached)",
        query: n,
        ...repeat,
      });
      mark = serverMs.length;

      // search_text vs rg, query by query.
      const textQueries: [string, string, boolean][] = [
        ["rare literal", q.rare, false],
        ["common literal", q.common, false],
        ["absent literal", ABSENT, false],
        ["phrase", q.phrase, false],
        ["regex", q.regex, true],
      ];
      for (const [label, query, regex] of textQueries) {
        const args = { repo, query, is_regex: regex };
        add(
          "search_text",
          label,
          query,
          await _time(() => _call(client, "search_text", args), runs),
        );
        add("rg", label, query, await _time(() => _rg(dir, query, regex, 20), runs));
      }

      // get_symbol_source and get_file_outline on ids and files from the index.
      const someIds = [...new Set(ids)].slice(0, 10);
      let i = 0;
      add(
        "get_symbol_source",
        `${someIds.length} ids`,
        "",
        await _time(
          () =>
            _call(client, "get_symbol_source", { repo, symbol_id: someIds[i++ % someIds.length] }),
          runs,
        ),
      );
      const files = [...new Set(someIds.map((id) => id.slice(0, id.indexOf("::"))))];
      let j = 0;
      add(
        "get_file_outline",
        `${files.length} files`,
        "",
        await _time(
          () => _call(client, "get_file_outline", { repo, file_path: files[j++ % files.length] }),
          runs,
        ),
      );
    }
  } finally {
    await client.close();
  }

  // Alternating, so that both see the same machine load.
  const coldRuns = Number(flags.get("cold-runs") ?? 15);
  const cold: number[] = [];
  const coldLauncher: number[] = [];
  for (let i = 0; i < coldRuns; i++) {
    cold.push(...await _coldStart(env, false, 1));
    coldLauncher.push(...await _coldStart(env, true, 1));
  }

  const rows: unknown[][] = [];
  const ratios: Record<string, unknown>[] = [];
  for (const s of samples) {
    if (s.tool === "rg") continue;
    const rg = samples.find((r) => r.tool === "rg" && r.corpus === s.corpus && r.label === s.label);
    const ours = median(s.ms);
    const theirs = rg === undefined ? NaN : median(rg.ms);
    rows.push([
      s.corpus,
      s.tool,
      s.label,
      ours,
      percentile(s.ms, 95),
      median(s.server),
      theirs,
      rg === undefined ? NaN : percentile(rg.ms, 95),
      rg === undefined ? NaN : theirs / ours,
    ]);
    if (rg !== undefined) {
      ratios.push({ corpus: s.corpus, label: s.label, query: s.query, speedup: theirs / ours });
    }
  }
  console.log(
    markdownTable(
      [
        "corpus",
        "tool",
        "query",
        "p50 ms",
        "p95 ms",
        "in server p50",
        "rg p50 ms",
        "rg p95 ms",
        "rg/ours",
      ],
      rows,
    ),
  );
  console.log();
  console.log(
    markdownTable(["cold start (spawn → tools/list)", "p50 ms", "p95 ms", "runs"], [
      ["deno run main.ts serve (server flags)", median(cold), percentile(cold, 95), cold.length],
      [
        "deno task start (launcher + server)",
        median(coldLauncher),
        percentile(coldLauncher, 95),
        coldLauncher.length,
      ],
    ]),
  );
  console.log(
    "\nsearch_symbols per query: p50 ms of uncached calls, round trip (in server); " +
      "target < 5 ms\n",
  );
  const queryCorpora = [...new Set(perQuery.map((p) => p.corpus))];
  console.log(markdownTable(
    ["query", ...queryCorpora],
    SYMBOL_QUERIES.map((query) => [
      query,
      ...queryCorpora.map((c) => {
        const p = perQuery.find((x) => x.corpus === c && x.query === query)!;
        return `${median(p.ms).toFixed(1)} (${median(p.server).toFixed(1)})`;
      }),
    ]),
  ));
  const firstCalls = samples.filter((s) => s.tool === "search_symbols" && s.label === "first call");
  const symbolP50 = firstCalls.map((s) => median(s.ms));
  const symbolServerP50 = firstCalls.map((s) => median(s.server));
  const gostdFast = ratios.filter((r) =>
    r.corpus === "gostd" && (r.label === "rare literal" || r.label === "absent literal")
  );
  const checks = [
    ["search_symbols p50 < 5 ms on every corpus (first calls)", symbolP50.every((m) => m < 5)],
    [
      "  … measured inside the server (_meta.timing_ms)",
      symbolServerP50.every((m) => m < 5),
    ],
    [
      "search_text p50 below rg on every corpus and query",
      ratios.every((r) => (r.speedup as number) > 1),
    ],
    [
      "search_text ≥ 20x rg for rare/absent literal on gostd",
      gostdFast.length > 0 && gostdFast.every((r) => (r.speedup as number) >= 20),
    ],
    [
      "search_text ≥ 10x rg for the phrase on gostd",
      ratios.some((r) => r.corpus === "gostd" && r.label === "phrase") &&
      ratios.every((r) =>
        r.corpus !== "gostd" || r.label !== "phrase" ||
        (r.speedup as number) >= 10
      ),
    ],
    [
      "search_symbols p50 < 5 ms for every query (uncached, round trip)",
      perQuery.every((p) => median(p.ms) < 5),
    ],
    ["cold start p50 < 300 ms", median(cold) < 300],
  ];
  console.log();
  console.log(markdownTable(["target", "met"], checks.map(([t, ok]) => [t, ok ? "yes" : "NO"])));
  await writeJson(flags, {
    corpora: facts,
    runs,
    samples: samples.map((s) => ({
      corpus: s.corpus,
      tool: s.tool,
      label: s.label,
      query: s.query,
      p50_ms: median(s.ms),
      p95_ms: percentile(s.ms, 95),
      server_p50_ms: median(s.server),
      n: s.ms.length,
    })),
    ratios,
    symbol_queries: perQuery.map((p) => ({
      corpus: p.corpus,
      query: p.query,
      p50_ms: median(p.ms),
      server_p50_ms: median(p.server),
      n: p.ms.length,
    })),
    cold_start_ms: { p50: median(cold), p95: percentile(cold, 95), samples: cold },
    cold_start_launcher_ms: { p50: median(coldLauncher), p95: percentile(coldLauncher, 95) },
    targets: Object.fromEntries(checks),
  });
}

if (import.meta.main) await main(Deno.args);
