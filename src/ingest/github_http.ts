/**
 * HTTP to the GitHub API, with the faults a user expects handled: retries with exponential
 * backoff after a 5xx, a connection error or a timeout; a rate limit (403/429 with
 * `x-ratelimit-remaining: 0` or `Retry-After`) is waited out when the reset is near, and is
 * otherwise a clear error naming the limit, the reset time and `GITHUB_TOKEN`; a per-request
 * timeout (for a download: the longest pause between two chunks); redirects followed by hand so
 * that the token only ever goes to the API's own origin.
 */
import { ToolError } from "../errors.ts";
import type { GitHubSettings } from "./github_config.ts";

/** A complete response. */
export interface GitHubResponse {
  status: number;
  headers: Headers;
  /** The body as received, chunk by chunk (a large download is not copied into one buffer). */
  chunks: Uint8Array[];
  /** Total bytes of the body. */
  size: number;
  /** The body in one buffer (made on first use). */
  readonly body: Uint8Array;
}

function _response(status: number, headers: Headers, chunks: Uint8Array[], size: number) {
  let joined: Uint8Array | undefined;
  return {
    status,
    headers,
    chunks,
    size,
    get body(): Uint8Array {
      if (joined === undefined) {
        if (chunks.length === 1) joined = chunks[0]!;
        else {
          joined = new Uint8Array(size);
          let at = 0;
          for (const c of chunks) {
            joined.set(c, at);
            at += c.length;
          }
        }
      }
      return joined;
    },
  };
}

/** Per-request options. */
export interface RequestOptions {
  /** `Accept` header. @default "application/vnd.github+json" */
  accept?: string;
  /** What is asked for, in error messages ("the tree of o/r"). */
  what: string;
  /** Statuses returned to the caller instead of failing (e.g. 404, 422). */
  passStatuses?: readonly number[];
  /**
   * Most bytes of the body; a longer one fails the request with `github_too_large` (not
   * retried), naming `limitName`. @default the settings' `maxResponseBytes`
   */
  maxBytes?: number;
  /** The setting that raises `maxBytes`, for the error message. */
  limitName?: string;
}

/** A response whose body is read as a stream by the caller. */
export interface GitHubStream {
  status: number;
  headers: Headers;
  /** The body, bounded by the request's `maxBytes` and its pause timeout. */
  stream: ReadableStream<Uint8Array>;
}

const _MAX_REDIRECTS = 5;
/** Most rate-limit waits in one request before giving up. */
const _MAX_RATE_LIMIT_WAITS = 3;

/** Requests to one GitHub API, counting what they fetched. */
export class GitHubHttp {
  readonly #settings: GitHubSettings;
  readonly #origin: string;
  readonly #note: (message: string) => void;
  /** Requests sent (including retries), for the outcome's stats and tests. */
  requests = 0;

  constructor(settings: GitHubSettings, note: (message: string) => void = () => {}) {
    this.#settings = settings;
    this.#origin = new URL(settings.apiUrl).origin;
    this.#note = note;
  }

  /** The API URL of a path such as `/repos/o/r`. */
  url(path: string): string {
    return this.#settings.apiUrl + path;
  }

  /** GET a JSON document. */
  async json<T>(path: string, options: RequestOptions): Promise<{ status: number; data: T }> {
    const r = await this.get(path, options);
    if (r.status >= 300) return { status: r.status, data: undefined as T };
    try {
      return { status: r.status, data: JSON.parse(new TextDecoder().decode(r.body)) as T };
    } catch {
      throw new ToolError(
        "github_error",
        `GitHub sent something that is not JSON for ${options.what}: check GITHUB_API_URL (${this.#settings.apiUrl})`,
      );
    }
  }

  /** GET a path of the API (or an absolute URL), with retries, waits and redirects. */
  async get(pathOrUrl: string, options: RequestOptions): Promise<GitHubResponse> {
    return await this.#request(pathOrUrl, options, false) as GitHubResponse;
  }

