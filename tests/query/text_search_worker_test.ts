/**
 * The search_text worker (src/query/text_search_worker.ts), started as a real worker over a real
 * index: matches per file in the request's order, line numbers bounded by `keep`, the scan
 * settling after `settleAfter` paths once enough lines were found, and errors as replies.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import type { FileHits, MatchRequest, MatchResponse } from "../../src/query/text_search_worker.ts";
import { indexedView } from "./_fixture.ts";
import { startWorker } from "./_search_worker.ts";

const _URL = new URL("../../src/query/text_search_worker.ts", import.meta.url);

/** Run one request; the files found and the final reply. */
async function _search(
  next: () => Promise<unknown>,
  post: (r: MatchRequest) => void,
  r: MatchRequest,
) {
  post(r);
  const files: FileHits[] = [];
  for (;;) {
    const m = await next() as MatchResponse;
    if ("error" in m) return { files, done: m };
    if ("files" in m) files.push(...m.files);
    if ("done" in m) return { files, done: m };
  }
}

Deno.test("text_search_worker: a scan of the candidate files", async (t) => {
  const { view, close } = await indexedView({
    "a.py": "token = 1\nother = 2\ntoken_two = token\n",
    "b.py": "nothing here\n",
    "c.py": "TOKEN upper\n",
    "d.py": "token again\n",
  });
  const { worker, next } = startWorker(_URL);
  try {
    deepEqual(await next(), { ready: true });
    const base: MatchRequest = {
      id: 1,
      dbPath: view.index.dbPath,
      paths: ["a.py", "b.py", "c.py", "d.py", "missing.py"],
      query: "token",
      isRegex: false,
      caseSensitive: true,
      keep: 10,
      budgetMs: 60_000,
      settleAfter: 100,
      redact: true,
    };
    const post = (r: MatchRequest) => worker.postMessage(r);
    await t.step("every matching file, its count and lines, in request order", async () => {
      const { files, done } = await _search(next, post, base);
      deepEqual(files, [
        { path: "a.py", count: 2, lines: [1, 3], at: 0 },
        { path: "d.py", count: 1, lines: [1], at: 3 },
      ]);
      deepEqual(done, { id: 1, done: true, files_searched: 5, timed_out: false, settled: false });
    });
    await t.step("case-insensitive, and at most `keep` lines a file", async () => {
      const { files } = await _search(next, post, {
        ...base,
        id: 2,
        caseSensitive: false,
        keep: 1,
      });
      deepEqual(files.map((f) => [f.path, f.count, f.lines]), [
        ["a.py", 2, [1]],
        ["c.py", 1, [1]],
        ["d.py", 1, [1]],
      ]);
    });
    await t.step("settled: enough lines after the first paths, the rest left", async () => {
      const { files, done } = await _search(next, post, {
        ...base,
        id: 3,
        keep: 1,
        settleAfter: 1,
      });
      deepEqual(files.map((f) => f.path), ["a.py"]);
      deepEqual(done, { id: 3, done: true, files_searched: 1, timed_out: false, settled: true });
    });
    await t.step("a regex, and an invalid one answered as an error", async () => {
      const { files } = await _search(next, post, {
        ...base,
        id: 4,
        query: "^token_\\w+",
        isRegex: true,
      });
      deepEqual(files.map((f) => [f.path, f.lines]), [["a.py", [3]]]);
      const bad = await _search(next, post, { ...base, id: 5, query: "(", isRegex: true });
      const reply = bad.done as { id: number; error: string };
      equal(reply.id, 5);
      ok(reply.error.length > 0);
    });
  } finally {
    await worker.terminate();
    await close();
  }
});
