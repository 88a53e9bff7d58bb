/**
 * The embedding provider interface: texts in, one unit-length vector per text out. Three
 * providers implement it (config.ts picks one from the environment): an OpenAI-compatible
 * `/v1/embeddings` endpoint (openai.ts: OpenAI, Ollama, LM Studio, vLLM), Google Gemini
 * (gemini.ts) and a local ONNX model run in process (onnx.ts). Providers know no index: the
 * store keeps the vectors and the query layer ranks by them.
 *
 * @module
 */
import { ToolError } from "../errors.ts";

/** What a text is embedded for (Gemini embeds documents and queries differently). */
export type EmbedPurpose = "document" | "query";

/** A source of embeddings. */
export interface EmbeddingProvider {
  /** `openai`, `gemini` or `onnx`. */
  readonly kind: "openai" | "gemini" | "onnx";
  /** The model's name as configured (a local model: its folder name). */
  readonly model: string;
  /**
   * What identifies the vectors this provider makes: vectors of another identity are never
   * compared with these (a model change re-embeds).
   */
  readonly identity: string;
  /** Most texts per request. */
  readonly batchSize: number;
  /**
   * Embed `texts` (at most {@linkcode batchSize}): one L2-normalised vector per text, in order,
   * all of one length. Throws `ToolError("embedding_failed")` with the provider's reason.
   */
  embed(texts: readonly string[], purpose: EmbedPurpose): Promise<Float32Array[]>;
  /** Release what the provider holds (a loaded model). */
  close?(): void;
}

/** A provider failed (its error status and text, a bad reply, a model that cannot load). */
export function embeddingFailed(problem: string): ToolError {
  return new ToolError("embedding_failed", problem);
}

/**
 * Scale a vector to unit length in place (cosine similarity is then a dot product); a zero
 * vector stays zero.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { normalize } from "./provider.ts";
 * deepEqual([...normalize(new Float32Array([3, 4]))], [0.6000000238418579, 0.800000011920929]);
 * ```
 */
export function normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) { for (let i = 0; i < v.length; i++) v[i]! /= norm; }
  return v;
}

/**
 * Check a reply's vectors: one per text, numbers only, one length for all (and `dim` when
 * known); returns them normalised. Throws `embedding_failed` naming what is wrong.
 */
export function checkedVectors(
  source: string,
  raw: readonly unknown[],
  expected: number,
  dim?: number,
): Float32Array[] {
  if (raw.length !== expected) {
    throw embeddingFailed(`${source} returned ${raw.length} vectors for ${expected} texts`);
  }
  const out: Float32Array[] = [];
  for (const [i, r] of raw.entries()) {
    if (!Array.isArray(r) || r.length === 0 || !r.every((x) => typeof x === "number")) {
      throw embeddingFailed(`${source} returned vector ${i} that is not a list of numbers`);
    }
    const want = dim ?? out[0]?.length ?? r.length;
    if (r.length !== want) {
      throw embeddingFailed(
        `${source} returned vectors of different dimensions (${want} and ${r.length})`,
      );
    }
    const v = Float32Array.from(r as number[]);
    if (!v.every(Number.isFinite)) {
      throw embeddingFailed(`${source} returned vector ${i} with a value that is not finite`);
    }
    out.push(normalize(v));
  }
  return out;
}
