/**
 * Benchmark dispatcher: `deno task bench <name> [args...]` runs `scripts/bench_<name>.ts`.
 * Each benchmark compares us with its peer side by side in one run, prints a table and, with
 * `--json <file>`, writes the figures as JSON.
 */
const BENCHES: Record<string, string> = {
  codec: "./bench_codec.ts",
  meta: "./bench_meta.ts",
  parse: "./bench_parse.ts",
  index: "./bench_index.ts",
  search: "./bench_search.ts",
  retrieval: "./bench_retrieval.ts",
  docs: "./bench_docs.ts",
  fresh: "./bench_fresh.ts",
  http: "./bench_http.ts",
  languages: "./bench_languages.ts",
  markdown: "./bench_markdown.ts",
  graph: "./bench_graph.ts",
  history: "./bench_history.ts",
  health: "./bench_health.ts",
  routes: "./bench_routes.ts",
  memory: "./bench_memory.ts",
  startup: "./bench_startup.ts",
  ping: "./bench_ping.ts",
  "worker-start": "./bench_worker_start.ts",
  "train-ranker": "./train_ranker.ts",
  "fit-context": "./fit_context.ts",
};

if (import.meta.main) {
  const [name, ...rest] = Deno.args;
  const target = name === undefined ? undefined : BENCHES[name];
  if (target === undefined) {
    console.error(
      `Usage: deno task bench <${Object.keys(BENCHES).join("|")}> [--json FILE] [options]`,
    );
    Deno.exit(2);
  }
  const mod = await import(target) as { main(args: string[]): Promise<void> };
  await mod.main(rest);
}
