/**
 * A provider that remembers the vectors of recent queries (an agent repeats and refines
 * searches; each uncached query is a request to a remote provider or a model run).
 */
import type { EmbeddingProvider } from "./provider.ts";

/** Queries remembered per provider. */
export const QUERY_CACHE_SIZE = 256;

/** `provider` with its single-query embeddings cached (least recently used dropped first). */
export function withQueryCache(
  provider: EmbeddingProvider,
  size = QUERY_CACHE_SIZE,
): EmbeddingProvider {
  const cache = new Map<string, Float32Array>();
  return {
    kind: provider.kind,
    model: provider.model,
    identity: provider.identity,
    batchSize: provider.batchSize,
    async embed(texts, purpose) {
      if (purpose !== "query" || texts.length !== 1) return await provider.embed(texts, purpose);
      const text = texts[0]!;
      const hit = cache.get(text);
      if (hit !== undefined) {
        cache.delete(text);
        cache.set(text, hit);
        return [hit];
      }
      const [v] = await provider.embed(texts, purpose);
      cache.set(text, v!);
      if (cache.size > size) cache.delete(cache.keys().next().value!);
      return [v!];
    },
    close: () => provider.close?.(),
  };
}
