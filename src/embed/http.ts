/**
 * One JSON POST to an embedding endpoint, retried when the provider asks for patience: a 429
 * (rate limit) or a 5xx answer, or a connection that failed, is tried again after a backoff
 * (the provider's `Retry-After` when it sends one, capped), up to {@linkcode RetryPolicy.retries}
 * times. Any other error status fails at once with the provider's message.
 */
import { embeddingFailed } from "./provider.ts";

/** How failed requests are retried. */
export interface RetryPolicy {
  /** Retries after the first attempt. @default 4 */
  retries: number;
  /** First backoff in ms (doubled each retry). @default 500 */
  baseDelayMs: number;
  /** Longest wait between two attempts, `Retry-After` included, in ms. @default 30000 */
  maxDelayMs: number;
  /** One request's timeout in ms. @default 60000 */
  timeoutMs: number;
}

/** The defaults of {@linkcode RetryPolicy}. */
export const DEFAULT_RETRY: RetryPolicy = {
  retries: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  timeoutMs: 60_000,
};

/** POST `body` as JSON to `url`; the parsed JSON reply. */
export async function postJson(
  source: string,
  url: string,
  headers: Record<string, string>,
  body: unknown,
  policy: RetryPolicy,
): Promise<unknown> {
  for (let attempt = 0;; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(policy.timeoutMs),
      });
    } catch (e) {
      if (attempt < policy.retries) {
        await _sleep(_backoff(policy, attempt, null));
        continue;
      }
      const why = e instanceof DOMException && e.name === "TimeoutError"
        ? `no answer within ${policy.timeoutMs} ms`
        : e instanceof Error
        ? e.message
        : String(e);
      throw embeddingFailed(`${source} could not be reached at ${url}: ${why}`);
    }
    const text = await response.text();
    if (response.ok) {
      try {
        return JSON.parse(text);
      } catch {
        throw embeddingFailed(`${source} sent a reply that is not JSON: ${text.slice(0, 120)}`);
      }
    }
    const retriable = response.status === 429 || response.status >= 500;
    if (retriable && attempt < policy.retries) {
      await _sleep(_backoff(policy, attempt, response.headers.get("retry-after")));
      continue;
    }
    const tried = attempt > 0 ? ` (after ${attempt + 1} attempts)` : "";
    throw embeddingFailed(
      `${source} answered ${response.status}${tried}: ${_errorText(text)}`,
    );
  }
}

/** The wait before retry `attempt`: the provider's `Retry-After` (seconds), else exponential. */
function _backoff(policy: RetryPolicy, attempt: number, retryAfter: string | null): number {
  const seconds = retryAfter === null ? NaN : Number(retryAfter);
  const asked = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : NaN;
  const exp = policy.baseDelayMs * 2 ** attempt;
  return Math.min(policy.maxDelayMs, Number.isNaN(asked) ? exp : asked);
}

/** The message of a provider's error body (`{"error": {"message"}}` or text), bounded. */
function _errorText(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown } | string };
    const m = typeof j.error === "string" ? j.error : j.error?.message;
    if (typeof m === "string") return m.slice(0, 300);
  } catch { /* not JSON */ }
  return text.slice(0, 300) || "(no body)";
}

function _sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
