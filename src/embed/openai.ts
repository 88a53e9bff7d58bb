/**
 * An OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, Ollama, LM Studio, vLLM, …): one POST
 * of up to {@linkcode OPENAI_BATCH} texts, `{data: [{index, embedding}]}` back.
 */
import type { OpenAIEmbedSettings } from "./config.ts";
import { postJson, type RetryPolicy } from "./http.ts";
import { checkedVectors, embeddingFailed, type EmbeddingProvider } from "./provider.ts";

/** Texts per request. */
export const OPENAI_BATCH = 64;

/** The provider for an OpenAI-compatible endpoint. */
export function openaiProvider(s: OpenAIEmbedSettings, policy: RetryPolicy): EmbeddingProvider {
  const source = `The embedding endpoint ${s.baseUrl}`;
  let dim: number | undefined;
  return {
    kind: "openai",
    model: s.model,
    identity: `openai:${s.model}`,
    batchSize: OPENAI_BATCH,
    async embed(texts) {
      if (texts.length === 0) return [];
      const reply = await postJson(
        source,
        `${s.baseUrl}/embeddings`,
        s.apiKey !== undefined ? { authorization: `Bearer ${s.apiKey}` } : {},
        { model: s.model, input: texts, encoding_format: "float" },
        policy,
      ) as { data?: unknown };
      if (!Array.isArray(reply.data)) {
        throw embeddingFailed(`${source} sent a reply without "data"`);
      }
      const rows = [...reply.data as { index?: unknown; embedding?: unknown }[]];
      // Entries carry their input's index; a server may send them in another order.
      if (rows.every((r) => typeof r.index === "number")) {
        rows.sort((a, b) => (a.index as number) - (b.index as number));
      }
      const vectors = checkedVectors(source, rows.map((r) => r.embedding), texts.length, dim);
      dim ??= vectors[0]?.length;
      return vectors;
    },
  };
}