  async #request(
    pathOrUrl: string,
    options: RequestOptions,
    streaming: boolean,
  ): Promise<GitHubResponse | GitHubStream> {
    const s = this.#settings;
    let attempt = 0;
    let rateWaits = 0;
    for (;;) {
      let failure: string;
      try {
        const r = await this.#once(pathOrUrl, options, streaming);
        if ("stream" in r) return r;
        const full = r;
        if (full.status < 300 || options.passStatuses?.includes(full.status)) return full;
        const limited = _rateLimit(full);
        if (limited !== null) {
          if (limited.waitMs <= s.maxRateLimitWaitMs && rateWaits < _MAX_RATE_LIMIT_WAITS) {
            rateWaits++;
            const secs = Math.ceil(limited.waitMs / 1000);
            this.#note(
              `GitHub rate limit reached${
                limited.limit ? ` (${limited.limit} requests/hour)` : ""
              }: waiting ${secs} s for the reset${limited.resetAt ? ` at ${limited.resetAt}` : ""}`,
            );
            await _sleep(limited.waitMs);
            continue;
          }
          throw this.#rateLimitError(limited, options.what);
        }
        if (full.status < 500) throw this.#clientError(full, options.what);
        failure = `GitHub answered ${full.status}${_statusText(full)} for ${options.what}`;
      } catch (e) {
        if (e instanceof ToolError) throw e;
        failure = e instanceof _Timeout
          ? `GitHub did not answer within ${s.timeoutMs / 1000} s for ${options.what}`
          : `Cannot reach GitHub at ${s.apiUrl} for ${options.what}: ${
            e instanceof Error ? e.message : String(e)
          }`;
      }
      if (attempt >= s.retries) {
        throw new ToolError(
          "github_unavailable",
          `${failure} (after ${
            attempt + 1
          } attempts). Try again later, or check GITHUB_API_URL and the network`,
        );
      }
      const delay = s.backoffMs * 2 ** attempt;
      attempt++;
      this.#note(`${failure}; retrying in ${Math.round(delay / 100) / 10} s`);
      await _sleep(delay);
    }
  }

  /**
   * One exchange, following redirects; the whole body is read under the timeout — unless
   * `streaming` and the answer is a success, whose body is left to the caller.
   */
  async #once(
    pathOrUrl: string,
    options: RequestOptions,
    streaming: boolean,
  ): Promise<GitHubResponse | GitHubStream> {
    let url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : this.url(pathOrUrl);
    for (let hop = 0;; hop++) {
      this.requests++;
      const headers: Record<string, string> = {
        "Accept": options.accept ?? "application/vnd.github+json",
        "User-Agent": "codemunch",
        "X-GitHub-Api-Version": "2022-11-28",
      };
      // The token goes to the API's own origin only, never to a host it redirects to.
      if (this.#settings.token !== undefined && new URL(url).origin === this.#origin) {
        headers["Authorization"] = `Bearer ${this.#settings.token}`;
      }
      const controller = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => controller.abort(new _Timeout()), this.#settings.timeoutMs);
      };
      arm();
      try {
        const response = await fetch(url, {
          headers,
          redirect: "manual",
          signal: controller.signal,
        });
        const location = response.headers.get("location");
        if (response.status >= 300 && response.status < 400 && location !== null) {
          await response.body?.cancel();
          if (hop >= _MAX_REDIRECTS) {
            throw new ToolError("github_error", `Too many redirects for ${options.what}`);
          }
          url = new URL(location, url).href;
          continue;
        }
        if (streaming && response.status < 300 && response.body !== null) {
          return { status: response.status, headers: response.headers, stream: response.body };
        }
        const { chunks, size } = response.body === null
          ? { chunks: [], size: 0 }
          : await this.#readAll(response.body, options, arm);
        return _response(response.status, response.headers, chunks, size);
      } catch (e) {
        if (controller.signal.aborted) throw new _Timeout();
        throw e;
      } finally {
        clearTimeout(timer);
      }
    }
  }

  /** A response body's chunks up to the size limit, the timeout re-armed before each read. */
  async #readAll(
    body: ReadableStream<Uint8Array>,
    options: RequestOptions,
    arm: () => void,
  ): Promise<{ chunks: Uint8Array[]; size: number }> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const max = options.maxBytes ?? this.#settings.maxResponseBytes;
    const reader = body.getReader();
    for (;;) {
      arm();
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > max) {
        await reader.cancel().catch(() => {});
        throw this.#tooLarge(options, max);
      }
      chunks.push(value);
    }
    return { chunks, size };
  }

  /**
   * GET a large body as a stream (an archive): retried like {@linkcode get} until a response
   * starts; then the caller reads the body as it arrives, each pause bounded by the timeout and
   * the total by `options.maxBytes`. A failure while reading fails the caller's work (no retry).
   */
  async stream<T>(
    pathOrUrl: string,
    options: RequestOptions,
    consume: (response: GitHubStream) => Promise<T>,
  ): Promise<T> {
    // The status phase: an error's body is read whole, retried or reported as by get().
    const opened = await this.#request(pathOrUrl, options, true);
    if (!("stream" in opened)) {
      throw new ToolError("github_error", `GitHub sent no content for ${options.what}`);
    }
    const max = options.maxBytes ?? this.#settings.maxResponseBytes;
    const reader = opened.stream.getReader();
    let size = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeoutMs = this.#settings.timeoutMs;
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const read = await new Promise<ReadableStreamReadResult<Uint8Array>>((resolve, reject) => {
          timer = setTimeout(() => reject(new _Timeout()), timeoutMs);
          reader.read().then(resolve, reject);
        }).finally(() => clearTimeout(timer));
        if (read.done) {
          controller.close();
          return;
        }
        size += read.value.length;
        if (size > max) throw this.#tooLarge(options, max);
        controller.enqueue(read.value);
      },
      cancel: (reason) => reader.cancel(reason),
    }, { highWaterMark: 0 });
    try {
      return await consume({ status: opened.status, headers: opened.headers, stream: body });
    } catch (e) {
      if (e instanceof _Timeout) {
        throw new ToolError(
          "github_unavailable",
          `GitHub stopped sending ${options.what} (no data for ${
            timeoutMs / 1000
          } s): try again later`,
        );
      }
      throw e;
    } finally {
      clearTimeout(timer);
      await reader.cancel().catch(() => {});
    }
  }

  #tooLarge(options: RequestOptions, max: number): ToolError {
    return new ToolError(
      "github_too_large",
      `GitHub sent more than ${max} bytes for ${options.what}: the repository is too large to index this way${
        options.limitName !== undefined ? ` (raise ${options.limitName} to allow more)` : ""
      }`,
    );
  }

  #rateLimitError(limited: _RateLimit, what: string): ToolError {
    const s = this.#settings;
    const when = limited.resetAt
      ? `it resets at ${limited.resetAt} (in ${Math.ceil(limited.waitMs / 60_000)} min)`
      : `retry after ${Math.ceil(limited.waitMs / 1000)} s`;
    const advice = s.token === undefined
      ? "Set GITHUB_TOKEN to a personal access token (5,000 requests/hour instead of 60) or try again after the reset"
      : "The token in GITHUB_TOKEN has used its quota; try again after the reset";
    return new ToolError(
      "github_rate_limited",
      `GitHub API rate limit exceeded${
        limited.limit ? ` (limit ${limited.limit} requests/hour)` : ""
      } while fetching ${what}: ${when}. ${advice}`,
    );
  }

  #clientError(r: GitHubResponse, what: string): ToolError {
    const message = _githubMessage(r);
    const hasToken = this.#settings.token !== undefined;
    if (r.status === 401) {
      return new ToolError(
        "github_unauthorized",
        `GitHub rejected the token in GITHUB_TOKEN (401${
          message ? `: ${message}` : ""
        }). Set GITHUB_TOKEN to a valid token, or unset it for public repositories`,
      );
    }
    if (r.status === 404) {
      return new ToolError(
        "repo_not_found",
        `Not found on GitHub: ${what}. ${
          hasToken
            ? "Check the name, or give the token in GITHUB_TOKEN access to it"
            : "It does not exist, or it is private: set GITHUB_TOKEN to a token that can read it"
        }`,
      );
    }
    return new ToolError(
      "github_error",
      `GitHub refused ${what} (${r.status}${message ? `: ${message}` : ""})${
        hasToken ? "" : ". If the repository is private, set GITHUB_TOKEN"
      }`,
    );
  }
}

