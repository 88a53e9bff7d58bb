/**
 * A model host on 127.0.0.1 in the layout of Hugging Face (`<repo>/resolve/main/<file>`, a large
 * file's SHA-256 and size in `X-Linked-ETag` / `X-Linked-Size`), serving the default model's two
 * files as the tiny model of `_onnx_model.ts`; `lie` makes it announce a wrong checksum or size,
 * or answer 404 for a file.
 */
import { createHash } from "node:crypto";
import { TINY_VOCAB, tinyEmbeddingModel, tinyTable } from "./_onnx_model.ts";

/** The model bytes served. */
export const SERVED_MODEL = tinyEmbeddingModel(tinyTable(), 4);
const _VOCAB = new TextEncoder().encode(TINY_VOCAB.join("\n") + "\n");
const _sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

/** Start the host. */
export function modelHost(lie: { sha?: boolean; size?: boolean; missing?: string } = {}) {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push(path);
    const base = "/sentence-transformers/all-MiniLM-L6-v2/resolve/main";
    const body = path === `${base}/onnx/model.onnx`
      ? SERVED_MODEL
      : path === `${base}/vocab.txt`
      ? _VOCAB
      : null;
    if (body === null || (lie.missing !== undefined && path.endsWith(lie.missing))) {
      return new Response("Entry not found", { status: 404 });
    }
    const headers: Record<string, string> = {};
    if (body === SERVED_MODEL) {
      headers["x-linked-etag"] = `"${lie.sha ? "0".repeat(64) : _sha(SERVED_MODEL)}"`;
      headers["x-linked-size"] = String(lie.size ? SERVED_MODEL.length + 10 : SERVED_MODEL.length);
    }
    return new Response(body.slice(), { headers });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}
