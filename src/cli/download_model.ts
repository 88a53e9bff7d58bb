/**
 * `codemunch download-model [--model REPO] [--url HOST] [--force]`: fetch a local embedding model
 * for semantic search into `<index>/models/<name>/` (src/embed/download.ts), with progress on
 * stderr. The default is sentence-transformers/all-MiniLM-L6-v2 from Hugging Face (~90 MB, 384
 * dimensions), which semantic search then uses when no other provider is configured.
 * `--url` (or `CODEMUNCH_MODEL_URL`) points at another host or a mirror.
 *
 * @module
 */
import type { Environment } from "../server/compose.ts";
import { defaultIndexDir } from "../store/index_dir.ts";
import { DEFAULT_LOCAL_MODEL } from "../embed/config.ts";
import {
  DEFAULT_MODEL_REPO,
  downloadModel,
  type DownloadProgress,
  MODEL_HOST,
  modelFiles,
} from "../embed/download.ts";
import { type Invocation, UsageError } from "./args.ts";

/** Least time between two progress lines, ms. */
const _PROGRESS_MS = 1000;

/** Run the command; 0 when the model is in place. */
export async function downloadModelCommand(
  inv: Invocation,
  environment: Environment,
): Promise<number> {
  if (inv.positional.length > 0) {
    throw new UsageError(`"download-model" takes no path; name the model with --model`);
  }
  const repo = inv.flags.get("model") ?? DEFAULT_MODEL_REPO;
  if (!/^[\w.-]+\/[\w.-]+$/.test(repo)) {
    throw new UsageError(`"--model" must be an owner/name repository, got "${repo}"`);
  }
  const host = inv.flags.get("url") ?? environment.env("CODEMUNCH_MODEL_URL") ?? MODEL_HOST;
  try {
    new URL(host);
  } catch {
    throw new UsageError(`"--url" must be a URL, got "${host}"`);
  }
  const name = repo === DEFAULT_MODEL_REPO ? DEFAULT_LOCAL_MODEL : repo.split("/")[1]!;
  const dir = `${defaultIndexDir((n) => environment.env(n))}/models/${name}`;
  console.error(`codemunch: downloading ${repo} from ${host} into ${dir}`);
  const files = await downloadModel(dir, modelFiles(host, repo), {
    force: inv.flags.has("force"),
    onProgress: _progress(),
  });
  for (const f of files) {
    const how = f.kept
      ? "already there (--force fetches it again)"
      : `${_mb(f.bytes)}, SHA-256 ${f.sha256.slice(0, 12)}… ${
        f.verified === "size"
          ? "(size checked; the host sent no checksum)"
          : `(${f.verified} checksum matched)`
      }`;
    console.error(`  ${f.name}: ${how}`);
  }
  const use = name === DEFAULT_LOCAL_MODEL
    ? "semantic search uses it when no other provider is configured"
    : `set JCODEMUNCH_EMBED_MODEL=${name} to use it`;
  console.log(`Model ready at ${dir}: ${use}; restart the server, then run embed_repo.`);
  return 0;
}

function _progress(): DownloadProgress {
  let last = 0;
  return (file, done, total) => {
    const now = performance.now();
    if (now - last < _PROGRESS_MS && done !== total) return;
    last = now;
    const share = total === null ? "" : ` of ${_mb(total)} (${Math.floor((done / total) * 100)}%)`;
    console.error(`  ${file}: ${_mb(done)}${share}`);
  };
}

function _mb(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${(bytes / 1024).toFixed(1)} KB`
    : `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}
