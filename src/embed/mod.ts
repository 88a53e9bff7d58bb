/**
 * Embedding providers behind one interface (provider.ts), chosen from the environment
 * (config.ts); the model download of `codemunch download-model` (download.ts).
 *
 * @module
 */
import type { EmbeddingSettings } from "./config.ts";
import { NO_PROVIDER_MESSAGE } from "./config.ts";
import { ToolError } from "../errors.ts";
import { geminiProvider } from "./gemini.ts";
import { openaiProvider } from "./openai.ts";
import { onnxProvider } from "./onnx.ts";
import type { EmbeddingProvider } from "./provider.ts";
import { DEFAULT_RETRY } from "./http.ts";
import { withQueryCache } from "./query_cache.ts";

export type { EmbeddingProvider, EmbedPurpose } from "./provider.ts";
export type { EmbeddingSettings } from "./config.ts";

/** No provider: semantic search answers `no_embedding_provider`. */
export const NO_EMBEDDINGS: EmbeddingSettings = {
  provider: null,
  modelsDir: "",
  timeoutMs: DEFAULT_RETRY.timeoutMs,
  retries: DEFAULT_RETRY.retries,
};

/** The configured provider; `no_embedding_provider` (saying how to configure one) when none. */
export function createProvider(settings: EmbeddingSettings): EmbeddingProvider {
  const p = settings.provider;
  if (p === null) throw new ToolError("no_embedding_provider", NO_PROVIDER_MESSAGE);
  const policy = { ...DEFAULT_RETRY, timeoutMs: settings.timeoutMs, retries: settings.retries };
  const provider = p.kind === "openai"
    ? openaiProvider(p, policy)
    : p.kind === "gemini"
    ? geminiProvider(p, policy)
    : onnxProvider(p);
  return withQueryCache(provider);
}
