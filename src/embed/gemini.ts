/**
 * Google Gemini's embedding API: `models/<m>:batchEmbedContents` for documents (up to
 * {@linkcode GEMINI_BATCH} per request, `{embeddings: [{values}]}` back) and
 * `models/<m>:embedContent` for a query (`{embedding: {values}}`). Task-aware by default, as in
 * the reference: documents `RETRIEVAL_DOCUMENT`, queries `CODE_RETRIEVAL_QUERY`.
 */
import type { GeminiEmbedSettings } from "./config.ts";
import { postJson, type RetryPolicy } from "./http.ts";
import {
  checkedVectors,
  embeddingFailed,
  type EmbeddingProvider,
  type EmbedPurpose,
} from "./provider.ts";

/** Texts per batch request (the API's limit). */
export const GEMINI_BATCH = 100;

/** The provider for Gemini. */
export function geminiProvider(s: GeminiEmbedSettings, policy: RetryPolicy): EmbeddingProvider {
  const source = `Gemini (${s.model})`;
  const headers = { "x-goog-api-key": s.apiKey };
  const task = (p: EmbedPurpose) =>
    !s.taskAware ? {} : { taskType: p === "query" ? "CODE_RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT" };
  const content = (text: string) => ({ parts: [{ text }] });
  let dim: number | undefined;
  const keep = (vectors: Float32Array[]) => {
    dim ??= vectors[0]?.length;
    return vectors;
  };
  return {
    kind: "gemini",
    model: s.model,
    identity: `gemini:${s.model}${s.taskAware ? ":task" : ""}`,
    batchSize: GEMINI_BATCH,
    async embed(texts, purpose) {
      if (texts.length === 0) return [];
      if (texts.length === 1 && purpose === "query") {
        const reply = await postJson(
          source,
          `${s.baseUrl}/v1beta/${s.model}:embedContent`,
          headers,
          { model: s.model, content: content(texts[0]!), ...task(purpose) },
          policy,
        ) as { embedding?: { values?: unknown } };
        if (reply.embedding === undefined) {
          throw embeddingFailed(`${source} sent a reply without "embedding"`);
        }
        return keep(checkedVectors(source, [reply.embedding.values], 1, dim));
      }
      const reply = await postJson(
        source,
        `${s.baseUrl}/v1beta/${s.model}:batchEmbedContents`,
        headers,
        {
          requests: texts.map((t) => ({ model: s.model, content: content(t), ...task(purpose) })),
        },
        policy,
      ) as { embeddings?: { values?: unknown }[] };
      if (!Array.isArray(reply.embeddings)) {
        throw embeddingFailed(`${source} sent a reply without "embeddings"`);
      }
      return keep(
        checkedVectors(source, reply.embeddings.map((e) => e?.values), texts.length, dim),
      );
    },
  };
}
