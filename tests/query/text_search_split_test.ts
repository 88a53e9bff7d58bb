/**
 * search_text's scan (issue 18): a large scan split over two workers finds exactly what one
 * worker finds, files in the order of the candidates, also when it stops early with enough
 * matches; the ASCII-literal probe drops no file that has a match (case, non-ASCII text around it,
 * a literal at the end of a file).
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";
import {
  closeSearchWorkers,
  searchFiles,
  settlePoint,
  splitScan,
} from "../../src/query/text_search.ts";

Deno.test("searchFiles: a split scan finds what one worker finds, in candidate order", async () => {
  const ws = tempWorkspace();
  try {
    const filler = "# ünïcödé text around the match — “quotes” and ASCII\n".repeat(700);
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) {
      const name = `pkg/m${String(i).padStart(2, "0")}.py`;
      files[name] = i % 7 === 0
        ? `${filler}# The HTTP Server Handler is here\n${filler}`
        : i % 11 === 0
        ? `${filler}x = "http server handler"`
        : i % 5 === 0
        ? `${filler}# http server, handler: not the phrase\n`
        : filler;
    }
    writeTree(ws.root, files);
    const runner = workspaceRunner(ws);
    const indexed = JSON.parse(
      (await runner.call("index_folder", { path: ws.root, format: "json" })).text,
    );
    const dbPath = ws.store.dbPath(indexed.repo);
    const paths = Object.keys(files).sort();
    const sizes = new Map(
      Object.entries(files).map(([p, t]) => [p, new TextEncoder().encode(t).length]),
    );
    // Two contiguous parts of about equal bytes, in candidate order (whatever this machine's cores).
    const parts = splitScan(paths, (p) => sizes.get(p) ?? 0, 2);
    equal(parts.length, 2);
    deepStrictEqual(parts.flat(), paths);
    const bytesOf = (part: string[]) => part.reduce((n, p) => n + sizes.get(p)!, 0);
    const half = (bytesOf(parts[0]!) + bytesOf(parts[1]!)) / 2;
    ok(Math.abs(bytesOf(parts[0]!) - half) <= Math.max(...sizes.values()), "about equal bytes");
    deepStrictEqual(splitScan(paths.slice(0, 3), (p) => sizes.get(p) ?? 0, 2).length, 1);
    const requestFor = (query: string, caseSensitive = false) => ({
      dbPath,
      paths,
      query,
      isRegex: false,
      caseSensitive,
      keep: 50,
      budgetMs: 10_000,
      settleAfter: paths.length,
      redact: true,
    });
    for (
      const [query, caseSensitive] of [["http server handler", false], [
        "HTTP Server",
        true,
      ]] as const
    ) {
      const request = requestFor(query, caseSensitive);
      const one = await searchFiles(request);
      const split = await searchFiles(request, (p) => sizes.get(p) ?? 0);
      deepStrictEqual(split, one, query);
      equal(one.filesSearched, 40);
      const expected = paths.filter((_p, i) =>
        caseSensitive ? i % 7 === 0 : i % 7 === 0 || i % 11 === 0
      );
      deepStrictEqual(one.files.map((f) => f.path), expected, query);
      for (const f of one.files) equal(f.lines.length, 1);
    }
    // Stopping early: at the same file split or not, wherever the stop point and the split are.
    // (It used to be a time, 100 ms: under load the same call stopped after 1 to 225 files.)
    const every = { ...requestFor("http server handler"), keep: 2 };
    const matching = [0, 7, 11, 14, 21, 22, 28, 33, 35];
    for (const settleAfter of [0, 5, 12, 19, 20, 21, 30, 34, 40]) {
      const request = { ...every, settleAfter };
      const one = await searchFiles(request);
      const split = await searchFiles(request, (p) => sizes.get(p) ?? 0);
      deepStrictEqual(split, one, `settleAfter ${settleAfter}`);
      // The second matching file gives 2 lines: stop after it, or after settleAfter paths.
      const stop = Math.max(matching[1]! + 1, settleAfter);
      equal(one.filesSearched, Math.min(stop, 40), `settleAfter ${settleAfter}`);
      equal(one.settled, stop < 40);
      deepStrictEqual(one.files.map((f) => f.at), matching.filter((i) => i < stop));
    }
    deepStrictEqual(
      [0, 1, 3, 1e9].map((b) => settlePoint(["a", "b", "c"], () => 1, b)),
      [1, 1, 3, 3],
    );
  } finally {
    closeSearchWorkers();
    ws.dispose();
  }
});
