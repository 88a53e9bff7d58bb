/**
 * No search pattern can hang the server (issue 10): catastrophic regexes on an ordinary small
 * JavaScript repository end within the time budget with `timed_out`, and the server answers
 * `ping` and other calls while they run. Driven through the real MCP stdio client against the
 * server as a client config starts it (narrow permissions).
 */
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { call, connect } from "../e2e/_server.ts";
import { FREEZE_MS } from "./_limited_server.ts";

/** The search budget (2 s) plus the grace before the matcher is terminated, plus slack. */
const _SEARCH_LIMIT_MS = 6000;
/** A ping answer while a search runs: a freeze, not latency (see FREEZE_MS). */
const _PING_LIMIT_MS = FREEZE_MS;

function _project(): { base: string; root: string; indexDir: string } {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-hang-" }));
  const root = join(base, "app");
  Deno.mkdirSync(join(root, "src"), { recursive: true });
  const lines = [
    "// An ordinary module with the long lines any repository has.",
    `export const CSV = "${"field,".repeat(60)}end";`,
    `export const AS = "${"a".repeat(48)}!";`,
    `export const WORDS = "${"lorem ipsum dolor sit amet ".repeat(12)}";`,
    "export function add(a, b) {",
    "  return a + b;",
    "}",
  ];
  for (let i = 0; i < 6; i++) {
    Deno.writeTextFileSync(join(root, "src", `mod${i}.js`), lines.join("\n") + "\n");
  }
  return { base, root, indexDir: join(base, "index") };
}

Deno.test("search_text: catastrophic regexes end within the budget; ping answers meanwhile", async (t) => {
  const p = _project();
  const server = await connect(p.root, p.indexDir);
  const { client } = server;
  try {
    const indexed = await call(client, "index_folder", { path: p.root, format: "json" });
    equal(indexed.isError, false, indexed.text);
    const repo = String(indexed.body.repo);
    for (const query of [".*.*.*.*.*.*Q", "((a+))+$", "(a|a)+$", "(.*,){12}Q", "(\\w+\\s?)*!$"]) {
      await t.step(query, async () => {
        const started = performance.now();
        const search = call(client, "search_text", {
          repo,
          query,
          is_regex: true,
          format: "json",
        });
        // Ping a few times while the search runs: each answer must come quickly.
        let pings = 0;
        let done = false;
        search.finally(() => done = true);
        while (!done && performance.now() - started < _SEARCH_LIMIT_MS) {
          const t0 = performance.now();
          await client.ping();
          const ms = performance.now() - t0;
          ok(ms < _PING_LIMIT_MS, `ping took ${ms.toFixed(0)} ms during "${query}"`);
          pings++;
          await new Promise((r) => setTimeout(r, 100));
        }
        const r = await search;
        const elapsed = performance.now() - started;
        ok(elapsed < _SEARCH_LIMIT_MS, `"${query}" took ${elapsed.toFixed(0)} ms`);
        equal(r.isError, false, r.text);
        ok(pings > 0);
        const meta = r.body._meta as Record<string, unknown>;
        equal(typeof meta.timed_out, "boolean");
      });
    }
    await t.step("the server still searches normally afterwards", async () => {
      const r = await call(client, "search_text", {
        repo,
        query: "return a \\+ b",
        is_regex: true,
        format: "json",
      });
      equal(r.isError, false, r.text);
      equal(r.body.result_count, 6);
      equal((r.body._meta as Record<string, unknown>).timed_out, false);
    });
    await t.step("a reversed range or a 1 MB file_pattern is invalid_argument", async () => {
      for (const file_pattern of ["[z-a]", "*".repeat(1024 * 1024)]) {
        const r = await call(client, "search_text", {
          repo,
          query: "add",
          file_pattern,
          format: "json",
        });
        equal(r.isError, true);
        equal(r.body.code, "invalid_argument", r.text.slice(0, 200));
      }
    });
    await t.step("a glob that backtracks on a deep path ends at once", async () => {
      const started = performance.now();
      const r = await call(client, "search_text", {
        repo,
        query: "add",
        file_pattern: "*d*d*d*d*d*d*d*d*d*d*d*d*d*d*.js",
        format: "json",
      });
      equal(r.isError, false, r.text);
      ok(performance.now() - started < 2000);
    });
  } finally {
    await server.close();
    Deno.removeSync(p.base, { recursive: true });
  }
});
