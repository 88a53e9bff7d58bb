/**
 * search_text gives the same answer to the same call, however busy the machine: a search that
 * stops early with enough matches stops after a set amount of candidate text (bytes), not after a
 * time, and whether its scan was split over two workers (an idle pool) or not (a busy one) makes
 * no difference. Main's CI once saw `return` answered from 57 files and then from 9 (different
 * rows, "at least 23" matching lines) by two identical calls on a loaded machine.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";
import { closeSearchWorkers } from "../../src/query/text_search.ts";

Deno.test("search_text: identical calls, idle or busy pool, identical answers", async () => {
  const ws = tempWorkspace("codemunch-settle-");
  try {
    // 60 files of ~100 KB (6 MB: more than the 4 MB after which a search may stop), a match
    // every 40 lines; text files, so indexing parses nothing.
    const files: Record<string, string> = {};
    const block = Array.from({ length: 39 }, (_, i) => `filler line ${i} of plain words`)
      .join("\n") + "\nthe needle is here\n";
    for (let i = 0; i < 60; i++) {
      files[`notes/n${String(i).padStart(2, "0")}.txt`] = block.repeat(
        Math.ceil(100_000 / block.length),
      );
    }
    writeTree(ws.root, files);
    const runner = workspaceRunner(ws);
    const indexed = JSON.parse(
      (await runner.call("index_folder", { path: ws.root, format: "json" })).text,
    );
    const repo = indexed.repo as string;
    const search = async () => {
      const body = JSON.parse(
        (await runner.call("search_text", { repo, query: "needle", format: "json" })).text,
      );
      delete body._meta.timing_ms;
      for (const k of Object.keys(body._meta)) {
        if (/^total_(tokens|encoding)/.test(k)) delete body._meta[k];
      }
      delete body._meta.tokens_saved;
      return body;
    };
    const idle = await search();
    // A regex that runs to its time budget keeps a worker of the pool busy meanwhile: the next
    // search is not split.
    const hang = runner.call("search_text", {
      repo,
      query: "(.*,){12}Q",
      is_regex: true,
      format: "json",
    });
    await new Promise((done) => setTimeout(done, 200));
    const busy = await search();
    await hang;
    const again = await search();
    deepStrictEqual(busy, idle);
    deepStrictEqual(again, idle);
    equal(idle._meta.timed_out, false);
    equal(idle._meta.total_is_lower_bound, true, JSON.stringify(idle._meta));
    // About 4 MB of the 6 MB: 40 of the 60 files.
    ok(
      idle._meta.files_searched >= 39 && idle._meta.files_searched <= 41,
      JSON.stringify(idle._meta),
    );
    equal(idle.result_count, 20);
  } finally {
    closeSearchWorkers();
    ws.dispose();
  }
});
