/**
 * Semantic symbol search (src/query/semantic_rank.ts) over a real index whose vectors a real
 * embed_repo stored from the fake OpenAI-compatible provider on 127.0.0.1: similarity alone,
 * reciprocal-rank fusion with the lexical ranking, and the weight moving between the two.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { embeddingSettingsFromEnv } from "../../src/embed/config.ts";
import { normalize } from "../../src/embed/provider.ts";
import { RepoViews } from "../../src/query/view.ts";
import { rankSemantic, type SemanticQuery } from "../../src/query/semantic_rank.ts";
import { DEFAULT_SETTINGS } from "../../src/server/config.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { fakeVector, startFakeEmbedder } from "../embed/_fake_embedder.ts";
import { inThreadParser, tempWorkspace, testConfig, writeTree } from "../ingest/_helpers.ts";

const _PROJECT = {
  "users.py":
    'def delete_user(user_id):\n    """Delete a user account."""\n    return user_id\n\n\n' +
    'def load_user(user_id):\n    """Load one user."""\n    return user_id\n\n\n' +
    'def erase_cache():\n    """Empty the cache."""\n    return None\n',
  "math_utils.py": 'def add_numbers(a, b):\n    """Add two numbers."""\n    return a + b\n',
};

Deno.test("semantic_rank: similarity alone, fused, and the weight between", async (t) => {
  const fake = startFakeEmbedder();
  const ws = tempWorkspace("codemunch-semrank-");
  writeTree(ws.root, _PROJECT);
  const env: Record<string, string> = {
    OPENAI_API_BASE: `${fake.url}/v1`,
    OPENAI_EMBED_MODEL: "fake-embed",
  };
  const runner = new ToolRunner({
    store: ws.store,
    ingest: testConfig(),
    parser: inThreadParser,
    cwd: ws.root,
    settings: DEFAULT_SETTINGS,
    embeddings: embeddingSettingsFromEnv((n) => env[n], ws.indexDir),
  });
  try {
    const indexed = await runner.call("index_folder", { path: ws.root, format: "json" });
    const repo = (JSON.parse(indexed.text) as { repo: string }).repo;
    const embedded = await runner.call("embed_repo", { repo, format: "json" });
    equal(embedded.isError, false, embedded.text);
    const view = new RepoViews(ws.store).open(repo);
    const q = (over: Partial<SemanticQuery>): SemanticQuery => ({
      query: "erase user",
      maxResults: 10,
      vector: normalize(Float32Array.from(fakeVector("erase user"))),
      weight: 0.5,
      only: false,
      ...over,
    });
    const names = (r: ReturnType<typeof rankSemantic>) => r.hits.map((h) => h.symbol.name);
    await t.step("only: the nearest by similarity, ranks from 1", () => {
      const r = rankSemantic(view, q({ only: true }));
      equal(r.hits[0]!.symbol.name, "delete_user");
      r.hits.forEach((h, i) => {
        equal(h.semanticRank, i + 1);
        equal(h.lexicalRank, null);
        equal(h.score, h.similarity);
        if (i > 0) ok(r.hits[i - 1]!.similarity! >= h.similarity!);
      });
      equal(rankSemantic(view, q({ only: true, maxResults: 2 })).hits.length, 2);
    });
    await t.step("fused: both channels' ranks, highest fused score first", () => {
      const r = rankSemantic(view, q({}));
      // The best fused hit is one both channels rank.
      ok(r.hits[0]!.lexicalRank !== null && r.hits[0]!.semanticRank !== null);
      ok(names(r).includes("delete_user"), "found by a synonym no word of it matches");
      for (let i = 1; i < r.hits.length; i++) ok(r.hits[i - 1]!.score >= r.hits[i]!.score);
      ok(r.matched >= r.hits.length);
    });
    await t.step("weight 1 is the semantic order, weight 0 puts the lexical hits first", () => {
      const semantic = names(rankSemantic(view, q({ only: true })));
      deepEqual(names(rankSemantic(view, q({ weight: 1 }))).slice(0, semantic.length), semantic);
      const lexicalFirst = rankSemantic(view, q({ weight: 0 })).hits;
      const ranked = lexicalFirst.filter((h) => h.lexicalRank !== null);
      deepEqual(lexicalFirst.slice(0, ranked.length), ranked);
      deepEqual(ranked.map((h) => h.lexicalRank), ranked.map((_, i) => i + 1));
    });
  } finally {
    await runner.close();
    ws.dispose();
    await fake.close();
  }
});
