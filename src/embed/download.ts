/**
 * `codemunch download-model`: fetch a local embedding model (`model.onnx` and its WordPiece
 * `vocab.txt`) from its public host into `<index>/models/<name>/`. Each file streams to a
 * temporary file beside its place while it is hashed; it is renamed into place only when its
 * size matches what the host announced (`Content-Length`, Hugging Face's `X-Linked-Size`) and its
 * SHA-256 matches the one pinned for it or, when none is, the host's (`X-Linked-ETag` / `ETag`,
 * which Hugging Face sets to the SHA-256 of a large file). A failure leaves no partial file and
 * keeps a file that was already there.
 */
import { createHash } from "node:crypto";
import { ToolError } from "../errors.ts";
import { WordPiece } from "./wordpiece.ts";

/** Where models are fetched from by default. */
export const MODEL_HOST = "https://huggingface.co";

/** The default model's repository on the host. */
export const DEFAULT_MODEL_REPO = "sentence-transformers/all-MiniLM-L6-v2";

/** One file of a model. */
export interface ModelFile {
  /** Its name in the model folder. */
  name: string;
  url: string;
  /** The SHA-256 (hex) it must have; absent: the host's checksum header, when it sends one. */
  sha256?: string;
  /** Most bytes accepted. */
  maxBytes: number;
}

/** The files of a sentence-transformers model repository on a Hugging Face-style host. */
export function modelFiles(host: string, repo: string): ModelFile[] {
  const base = `${host.replace(/\/+$/, "")}/${repo}/resolve/main`;
  return [
    { name: "model.onnx", url: `${base}/onnx/model.onnx`, maxBytes: 2 * 1024 ** 3 },
    { name: "vocab.txt", url: `${base}/vocab.txt`, maxBytes: 16 * 1024 ** 2 },
  ];
}

/** Progress of one file: bytes so far and the announced total (null: not announced). */
export type DownloadProgress = (file: string, done: number, total: number | null) => void;

/** What was fetched (or kept). */
export interface DownloadedFile {
  name: string;
  bytes: number;
  sha256: string;
  /** How the content was checked: a pinned checksum, the host's, or its size alone. */
  verified: "pinned" | "host" | "size";
  /** The file was there already (not fetched again without `force`). */
  kept: boolean;
}

/** Fetch `files` into `dir` (created); existing files are kept unless `force`. */
export async function downloadModel(
  dir: string,
  files: readonly ModelFile[],
  options: { force?: boolean; onProgress?: DownloadProgress; timeoutMs?: number } = {},
): Promise<DownloadedFile[]> {
  Deno.mkdirSync(dir, { recursive: true });
  const out: DownloadedFile[] = [];
  for (const f of files) {
    const target = `${dir}/${f.name}`;
    if (options.force !== true && _size(target) > 0) {
      out.push({ name: f.name, bytes: _size(target), sha256: "", verified: "size", kept: true });
      continue;
    }
    out.push(await _fetchFile(f, target, options));
  }
  const vocab = files.find((f) => f.name === "vocab.txt");
  if (vocab !== undefined) {
    try {
      new WordPiece(Deno.readTextFileSync(`${dir}/vocab.txt`));
    } catch (e) {
      throw new ToolError(
        "download_corrupt",
        `${dir}/vocab.txt is not a WordPiece vocabulary (${
          (e as Error).message
        }): the model cannot be used; pick a BERT-style model`,
      );
    }
  }
  Deno.writeTextFileSync(
    `${dir}/manifest.json`,
    JSON.stringify(
      { files: files.map((f, i) => ({ ...out[i], url: f.url })), at: new Date().toISOString() },
      null,
      2,
    ) + "\n",
  );
  return out;
}

async function _fetchFile(
  f: ModelFile,
  target: string,
  options: { onProgress?: DownloadProgress; timeoutMs?: number },
): Promise<DownloadedFile> {
  let response: Response;
  try {
    response = await fetch(f.url, {
      redirect: "follow",
      signal: AbortSignal.timeout(options.timeoutMs ?? 30 * 60_000),
    });
  } catch (e) {
    throw new ToolError("download_failed", `Cannot fetch ${f.url}: ${(e as Error).message}`);
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new ToolError(
      "download_failed",
      `GET ${f.url} answered ${response.status} ${response.statusText}`.trim(),
    );
  }
  const announced = _announcedSize(response.headers);
  if (announced !== null && announced > f.maxBytes) {
    await response.body.cancel();
    throw new ToolError(
      "download_failed",
      `${f.url} is ${announced} bytes, more than the ${f.maxBytes} accepted for ${f.name}`,
    );
  }
  const expected = f.sha256?.toLowerCase() ?? _hostChecksum(response.headers);
  const partial = `${target}.partial-${crypto.randomUUID().slice(0, 8)}`;
  const file = await Deno.open(partial, { write: true, createNew: true });
  const hash = createHash("sha256");
  let bytes = 0;
  try {
    for await (const chunk of response.body) {
      bytes += chunk.length;
      if (bytes > f.maxBytes) {
        throw new ToolError("download_failed", `${f.url} sent more than ${f.maxBytes} bytes`);
      }
      hash.update(chunk);
      for (let at = 0; at < chunk.length;) at += await file.write(chunk.subarray(at));
      options.onProgress?.(f.name, bytes, announced);
    }
    file.close();
    const sha256 = hash.digest("hex");
    if (announced !== null && bytes !== announced) {
      throw new ToolError(
        "download_corrupt",
        `${f.name}: ${bytes} bytes arrived, the host announced ${announced} (an interrupted download?); run download-model again`,
      );
    }
    if (expected !== null && sha256 !== expected) {
      throw new ToolError(
        "download_corrupt",
        `${f.name}: SHA-256 ${sha256} does not match the expected ${expected}; nothing was installed, run download-model again`,
      );
    }
    Deno.renameSync(partial, target);
    const verified = f.sha256 !== undefined ? "pinned" : expected !== null ? "host" : "size";
    return { name: f.name, bytes, sha256, verified, kept: false };
  } catch (e) {
    try {
      file.close();
    } catch { /* closed already */ }
    try {
      Deno.removeSync(partial);
    } catch { /* never written */ }
    if (e instanceof ToolError) throw e;
    throw new ToolError("download_failed", `${f.url}: ${(e as Error).message}`);
  }
}

/** The size the host announced: Hugging Face's `X-Linked-Size`, else `Content-Length`. */
function _announcedSize(h: Headers): number | null {
  // A compressed answer's Content-Length counts the compressed bytes (fetch inflates them).
  const encoded = (h.get("content-encoding") ?? "identity") !== "identity";
  for (const name of encoded ? ["x-linked-size"] : ["x-linked-size", "content-length"]) {
    const n = Number(h.get(name));
    if (h.get(name) !== null && Number.isInteger(n) && n >= 0) return n;
  }
  return null;
}

/** A SHA-256 the host sent as the file's ETag (Hugging Face: large files), else null. */
function _hostChecksum(h: Headers): string | null {
  for (const name of ["x-linked-etag", "etag"]) {
    const m = /^(?:W\/)?"?([0-9a-f]{64})"?$/i.exec(h.get(name)?.trim() ?? "");
    if (m !== null) return m[1]!.toLowerCase();
  }
  return null;
}

function _size(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch {
    return 0;
  }
}
