/**
 * Which embedding provider to use, from the environment, with the reference's variable names
 * (jcodemunch-mcp's `embed_repo`). The first that applies wins:
 *
 * | Variable | Provider |
 * |---|---|
 * | `JCODEMUNCH_EMBED_MODEL` (a model folder's name under `<index>/models/`, or a folder path), or `JCODEMUNCH_LOCAL_EMBED_MODEL` (a folder path) | local ONNX model, run in process |
 * | nothing set, and `<index>/models/all-MiniLM-L6-v2/` holds a model (`codemunch download-model`) | local ONNX model |
 * | `GOOGLE_API_KEY` + `GOOGLE_EMBED_MODEL` (`GOOGLE_BASE_URL`, `GEMINI_EMBED_TASK_AWARE`) | Gemini `batchEmbedContents` |
 * | `OPENAI_EMBED_MODEL` + `OPENAI_API_KEY` and/or `OPENAI_API_BASE` (or `OPENAI_BASE_URL`) | OpenAI-compatible `/v1/embeddings` |
 *
 * Naming a remote model is the opt-in to send symbol signatures there (a bare API key never
 * selects a paid provider, as in the reference). `CODEMUNCH_EMBED_TIMEOUT_MS` (60000) bounds one
 * request and `CODEMUNCH_EMBED_RETRIES` (4) how often a 429/5xx is retried.
 *
 * Import-free: the launcher (`scripts/serve.ts`) reads the provider's host for `--allow-net`.
 *
 * @module
 */

/** The model `download-model` fetches and a bare setup uses. */
export const DEFAULT_LOCAL_MODEL = "all-MiniLM-L6-v2";

/** An OpenAI-compatible endpoint. */
export interface OpenAIEmbedSettings {
  kind: "openai";
  /** Base URL up to `/v1` (without a trailing slash). */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
}

/** Google Gemini. */
export interface GeminiEmbedSettings {
  kind: "gemini";
  baseUrl: string;
  apiKey: string;
  /** `models/<name>`. */
  model: string;
  /** Documents as `RETRIEVAL_DOCUMENT`, queries as `CODE_RETRIEVAL_QUERY`. @default true */
  taskAware: boolean;
}

/** A local ONNX model: `model.onnx` and `vocab.txt` in a folder. */
export interface OnnxEmbedSettings {
  kind: "onnx";
  /** The folder's name. */
  model: string;
  /** The folder. */
  dir: string;
}

/** Embedding settings. */
export interface EmbeddingSettings {
  /** The provider, or null when none is configured. */
  provider: OpenAIEmbedSettings | GeminiEmbedSettings | OnnxEmbedSettings | null;
  /** Where `download-model` puts models (`<index>/models`). */
  modelsDir: string;
  /** One request's timeout, ms. @default 60000 */
  timeoutMs: number;
  /** Retries of a rate-limited or failed request. @default 4 */
  retries: number;
}

/** What to set for semantic search (the `no_embedding_provider` error says it). */
export const NO_PROVIDER_MESSAGE =
  "No embedding provider is configured. Options: run `codemunch download-model` (a local ONNX model, no API key, nothing leaves the machine), or set JCODEMUNCH_EMBED_MODEL to a local ONNX model folder, GOOGLE_API_KEY + GOOGLE_EMBED_MODEL (Gemini), or OPENAI_EMBED_MODEL + OPENAI_API_BASE and/or OPENAI_API_KEY (OpenAI, Ollama, LM Studio, vLLM); then restart the server";

/** Read the settings; `exists` tells whether a file exists (the default model's check). */
export function embeddingSettingsFromEnv(
  env: (name: string) => string | undefined,
  indexDir: string,
  exists: (path: string) => boolean = _exists,
): EmbeddingSettings {
  const get = (n: string) => {
    const v = env(n)?.trim();
    return v ? v : undefined;
  };
  const modelsDir = indexDir.replace(/[\\/]+$/, "") + "/models";
  const base = {
    provider: null,
    modelsDir,
    timeoutMs: _int(get, "CODEMUNCH_EMBED_TIMEOUT_MS", 60_000, 1),
    retries: _int(get, "CODEMUNCH_EMBED_RETRIES", 4, 0),
  };
  const local = get("JCODEMUNCH_LOCAL_EMBED_MODEL") ?? get("JCODEMUNCH_EMBED_MODEL");
  if (local !== undefined) return { ...base, provider: localModel(local, modelsDir) };
  const fallback = localModel(DEFAULT_LOCAL_MODEL, modelsDir);
  if (exists(`${fallback.dir}/model.onnx`)) return { ...base, provider: fallback };
  const googleKey = get("GOOGLE_API_KEY");
  const googleModel = get("GOOGLE_EMBED_MODEL");
  if (googleKey !== undefined && googleModel !== undefined) {
    return {
      ...base,
      provider: {
        kind: "gemini",
        baseUrl: _url(
          "GOOGLE_BASE_URL",
          get("GOOGLE_BASE_URL"),
          "https://generativelanguage.googleapis.com",
        ),
        apiKey: googleKey,
        model: googleModel.startsWith("models/") ? googleModel : `models/${googleModel}`,
        taskAware: !/^(0|false|no|off)$/i.test(get("GEMINI_EMBED_TASK_AWARE") ?? ""),
      },
    };
  }
  const openaiModel = get("OPENAI_EMBED_MODEL");
  const openaiBase = get("OPENAI_API_BASE") ?? get("OPENAI_BASE_URL");
  const openaiKey = get("OPENAI_API_KEY");
  if (openaiModel !== undefined && (openaiKey !== undefined || openaiBase !== undefined)) {
    return {
      ...base,
      provider: {
        kind: "openai",
        baseUrl: _url("OPENAI_API_BASE", openaiBase, "https://api.openai.com/v1"),
        apiKey: openaiKey,
        model: openaiModel,
      },
    };
  }
  return base;
}

/** A local model by folder name (under `modelsDir`) or path. */
export function localModel(nameOrPath: string, modelsDir: string): OnnxEmbedSettings {
  const isPath = /[\\/]/.test(nameOrPath) || nameOrPath.startsWith(".");
  const dir = isPath ? nameOrPath.replace(/[\\/]+$/, "") : `${modelsDir}/${nameOrPath}`;
  return {
    kind: "onnx",
    model: dir.slice(Math.max(dir.lastIndexOf("/"), dir.lastIndexOf("\\")) + 1),
    dir,
  };
}

/** The host a remote provider calls (for Deno's `--allow-net`), or null. */
export function embeddingHost(settings: EmbeddingSettings): string | null {
  const p = settings.provider;
  return p === null || p.kind === "onnx" ? null : new URL(p.baseUrl).host;
}

/** The folder a local provider reads (for Deno's `--allow-read`), or null. */
export function embeddingModelDir(settings: EmbeddingSettings): string | null {
  const p = settings.provider;
  return p !== null && p.kind === "onnx" ? p.dir : null;
}

function _url(name: string, value: string | undefined, fallback: string): string {
  const url = (value ?? fallback).replace(/\/+$/, "");
  try {
    new URL(url);
  } catch {
    throw new RangeError(`Invalid ${name}: expected a URL, got "${url}"`);
  }
  return url;
}

function _int(get: (n: string) => string | undefined, name: string, fallback: number, min: number) {
  const v = get(name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    throw new RangeError(`Invalid ${name}: expected an integer of at least ${min}, got "${v}"`);
  }
  return n;
}

function _exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}
