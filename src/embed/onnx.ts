/**
 * A local ONNX embedding model run in process by ONNX Runtime's WebAssembly build
 * (`onnxruntime-web`, one thread: no workers, no native addon, no network): a BERT-style model
 * folder with `model.onnx` and `vocab.txt` (what `codemunch download-model` fetches). Texts are
 * WordPiece-tokenized (wordpiece.ts), padded per batch, and the model's first output is
 * mean-pooled over the attention mask when it is per token (`[batch, seq, dim]`, as
 * sentence-transformers exports are) or taken as it is when already pooled (`[batch, dim]`).
 * The runtime and the model load on first use; runs take turns.
 */
import type { OnnxEmbedSettings } from "./config.ts";
import { ToolError } from "../errors.ts";
import { embeddingFailed, type EmbeddingProvider, normalize } from "./provider.ts";
import { WordPiece } from "./wordpiece.ts";

/** Texts per run (memory grows with batch × sequence length). */
export const ONNX_BATCH = 16;

/** Longest sequence the model is given, in tokens (all-MiniLM-L6-v2 was trained on 256). */
export const ONNX_MAX_TOKENS = 256;

type Ort = typeof import("onnxruntime-web");

/** The runtime's package (the imports map pins its version). */
const _ORT = ["onnxruntime", "web"].join("-");
type Session = Awaited<ReturnType<Ort["InferenceSession"]["create"]>>;

interface _Loaded {
  ort: Ort;
  session: Session;
  tokenizer: WordPiece;
}

/** The provider for a local model folder. */
export function onnxProvider(s: OnnxEmbedSettings): EmbeddingProvider {
  let loading: Promise<_Loaded> | null = null;
  let turn: Promise<unknown> = Promise.resolve();
  const size = _sizeOf(`${s.dir}/model.onnx`);
  return {
    kind: "onnx",
    model: s.model,
    identity: `onnx:${s.model}:${size}`,
    batchSize: ONNX_BATCH,
    embed(texts) {
      const run = turn.then(async () => {
        if (texts.length === 0) return [];
        loading ??= _load(s);
        let loaded: _Loaded;
        try {
          loaded = await loading;
        } catch (e) {
          loading = null;
          throw e;
        }
        return await _run(loaded, texts);
      });
      turn = run.catch(() => {});
      return run;
    },
    close() {
      loading?.then((l) => l.session.release()).catch(() => {});
      loading = null;
    },
  };
}

/** Read the model folder and start a session; a missing file says how to get one. */
async function _load(s: OnnxEmbedSettings): Promise<_Loaded> {
  const read = async (name: string) => {
    try {
      return await Deno.readFile(`${s.dir}/${name}`);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) {
        throw new ToolError(
          "embedding_model_missing",
          `The local embedding model has no ${name} in ${s.dir}. Run \`codemunch download-model\` (or point JCODEMUNCH_EMBED_MODEL at a folder with model.onnx and vocab.txt)`,
        );
      }
      throw embeddingFailed(`Cannot read ${s.dir}/${name}: ${(e as Error).message}`);
    }
  };
  const [model, vocab] = await Promise.all([read("model.onnx"), read("vocab.txt")]);
  let tokenizer: WordPiece;
  try {
    tokenizer = new WordPiece(new TextDecoder().decode(vocab), ONNX_MAX_TOKENS);
  } catch (e) {
    throw embeddingFailed(
      `${s.dir}/vocab.txt is not a WordPiece vocabulary: ${(e as Error).message}`,
    );
  }
  // A computed specifier: Deno walks a literal dynamic import when the server's modules load,
  // and ONNX Runtime is large; it is loaded only when a local model is used.
  const ort = await import(_ORT) as Ort;
  // One thread: ONNX Runtime's threads are web workers, which this server does not start.
  ort.env.wasm.numThreads = 1;
  ort.env.logLevel = "error";
  try {
    const session = await ort.InferenceSession.create(model, { graphOptimizationLevel: "all" });
    return { ort, session, tokenizer };
  } catch (e) {
    throw embeddingFailed(
      `${s.dir}/model.onnx could not be loaded by ONNX Runtime: ${_message(e)}`,
    );
  }
}

async function _run(l: _Loaded, texts: readonly string[]): Promise<Float32Array[]> {
  const ids = texts.map((t) => l.tokenizer.encode(t));
  const seq = Math.max(...ids.map((x) => x.length));
  const n = texts.length;
  const input = new BigInt64Array(n * seq).fill(BigInt(l.tokenizer.pad));
  const mask = new BigInt64Array(n * seq);
  for (const [row, tokens] of ids.entries()) {
    for (const [col, id] of tokens.entries()) {
      input[row * seq + col] = BigInt(id);
      mask[row * seq + col] = 1n;
    }
  }
  const tensor = (data: BigInt64Array) => new l.ort.Tensor("int64", data, [n, seq]);
  const feeds: Record<string, InstanceType<Ort["Tensor"]>> = {};
  for (const name of l.session.inputNames) {
    if (name === "input_ids") feeds[name] = tensor(input);
    else if (name === "attention_mask") feeds[name] = tensor(mask);
    else if (name === "token_type_ids") feeds[name] = tensor(new BigInt64Array(n * seq));
    else throw embeddingFailed(`The ONNX model takes an input this server does not know: ${name}`);
  }
  let outputs: Awaited<ReturnType<Session["run"]>>;
  try {
    outputs = await l.session.run(feeds);
  } catch (e) {
    throw embeddingFailed(`The ONNX model failed to run: ${_message(e)}`);
  }
  const out = outputs[l.session.outputNames[0]!]!;
  const data = out.data as Float32Array;
  const dims = out.dims;
  if (dims.length === 2 && dims[0] === n) {
    const dim = dims[1]!;
    return ids.map((_, i) => normalize(data.slice(i * dim, (i + 1) * dim)));
  }
  if (dims.length !== 3 || dims[0] !== n || dims[1] !== seq) {
    throw embeddingFailed(`The ONNX model's output has shape [${dims.join(", ")}]`);
  }
  const dim = dims[2]!;
  return ids.map((tokens, i) => {
    // Mean over the real tokens (the attention mask), as sentence-transformers pools.
    const v = new Float32Array(dim);
    for (let t = 0; t < tokens.length; t++) {
      const at = (i * seq + t) * dim;
      for (let d = 0; d < dim; d++) v[d]! += data[at + d]!;
    }
    for (let d = 0; d < dim; d++) v[d]! /= tokens.length;
    return normalize(v);
  });
}

function _sizeOf(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch {
    return 0;
  }
}

function _message(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split("\n")[0]!.slice(0, 300);
}