class _Timeout extends Error {}

interface _RateLimit {
  waitMs: number;
  limit: string | null;
  /** ISO time of the reset, when GitHub said. */
  resetAt: string | null;
}

/** The rate limit a response reports, or null when it is another refusal. */
function _rateLimit(r: GitHubResponse): _RateLimit | null {
  if (r.status !== 403 && r.status !== 429) return null;
  const retryAfter = r.headers.get("retry-after");
  const remaining = r.headers.get("x-ratelimit-remaining");
  const reset = r.headers.get("x-ratelimit-reset");
  const limit = r.headers.get("x-ratelimit-limit");
  if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) {
    return { waitMs: Number(retryAfter) * 1000, limit, resetAt: null };
  }
  if (remaining === "0" && reset !== null && /^\d+$/.test(reset.trim())) {
    const resetMs = Number(reset) * 1000;
    // One second past the reset: GitHub's clock and ours may differ a little.
    return {
      waitMs: Math.max(0, resetMs - Date.now()) + 1000,
      limit,
      resetAt: new Date(resetMs).toISOString(),
    };
  }
  if (r.status === 429 || remaining === "0") return { waitMs: 60_000, limit, resetAt: null };
  return null;
}

function _githubMessage(r: GitHubResponse): string {
  try {
    const m = (JSON.parse(new TextDecoder().decode(r.body)) as { message?: unknown }).message;
    return typeof m === "string" ? m.slice(0, 200) : "";
  } catch {
    return "";
  }
}

function _statusText(r: GitHubResponse): string {
  const m = _githubMessage(r);
  return m ? ` (${m})` : "";
}

function _sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
