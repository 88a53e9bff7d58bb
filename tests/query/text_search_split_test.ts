/**
 * search_text's scan (issue 18): a large scan split over two workers finds exactly what one
 * worker finds, files in the order of the candidates; the ASCII-literal probe drops no file that
 * has a match (case, non-ASCII text around it, a literal at the end of a file).
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";
import { closeSearchWorkers, searchFiles, splitScan } from "../../src/query/text_search.ts";

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
    for (
      const [query, caseSensitive] of [["http server handler", false], [
        "HTTP Server",
        true,
      ]] as const
    ) {
      const request = {
        dbPath,
        paths,
        query,
        isRegex: false,
        caseSensitive,
        keep: 50,
        budgetMs: 10_000,
        settleMs: 10_000,
        redact: true,
      };
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
  } finally {
    closeSearchWorkers();
    ws.dispose();
  }
});
