/**
 * The remote providers against a fake server on 127.0.0.1: the OpenAI-compatible and Gemini
 * request and reply shapes, vectors normalised and in input order, 429 and 5xx retried (with
 * `Retry-After`), other errors reported with the provider's message, wrong vector counts and
 * dimensions refused.
 */
import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { openaiProvider } from "../../src/embed/openai.ts";
import { geminiProvider } from "../../src/embed/gemini.ts";
import { DEFAULT_RETRY } from "../../src/embed/http.ts";
import { ToolError } from "../../src/errors.ts";
import { FAKE_DIM, fakeVector, startFakeEmbedder } from "./_fake_embedder.ts";

const POLICY = { ...DEFAULT_RETRY, retries: 2, baseDelayMs: 1, timeoutMs: 10_000 };

function unit(v: number[]): number[] {
  const n = Math.hypot(...v);
  return v.map((x) => Math.fround(x / n));
}

const failsWith = (code: string, pattern: RegExp) => (e: unknown) =>
  e instanceof ToolError && e.code === code && pattern.test(e.message);

Deno.test("openai provider: /v1/embeddings shape, order by index, normalised, bearer key", async () => {
  const fake = startFakeEmbedder();
  try {
    const p = openaiProvider(
      { kind: "openai", baseUrl: `${fake.url}/v1`, apiKey: "sk-test", model: "fake-embed" },
      POLICY,
    );
    const texts = ["deleteUser removes a user", "loadConfig reads the config"];
    const vectors = await p.embed(texts, "document");
    equal(vectors.length, 2);
    for (const [i, v] of vectors.entries()) {
      equal(v.length, FAKE_DIM);
      deepEqual([...v], unit(fakeVector(texts[i]!)));
    }
    const req = fake.requests[0]!;
    equal(req.path, "/v1/embeddings");
    equal(req.headers.get("authorization"), "Bearer sk-test");
    deepEqual(req.body, { model: "fake-embed", input: texts, encoding_format: "float" });
    equal(p.identity, "openai:fake-embed");
  } finally {
    await fake.close();
  }
});

Deno.test("openai provider: a 429 is retried, a 400 fails with the provider's message", async () => {
  const fake = startFakeEmbedder();
  try {
    const p = openaiProvider(
      { kind: "openai", baseUrl: `${fake.url}/v1`, apiKey: undefined, model: "m" },
      POLICY,
    );
    fake.failNext(2, 429, "rate limited");
    const [v] = await p.embed(["hello"], "query");
    equal(v!.length, FAKE_DIM);
    equal(fake.requests.length, 3, "two 429s, then the answer");
    equal(fake.requests[0]!.headers.get("authorization"), null, "no key: no header");

    fake.failNext(3, 429, "rate limited");
    await rejects(
      p.embed(["x"], "query"),
      failsWith("embedding_failed", /429 \(after 3 attempts\): rate limited/),
    );

    fake.failNext(1, 400, "model not found: m");
    await rejects(
      p.embed(["x"], "query"),
      failsWith("embedding_failed", /answered 400: model not found: m/),
    );

    fake.failNext(1, 503, "overloaded");
    equal((await p.embed(["after a 503"], "query")).length, 1);
  } finally {
    await fake.close();
  }
});

Deno.test("openai provider: bad dimensions and an unreachable endpoint are clear errors", async () => {
  const fake = startFakeEmbedder();
  try {
    const p = openaiProvider({
      kind: "openai",
      baseUrl: `${fake.url}/v1`,
      apiKey: undefined,
      model: "m",
    }, POLICY);
    fake.badDimensionNext();
    await rejects(
      p.embed(["a", "b"], "document"),
      failsWith("embedding_failed", /different dimensions \(32 and 33\)/),
    );
    await p.embed(["a"], "document");
    fake.badDimensionNext();
    await rejects(
      p.embed(["c"], "document"),
      failsWith("embedding_failed", /different dimensions/),
      "a later reply of another length",
    );
  } finally {
    await fake.close();
  }
  const closed = openaiProvider(
    { kind: "openai", baseUrl: fake.url + "/v1", apiKey: undefined, model: "m" },
    { ...POLICY, retries: 1 },
  );
  await rejects(
    closed.embed(["x"], "query"),
    failsWith("embedding_failed", /could not be reached/),
  );
});

Deno.test("gemini provider: batchEmbedContents for documents, embedContent for a query, task types", async () => {
  const fake = startFakeEmbedder();
  try {
    const p = geminiProvider(
      {
        kind: "gemini",
        baseUrl: fake.url,
        apiKey: "g-key",
        model: "models/text-embedding-004",
        taskAware: true,
      },
      POLICY,
    );
    const docs = await p.embed(["sumTotal adds numbers", "dropTable"], "document");
    deepEqual([...docs[0]!], unit(fakeVector("sumTotal adds numbers")));
    const [q] = await p.embed(["plus"], "query");
    equal(q!.length, FAKE_DIM);
    const [batch, single] = fake.requests;
    equal(batch!.path, "/v1beta/models/text-embedding-004:batchEmbedContents");
    equal(batch!.headers.get("x-goog-api-key"), "g-key");
    const r0 = (batch!.body.requests as Record<string, unknown>[])[0]!;
    deepEqual(r0, {
      model: "models/text-embedding-004",
      content: { parts: [{ text: "sumTotal adds numbers" }] },
      taskType: "RETRIEVAL_DOCUMENT",
    });
    equal(single!.path, "/v1beta/models/text-embedding-004:embedContent");
    equal(single!.body.taskType, "CODE_RETRIEVAL_QUERY");
    fake.failNext(1, 429);
    equal((await p.embed(["again"], "query")).length, 1, "429 retried");
    fake.failNext(1, 403, "API key not valid");
    await rejects(
      p.embed(["x", "y"], "document"),
      failsWith("embedding_failed", /403: API key not valid/),
    );
  } finally {
    await fake.close();
  }
});

Deno.test("gemini provider: without task types, a reply of the wrong size is refused", async () => {
  const fake = startFakeEmbedder();
  try {
    const p = geminiProvider(
      { kind: "gemini", baseUrl: fake.url, apiKey: "k", model: "models/e", taskAware: false },
      POLICY,
    );
    await p.embed(["a", "b"], "document");
    equal((fake.requests[0]!.body.requests as Record<string, unknown>[])[0]!.taskType, undefined);
    ok(!p.identity.endsWith(":task"));
    fake.badDimensionNext();
    await rejects(p.embed(["c", "d"], "document"), failsWith("embedding_failed", /dimensions/));
  } finally {
    await fake.close();
  }
});
