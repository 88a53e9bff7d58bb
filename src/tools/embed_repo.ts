/**
 * `embed_repo`: compute and store the embedding vectors of a repo's symbols for
 * `search_symbols(semantic=true)` (docs/api.md "Semantic search"). Only texts without a stored
 * vector of the configured provider are sent, in batches; each batch is committed as it
 * arrives (a failure keeps what was stored, and a second run goes on from there); vectors no
 * symbol uses any more are removed at the end.
 */
import { z } from "zod";
import { DetailedToolError, ToolError } from "../errors.ts";
import { EmbeddingWriter } from "../store/embeddings.ts";
import { type EmbeddingTarget, embeddingTargets } from "../query/semantic.ts";
import { embedder, openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, type ResponseOf } from "./define.ts";

const _args = {
  batch_size: z.number().int().min(1).max(200).optional().describe(
    "Texts per request (default 50, at most the provider's limit)",
  ),
  force: z.boolean().optional().describe("Re-embed every symbol"),
};

/** Validated arguments. */
export type EmbedRepoArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  provider: z.string().describe("openai, gemini or onnx"),
  model: z.string().describe("The embedding model"),
  symbols_total: z.number().int().describe("Symbols in the repo"),
  symbols_embedded: z.number().int().describe("Texts embedded by this call"),
  symbols_cached: z.number().int().describe("Symbols whose stored vector was kept"),
  vectors_removed: z.number().int().describe("Stored vectors no symbol uses any more, removed"),
  embedding_dimension: z.number().int().nullable().describe("Vector length (null: none stored)"),
  model_changed_from: z.string().optional().describe(
    "The provider identity of the vectors replaced",
  ),
};

type _Response = ResponseOf<typeof _fields>;

/** Embed what is missing and store it. */
export async function handler(
  ctx: ToolContext,
  args: EmbedRepoArgs,
): Promise<ToolOutput<_Response>> {
  const { repo, view } = openRepo(ctx, args.repo);
  const provider = embedder(ctx);
  const targets = embeddingTargets(view, provider.identity);
  const writer = EmbeddingWriter.open(view.index.dbPath);
  try {
    const stored = writer.model();
    const same = stored !== null && stored.identity === provider.identity;
    const have = args.force === true || !same ? new Set<string>() : writer.hashes();
    // One request per distinct text: identical symbols (overloads, copies) share a vector.
    const todo = new Map<string, EmbeddingTarget>();
    for (const t of targets) if (!have.has(t.key) && !todo.has(t.key)) todo.set(t.key, t);
    const batch = Math.min(args.batch_size ?? 50, provider.batchSize);
    const pending = [...todo.values()];
    let dim = same ? stored.dim : null;
    let removed = 0;
    let done = 0;
    for (let i = 0; i < pending.length; i += batch) {
      const slice = pending.slice(i, i + batch);
      let vectors: Float32Array[];
      try {
        vectors = await provider.embed(slice.map((t) => t.text), "document");
      } catch (e) {
        throw _stopped(e, done, pending.length);
      }
      if (dim !== null && dim !== vectors[0]!.length && done > 0) {
        throw _stopped(
          new ToolError(
            "embedding_failed",
            `the provider changed dimension (${dim} to ${vectors[0]!.length})`,
          ),
          done,
          pending.length,
        );
      }
      dim = vectors[0]!.length;
      const rows = new Map(slice.map((t, j) => [t.key, vectors[j]!]));
      removed += await writer.write({ identity: provider.identity, dim }, rows, null);
      done += slice.length;
      ctx.onProgress?.(done, pending.length, slice.at(-1)!.symbol.name);
    }
    if (dim !== null) {
      const keep = new Set(targets.map((t) => t.key));
      removed += await writer.write({ identity: provider.identity, dim }, new Map(), keep);
    }
    const response: _Response = {
      repo,
      provider: provider.kind,
      model: provider.model,
      symbols_total: targets.length,
      symbols_embedded: done,
      symbols_cached: targets.filter((t) => have.has(t.key)).length,
      vectors_removed: removed,
      embedding_dimension: dim,
    };
    if (stored !== null && !same) response.model_changed_from = stored.identity;
    return { response, repo };
  } finally {
    writer.close();
  }
}

/** A failed batch: the provider's reason, what was stored, and that a re-run continues. */
function _stopped(e: unknown, done: number, total: number): unknown {
  if (!(e instanceof ToolError)) return e;
  return new DetailedToolError(
    e.code,
    `${e.message}. ${done} of ${total} texts were embedded and stored; run embed_repo again to continue`,
    { symbols_embedded: done, symbols_pending: total - done },
  );
}

/** The declaration. */
export const tool = defineTool({
  name: "embed_repo",
  title: "Embed repo",
  summary:
    "compute and store symbol embeddings for search_symbols(semantic=true): batched, cached by text hash, only new or changed symbols sent",
  description:
    "Compute embeddings of a repo's symbols for search_symbols(semantic=true). Only new or changed symbols are embedded. Needs an embedding provider (docs/api.md).",
  repo: "optional",
  args: _args,
  output: { fields: _fields },
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: true },
  run: handler,
});
