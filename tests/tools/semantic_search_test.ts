/**
 * embed_repo and search_symbols(semantic=true) on a real project in a temporary workspace, with a
 * fake OpenAI-compatible provider on 127.0.0.1 (tests/embed/_fake_embedder.ts) and with the local
 * ONNX provider running a model the test builds: vectors stored per symbol, re-runs send only new
 * or changed texts, fusion finds a symbol by a synonym no lexical match has, semantic_only, the
 * filters, and every error (no provider, nothing embedded, another model, a failing provider).
 * Without `semantic` the answer is the lexical one, byte for byte.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { decode } from "../../mod.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { DEFAULT_SETTINGS } from "../../src/server/config.ts";
import { embeddingSettingsFromEnv } from "../../src/embed/config.ts";
import { inThreadParser, tempWorkspace, testConfig, writeTree } from "../ingest/_helpers.ts";
import { startFakeEmbedder } from "../embed/_fake_embedder.ts";
import { writeTinyModel } from "../embed/_onnx_model.ts";

type Body = Record<string, unknown>;

const PROJECT: Record<string, string> = {
  "users.py": [
    "def delete_user(user_id):",
    '    """Delete a user account and its sessions."""',
    "    return user_id",
    "",
    "def load_config(path):",
    '    """Load the configuration file."""',
    "    return path",
    "",
    "class Account:",
    '    """A user account."""',
    "    def balance(self):",
    "        return 0",
    "",
  ].join("\n"),
  "math_utils.py": [
    "def add_numbers(a, b):",
    '    """Add two numbers."""',
    "    return a + b",
    "",
  ].join("\n"),
};

async function workspace(env: Record<string, string>) {
  const ws = tempWorkspace("codemunch-semantic-");
  writeTree(ws.root, PROJECT);
  const runner = new ToolRunner({
    store: ws.store,
    ingest: testConfig(),
    parser: inThreadParser,
    cwd: ws.root,
    settings: DEFAULT_SETTINGS,
    embeddings: embeddingSettingsFromEnv((n) => env[n], ws.indexDir),
  });
  const r = await runner.call("index_folder", { path: ws.root, format: "json" });
  if (r.isError) throw new Error(r.text);
  const repo = (JSON.parse(r.text) as { repo: string }).repo;
  const call = async (tool: string, args: Body, onProgress?: (d: number, t: number) => void) => {
    const out = await runner.call(
      tool,
      { repo, format: "json", ...args },
      onProgress ? { onProgress } : {},
    );
    return { ...out, body: decode(out.text) as Body };
  };
  return {
    ws,
    runner,
    repo,
    call,
    dispose: async () => {
      await runner.close();
      ws.dispose();
    },
  };
}

const names = (body: Body) => (body.results as Body[]).map((r) => r.name);

Deno.test("embed_repo + semantic search with an OpenAI-compatible provider", async (t) => {
  const fake = startFakeEmbedder();
  const w = await workspace({
    OPENAI_API_BASE: `${fake.url}/v1`,
    OPENAI_EMBED_MODEL: "fake-embed",
  });
  try {
    const lexicalBefore = await w.call("search_symbols", { query: "erase user" });

    await t.step("embed_repo embeds every symbol in batches, with progress", async () => {
      const progress: number[] = [];
      const r = await w.call("embed_repo", { batch_size: 2 }, (d) => progress.push(d));
      equal(r.isError, false, r.text);
      const b = r.body;
      equal(b.provider, "openai");
      equal(b.model, "fake-embed");
      equal(b.symbols_total, 5);
      equal(b.symbols_embedded, 5);
      equal(b.symbols_cached, 0);
      equal(b.embedding_dimension, 32);
      equal(fake.requests.length, 3, "5 texts in batches of 2");
      deepEqual(progress, [2, 4, 5]);
      ok(
        fake.requests.flatMap((r) => r.texts).some((t) => t.includes("delete_user")),
        "texts name symbols",
      );
    });

    await t.step("a second run sends nothing: every vector is cached", async () => {
      const before = fake.requests.length;
      const b = (await w.call("embed_repo", {})).body;
      equal(b.symbols_embedded, 0);
      equal(b.symbols_cached, 5);
      equal(fake.requests.length, before);
    });

    await t.step(
      "semantic search finds a synonym no word matches, fused with lexical",
      async () => {
        const r = await w.call("search_symbols", {
          query: "erase user",
          semantic: true,
          debug: true,
        });
        equal(r.isError, false, r.text);
        equal(names(r.body)[0], "delete_user");
        const meta = r.body._meta as Body;
        equal(meta.search_mode, "hybrid");
        equal(meta.fusion, true);
        equal(meta.channels, "lexical,semantic");
        const top = (r.body.results as Body[])[0]!;
        ok((top.score_semantic as number) > 0.5);
        equal(top.rank_semantic, 1);
      },
    );

    await t.step("semantic_only ranks by similarity, with the filters", async () => {
      const r = await w.call("search_symbols", {
        query: "sum",
        semantic_only: true,
        max_results: 2,
      });
      equal(names(r.body)[0], "add_numbers");
      equal((r.body._meta as Body).search_mode, "semantic_only");
      const kinds = await w.call("search_symbols", {
        query: "user account",
        semantic_only: true,
        kind: "class",
      });
      deepEqual(names(kinds.body), ["Account"]);
    });

    await t.step("without semantic the answer is the lexical one, unchanged", async () => {
      const after = await w.call("search_symbols", { query: "erase user" });
      deepEqual(after.body.results, lexicalBefore.body.results);
    });

    await t.step("a changed symbol is embedded again, a removed one's vector dropped", async () => {
      Deno.writeTextFileSync(
        join(w.ws.root, "math_utils.py"),
        'def add_numbers(a, b):\n    """Add two numbers, or more."""\n    return a + b\n',
      );
      await w.runner.call("index_folder", { path: w.ws.root, format: "json" });
      const missing = await w.call("search_symbols", { query: "plus", semantic: true });
      const before = fake.requests.length;
      equal((missing.body._meta as Body).embeddings_missing, 1);
      ok(String((missing.body._meta as Body).hint).includes("run embed_repo"));
      const b = (await w.call("embed_repo", {})).body;
      equal(b.symbols_embedded, 1);
      equal(b.symbols_cached, 4);
      equal(b.vectors_removed, 1);
      equal(fake.requests.length, before + 1);
      deepEqual(fake.requests.at(-1)!.texts.length, 1);
    });

    await t.step(
      "a failing provider: the error says what was stored and how to go on",
      async () => {
        fake.failNext(10, 500, "boom");
        const r = await w.call("embed_repo", { force: true });
        equal(r.isError, true);
        equal(r.code, "embedding_failed");
        ok(
          /500.*boom.*0 of 5 texts were embedded and stored; run embed_repo again/.test(r.text),
          r.text,
        );
        fake.failNext(10, 401, "bad key");
        const q = await w.call("search_symbols", { query: "a new query", semantic: true });
        equal(q.code, "embedding_failed");
        ok(q.text.includes("Failed to embed query"), q.text);
        fake.failNext(0, 0);
      },
    );

    await t.step("semantic_weight out of range is an invalid argument", async () => {
      const r = await w.call("search_symbols", {
        query: "user",
        semantic: true,
        semantic_weight: 2,
      });
      equal(r.code, "invalid_argument");
    });
  } finally {
    await w.dispose();
    await fake.close();
  }
});

Deno.test("semantic search errors: no provider, nothing embedded, another model", async () => {
  const none = await workspace({});
  try {
    const r = await none.call("search_symbols", { query: "user", semantic: true });
    equal(r.code, "no_embedding_provider");
    ok(/download-model.*OPENAI_EMBED_MODEL/.test(r.text), r.text);
    equal((await none.call("embed_repo", {})).code, "no_embedding_provider");
    const lexical = await none.call("search_symbols", { query: "user" });
    equal(lexical.isError, false, "lexical search needs no provider");
  } finally {
    await none.dispose();
  }
  const fake = startFakeEmbedder();
  const w = await workspace({
    OPENAI_API_KEY: "k",
    OPENAI_API_BASE: `${fake.url}/v1`,
    OPENAI_EMBED_MODEL: "a",
  });
  try {
    const r = await w.call("search_symbols", { query: "user", semantic: true });
    equal(r.code, "embeddings_missing");
    ok(r.text.includes("run embed_repo first"));
    equal((await w.call("embed_repo", {})).isError, false);
    // The same index read by a server configured with another model.
    const other = new ToolRunner({
      store: w.ws.store,
      ingest: testConfig(),
      parser: inThreadParser,
      cwd: w.ws.root,
      settings: DEFAULT_SETTINGS,
      embeddings: embeddingSettingsFromEnv(
        (n) =>
          ({ OPENAI_API_BASE: `${fake.url}/v1`, OPENAI_EMBED_MODEL: "b" } as Record<
            string,
            string
          >)[n],
        w.ws.indexDir,
      ),
    });
    const stale = decode(
      (await other.call("search_symbols", { repo: w.repo, query: "user", semantic: true })).text,
    );
    ok(JSON.stringify(stale).includes("embeddings_stale"));
    const re = decode(
      (await other.call("embed_repo", { repo: w.repo, format: "json" })).text,
    ) as Body;
    equal(re.model_changed_from, "openai:a");
    equal(re.symbols_embedded, 5);
  } finally {
    await w.dispose();
    await fake.close();
  }
});

Deno.test("embed_repo + semantic search with the local ONNX model (real runtime)", async () => {
  const ws0 = Deno.makeTempDirSync({ prefix: "codemunch-model-" });
  try {
    writeTinyModel(join(ws0, "tiny"));
    const w = await workspace({ JCODEMUNCH_EMBED_MODEL: join(ws0, "tiny") });
    try {
      const b = (await w.call("embed_repo", {})).body;
      equal(b.provider, "onnx");
      equal(b.model, "tiny");
      equal(b.embedding_dimension, 4);
      equal(b.symbols_embedded, 5);
      const r = await w.call("search_symbols", {
        query: "erase",
        semantic_only: true,
        max_results: 1,
      });
      deepEqual(names(r.body), ["delete_user"]);
    } finally {
      await w.dispose();
    }
  } finally {
    Deno.removeSync(ws0, { recursive: true });
  }
});
