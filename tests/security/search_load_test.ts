/**
 * Searches under load (issue 25, high 4 and minor 9): twenty identical `search_ast` scans, ten
 * different ones and twenty catastrophic regexes at once, over a real MCP client, against the
 * server as its own process. The workers are one bounded pool: `ping` is answered within a
 * second throughout, the process's threads stay bounded, and no answer is a silent 0 — each is
 * the full result, a cut result that says it was cut (`timed_out`, `files_scanned` of
 * `files_total`), or `server_busy`.
 */
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { resultText } from "../e2e/_server.ts";
import { FREEZE_MS, limitedServer, longestPing, procField } from "./_limited_server.ts";

Deno.test("searches under load: ping within a second, bounded threads, no silent 0", async () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-load-" }));
  const root = join(base, "project");
  Deno.mkdirSync(root);
  for (let i = 0; i < 200; i++) {
    const body = Array.from(
      { length: 30 },
      (_, k) =>
        `def handler_${i}_${k}(request):\n    value = request.args.get("k${k}")\n    return cache.get(value) or "${
          "a".repeat(40)
        }"\n`,
    );
    Deno.writeTextFileSync(join(root, `mod${i}.py`), body.join("\n"));
  }
  const server = await limitedServer({
    CODE_INDEX_PATH: join(base, "index"),
    CODEMUNCH_ALLOWED_ROOTS: root,
  }, 512);
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await server.client.callTool({ name, arguments: { ...args, format: "json" } });
    return { isError: r.isError === true, body: JSON.parse(resultText(r)) };
  };
  try {
    const indexed = await call("index_folder", { path: root });
    equal(indexed.isError, false, JSON.stringify(indexed.body));
    const repo = indexed.body.repo as string;
    const alone = await call("search_ast", { repo, pattern: "call:*.get" });
    const expected = alone.body.total_matches as number;
    equal(expected, 200 * 30 * 2);
    // The cache would answer the identical scans at once: another index state has none.
    Deno.writeTextFileSync(join(root, "mod0.py"), "def changed(r):\n    return r.get(1)\n");
    await call("index_folder", { path: root });
    const after = expected - 60 + 1;
    let maxThreads = 0;
    const sampler = setInterval(
      () => maxThreads = Math.max(maxThreads, procField(server.pid, "Threads")),
      50,
    );
    const load = Promise.all([
      ...Array.from({ length: 20 }, () => call("search_ast", { repo, pattern: "call:*.get" })),
      ...Array.from(
        { length: 10 },
        (_, i) => call("search_ast", { repo, pattern: `string:/k${i}/` }),
      ),
      ...Array.from(
        { length: 20 },
        () => call("search_text", { repo, query: "(a|a)+$", is_regex: true }),
      ),
    ]);
    const ping = await longestPing(server.client, load);
    clearInterval(sampler);
    const answers = await load;
    let busy = 0, cut = 0, full = 0;
    for (const [i, a] of answers.entries()) {
      if (a.isError) {
        equal(a.body.code, "server_busy", JSON.stringify(a.body));
        busy++;
        continue;
      }
      const meta = a.body._meta ?? {};
      if (meta.timed_out === true) {
        // Cut: it says so and what was searched, never a bare 0.
        ok(a.body.truncated === true || meta.total_is_lower_bound === true, JSON.stringify(a.body));
        ok(typeof (meta.files_scanned ?? meta.files_searched) === "number", JSON.stringify(meta));
        cut++;
        continue;
      }
      if (i < 20) equal(a.body.total_matches, after, JSON.stringify(meta));
      full++;
    }
    console.log(
      `longest ping ${
        ping.toFixed(0)
      } ms, most threads ${maxThreads}, answers: ${full} full, ${cut} cut, ${busy} busy; peak RSS ${
        server.peakRssMb().toFixed(0)
      } MB`,
    );
    ok(ping < FREEZE_MS, `ping took ${ping} ms`);
    // 255-371 threads before; the pool bounds the workers (each brings a few threads).
    ok(maxThreads < 128, `${maxThreads} threads`);
    // The twenty identical scans share one run.
    ok(answers.slice(0, 20).every((a) => !a.isError && a.body.total_matches === after));
  } finally {
    await server.close();
    Deno.removeSync(base, { recursive: true });
  }
});
