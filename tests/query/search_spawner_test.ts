/**
 * The search pool's spawner thread (src/query/search_spawner.ts) and the port a worker answers on
 * (src/query/search_port.ts): a worker spawned through it talks over the port it was handed, a
 * worker that cannot start is reported by id, and outside a worker there is no port.
 */
import { deepEqual, equal, match } from "node:assert/strict";
import { searchPort } from "../../src/query/search_port.ts";
import type { SpawnerReply } from "../../src/query/search_spawner.ts";
import type { MatchResponse } from "../../src/query/text_search_worker.ts";
import { indexedView } from "./_fixture.ts";
import { channel, startWorker } from "./_search_worker.ts";

const _SPAWNER = new URL("../../src/query/search_spawner.ts", import.meta.url);
const _TEXT = new URL("../../src/query/text_search_worker.ts", import.meta.url);

Deno.test("search_port: no port outside a worker", () => {
  equal(searchPort(), null);
});

Deno.test("search_spawner: a spawned worker answers on its own port", async () => {
  const { view, close } = await indexedView({ "a.py": "needle = 1\n" });
  const spawner = startWorker(_SPAWNER);
  try {
    deepEqual(await spawner.next(), { op: "ready" } satisfies SpawnerReply);
    const c = channel();
    spawner.worker.postMessage({ op: "spawn", id: 7, url: _TEXT.href, port: c.port }, [c.port]);
    deepEqual(await c.next(), { ready: true });
    c.local.postMessage({
      id: 1,
      dbPath: view.index.dbPath,
      paths: ["a.py"],
      query: "needle",
      isRegex: false,
      caseSensitive: true,
      keep: 5,
      budgetMs: 60_000,
      settleAfter: 10,
      redact: true,
    });
    const replies: MatchResponse[] = [];
    for (;;) {
      const m = await c.next() as MatchResponse;
      replies.push(m);
      if ("done" in m || "error" in m) break;
    }
    deepEqual(replies, [
      { id: 1, files: [{ path: "a.py", count: 1, lines: [1], at: 0 }], files_searched: 1 },
      { id: 1, done: true, files_searched: 1, timed_out: false, settled: false },
    ]);
    spawner.worker.postMessage({ op: "terminate", id: 7 });
    c.local.close();
  } finally {
    await spawner.worker.terminate();
    await close();
  }
});

Deno.test("search_spawner: a worker that cannot start is reported by its id", async () => {
  const spawner = startWorker(_SPAWNER);
  try {
    await spawner.next();
    const c = channel();
    const missing = new URL("./no_such_worker.ts", _TEXT).href;
    spawner.worker.postMessage({ op: "spawn", id: 9, url: missing, port: c.port }, [c.port]);
    const reply = await spawner.next() as SpawnerReply;
    equal(reply.op, "error");
    if (reply.op === "error") {
      equal(reply.id, 9);
      // The message is the runtime's (a missing module, or a failed type check under deno test).
      match(reply.message, /\S/);
    }
    c.local.close();
  } finally {
    await spawner.worker.terminate();
  }
});
