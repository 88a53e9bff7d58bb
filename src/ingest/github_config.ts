/**
 * GitHub settings from the environment.
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `GITHUB_API_URL` | `https://api.github.com` | API root (GitHub Enterprise: `https://<host>/api/v3`) |
 * | `GITHUB_TOKEN` | — | token sent on every API request (private repos, 5,000 requests/hour) |
 * | `CODEMUNCH_GITHUB_TIMEOUT_MS` | 30000 | per-request timeout (a download: longest pause between bytes) |
 * | `CODEMUNCH_GITHUB_RETRIES` | 3 | retries after a 5xx, a connection error or a timeout |
 * | `CODEMUNCH_GITHUB_BACKOFF_MS` | 1000 | first retry delay, doubled for each further retry |
 * | `CODEMUNCH_GITHUB_RATE_LIMIT_WAIT_MS` | 60000 | longest wait for a rate-limit reset before failing |
 * | `CODEMUNCH_GITHUB_CONCURRENCY` | 8 | blobs downloaded in parallel on a re-index |
 * | `CODEMUNCH_GITHUB_BLOB_LIMIT` | 40 | above this many changed files, download the tarball instead |
 * | `CODEMUNCH_GITHUB_MAX_RESPONSE_BYTES` | 67108864 | most bytes of one API answer (a tree listing, a blob) |
 * | `CODEMUNCH_GITHUB_MAX_ARCHIVE_BYTES` | 1073741824 | most bytes of a tarball as downloaded |
 * | `CODEMUNCH_GITHUB_MAX_UNPACKED_BYTES` | 2147483648 | most bytes a tarball may unpack to |
 * | `CODEMUNCH_GITHUB_MAX_ENTRIES` | 500000 | most entries of a tree listing or a tarball |
 */

/** How to talk to GitHub. */
export interface GitHubSettings {
  /** API root without a trailing slash. @default "https://api.github.com" */
  apiUrl: string;
  /** From `GITHUB_TOKEN` only. */
  token: string | undefined;
  /** @default 30000 */
  timeoutMs: number;
  /** @default 3 */
  retries: number;
  /** @default 1000 */
  backoffMs: number;
  /** @default 60000 */
  maxRateLimitWaitMs: number;
  /** @default 8 */
  concurrency: number;
  /** @default 40 */
  blobLimit: number;
  /** Most bytes of one API answer read into memory (a tree listing, a blob). @default 64 MiB */
  maxResponseBytes: number;
  /** Most bytes of a tarball as downloaded (it is read as a stream). @default 1 GiB */
  maxArchiveBytes: number;
  /** Most bytes a tarball may decompress to, skipped entries included. @default 2 GiB */
  maxUnpackedBytes: number;
  /** Most entries of a tree listing (all folders together) or a tarball. @default 500000 */
  maxEntries: number;
}

/** The defaults, without looking at the environment. */
export const DEFAULT_GITHUB_SETTINGS: GitHubSettings = {
  apiUrl: "https://api.github.com",
  token: undefined,
  timeoutMs: 30_000,
  retries: 3,
  backoffMs: 1_000,
  maxRateLimitWaitMs: 60_000,
  concurrency: 8,
  blobLimit: 40,
  maxResponseBytes: 64 * 1024 * 1024,
  maxArchiveBytes: 1024 * 1024 * 1024,
  maxUnpackedBytes: 2 * 1024 * 1024 * 1024,
  maxEntries: 500_000,
};

/** Read the settings from environment variables (see the module doc); bad values throw `RangeError`. */
export function githubSettingsFromEnv(
  env: (name: string) => string | undefined,
): GitHubSettings {
  const int = (name: string, fallback: number, min = 1) => {
    const v = env(name)?.trim();
    if (v === undefined || v === "") return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) {
      throw new RangeError(`Invalid ${name}: expected an integer of at least ${min}, got "${v}"`);
    }
    return n;
  };
  const api = env("GITHUB_API_URL")?.trim();
  let apiUrl = DEFAULT_GITHUB_SETTINGS.apiUrl;
  if (api) {
    try {
      const u = new URL(api);
      if (u.protocol !== "https:" && u.protocol !== "http:") throw new Error("not http(s)");
      apiUrl = api.replace(/\/+$/, "");
    } catch {
      throw new RangeError(`Invalid GITHUB_API_URL: expected an http(s) URL, got "${api}"`);
    }
  }
  const token = env("GITHUB_TOKEN")?.trim();
  const d = DEFAULT_GITHUB_SETTINGS;
  return {
    apiUrl,
    token: token ? token : undefined,
    timeoutMs: int("CODEMUNCH_GITHUB_TIMEOUT_MS", d.timeoutMs),
    retries: int("CODEMUNCH_GITHUB_RETRIES", d.retries, 0),
    backoffMs: int("CODEMUNCH_GITHUB_BACKOFF_MS", d.backoffMs, 0),
    maxRateLimitWaitMs: int("CODEMUNCH_GITHUB_RATE_LIMIT_WAIT_MS", d.maxRateLimitWaitMs, 0),
    concurrency: int("CODEMUNCH_GITHUB_CONCURRENCY", d.concurrency),
    blobLimit: int("CODEMUNCH_GITHUB_BLOB_LIMIT", d.blobLimit, 0),
    maxResponseBytes: int("CODEMUNCH_GITHUB_MAX_RESPONSE_BYTES", d.maxResponseBytes),
    maxArchiveBytes: int("CODEMUNCH_GITHUB_MAX_ARCHIVE_BYTES", d.maxArchiveBytes),
    maxUnpackedBytes: int("CODEMUNCH_GITHUB_MAX_UNPACKED_BYTES", d.maxUnpackedBytes),
    maxEntries: int("CODEMUNCH_GITHUB_MAX_ENTRIES", d.maxEntries),
  };
}

/**
 * The hosts a server talking to this API must reach: the API host, and the host GitHub
 * redirects archive downloads to (`codeload.github.com` for github.com; an Enterprise server
 * serves them itself).
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { githubHosts } from "./github_config.ts";
 * deepEqual(githubHosts("https://api.github.com"), ["api.github.com", "codeload.github.com"]);
 * deepEqual(githubHosts("https://ghe.example.com/api/v3"), ["ghe.example.com"]);
 * ```
 */
export function githubHosts(apiUrl: string): string[] {
  const host = new URL(apiUrl).host;
  return host === "api.github.com" ? [host, "codeload.github.com"] : [host];
}
