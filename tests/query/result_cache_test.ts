/** The per-index-state answer caches (src/query/result_cache.ts): LRU order, bound, one per view. */
import { equal, notEqual } from "node:assert/strict";
import { Lru, lruFacet } from "../../src/query/result_cache.ts";
import { indexedView } from "./_fixture.ts";

Deno.test("result_cache: the least recently used entry goes first", async (t) => {
  await t.step("a full cache drops the oldest entry", () => {
    const lru = new Lru<number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    lru.set("c", 3);
    equal(lru.size, 2);
    equal(lru.get("a"), undefined);
    equal(lru.get("b"), 2);
    equal(lru.get("c"), 3);
  });
  await t.step("reading an entry makes it the most recent", () => {
    const lru = new Lru<number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    equal(lru.get("a"), 1);
    lru.set("c", 3);
    equal(lru.get("b"), undefined);
    equal(lru.get("a"), 1);
  });
  await t.step("setting a key again replaces it without growing", () => {
    const lru = new Lru<string>(2);
    lru.set("a", "x");
    lru.set("a", "y");
    equal(lru.size, 1);
    equal(lru.get("a"), "y");
  });
});

Deno.test("result_cache: one cache per index state, dropped with a re-index", async () => {
  const ANSWERS = lruFacet<string>("result-cache-test", 4);
  const { view, views, runner, ws, repo, close } = await indexedView({
    "a.py": "def f():\n    return 1\n",
  });
  try {
    const cache = view.get(ANSWERS);
    cache.set("q", "answer");
    equal(view.get(ANSWERS), cache);
    equal(views.open(repo).get(ANSWERS).get("q"), "answer", "the same index state keeps it");
    Deno.writeTextFileSync(`${ws.root}/b.py`, "def g():\n    return 2\n");
    const r = await runner.call("index_folder", { path: ws.root, format: "json" });
    equal(r.isError, false, r.text);
    const fresh = views.open(repo);
    notEqual(fresh.get(ANSWERS), cache);
    equal(fresh.get(ANSWERS).get("q"), undefined);
  } finally {
    await close();
  }
});
