/**
 * The learned re-ranking (src/query/learned_rank.ts): its features, the order it gives (the first
 * match kept, scores still falling, matches past the depth left in place), its use by
 * search_symbols for a description only, and the fit of scripts/train_ranker.ts.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import {
  CONTEXT_MODEL,
  nameCover,
  nameCoverTerms,
  rerank,
  RERANK_DEPTH,
  RERANK_FEATURES,
  RERANK_KEEP,
  rerankFeatures,
  type RerankItem,
  type RerankModel,
  SEARCH_MODEL,
} from "../../src/query/learned_rank.ts";
import { fitLogistic } from "../../scripts/train_ranker.ts";
import { indexedFixture } from "./_fixture.ts";

function item(name: string, file: string, score: number, lines = 1, linked = false): RerankItem {
  return { name, file, line: 10, end_line: 10 + lines - 1, score, linked };
}

Deno.test("name cover counts a name's own words that the query has, stemmed", () => {
  const terms = nameCoverTerms("change how cookies are signed");
  equal(nameCover("HttpRequest.get_signed_cookie", terms), 2 / 3);
  equal(nameCover("Signer", terms), 1);
  equal(nameCover("Storage", terms), 0);
  // A query word of three letters or more covers a longer word it starts.
  equal(nameCover("formatting", nameCoverTerms("format a value")), 1);
  equal(nameCover("x", new Set()), 0);
});

Deno.test("features: score share, place, link, directory, length, name cover", () => {
  const terms = nameCoverTerms("parse a header");
  const rows = rerankFeatures([
    item("parse_header", "pkg/http/header.py", 10, 20, false),
    item("Other.run", "pkg/other.py", 5, 1, true),
  ], terms);
  equal(rows[0]!.length, RERANK_FEATURES.length);
  deepEqual(rows[0], [1, 0, 0, 1, Math.log(21), 1]);
  deepEqual(rows[1], [0.5, Math.log(2), 1, 0, Math.log(2), 0]);
});

Deno.test("rerank keeps the first match, orders the rest by the model, scores fall", () => {
  // A model that only likes name cover.
  const model: RerankModel = { weights: [0, 0, 0, 0, 0, 5], intercept: -2 };
  const items = [
    item("first", "a/x.py", 10),
    item("unrelated", "b/y.py", 9),
    item("parse_header", "b/z.py", 3),
    item("parse", "b/z.py", 2),
  ];
  const scores = new Map<string, number>();
  const out = rerank(items, nameCoverTerms("parse the header"), model, (x, s) => {
    scores.set(x.name, s);
  });
  equal(RERANK_KEEP, 1);
  deepEqual(out.map((x) => x.name), ["first", "parse_header", "parse", "unrelated"]);
  const s = out.map((x) => scores.get(x.name)!);
  equal(s[0], 10);
  for (let i = 1; i < s.length; i++) ok(s[i]! <= s[i - 1]!, `score ${i} rose: ${s.join(", ")}`);
});

Deno.test("rerank leaves what is past the depth in order, below the re-ordered", () => {
  const model: RerankModel = { weights: [0, 0, 0, 0, 0, 0], intercept: 0 };
  const items = Array.from(
    { length: RERANK_DEPTH + 5 },
    (_, i) => item(`s${i}`, "a.py", 1000 - i),
  );
  const rescored = new Map<RerankItem, number>();
  const out = rerank(items, new Set(), model, (x, s) => void rescored.set(x, s));
  // Equal estimates: the order stays.
  deepEqual(out.map((x) => x.name), items.map((x) => x.name));
  const scores = out.map((x) => rescored.get(x) ?? x.score);
  for (let i = 1; i < scores.length; i++) ok(scores[i]! <= scores[i - 1]!);
});

Deno.test("the shipped models: one weight per feature, all but the place's positive", () => {
  for (const m of [SEARCH_MODEL, CONTEXT_MODEL]) {
    equal(m.weights.length, RERANK_FEATURES.length);
    m.weights.forEach((w, i) => {
      if (RERANK_FEATURES[i] === "rank") ok(w < 0);
      else ok(w >= 0, `${RERANK_FEATURES[i]} ${w}`);
    });
  }
  // The context's model leaves the length out: a long symbol costs budget.
  equal(CONTEXT_MODEL.weights[RERANK_FEATURES.indexOf("lines")], 0);
});

Deno.test("the fit is deterministic and learns an informative feature", () => {
  // Relevance follows name cover; the other features are noise from a fixed sequence.
  const samples = [0, 1, 2, 3].map((q) => {
    const x: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < 30; i++) {
      const cover = ((i * 7 + q) % 10) / 10;
      x.push([((i * 13 + q) % 17) / 17, Math.log(1 + i), i % 2, (i >> 1) % 2, (i % 5) / 5, cover]);
      y.push(cover >= 0.7 ? 1 : 0);
    }
    return { x, y };
  });
  const a = fitLogistic(samples);
  deepEqual(fitLogistic(samples), a);
  const cover = RERANK_FEATURES.indexOf("name_cover");
  for (let j = 0; j < RERANK_FEATURES.length; j++) {
    if (j !== cover) ok(Math.abs(a.weights[j]!) < a.weights[cover]!, `${RERANK_FEATURES[j]}`);
  }
  equal(fitLogistic(samples, ["lines"]).weights[RERANK_FEATURES.indexOf("lines")], 0);
});

Deno.test("search_symbols re-orders a description, not a name", async () => {
  const { runner, repo, close } = await indexedFixture("context");
  try {
    const search = async (query: string) => {
      const r = await runner.call("search_symbols", { repo, query, debug: true, format: "json" });
      equal(r.isError, false, r.text);
      return (JSON.parse(r.text) as {
        results: { id: string; score: number; score_model?: number }[];
      })
        .results;
    };
    const described = await search("total price of the cart with tax");
    ok(described.length > 1);
    equal(described[0]!.score_model !== undefined, true);
    for (let i = 1; i < described.length; i++) ok(described[i]!.score <= described[i - 1]!.score);
    const named = await search("price_with_tax");
    equal(named.every((h) => h.score_model === undefined), true);
  } finally {
    await close();
  }
});
