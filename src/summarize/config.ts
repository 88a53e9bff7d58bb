/**
 * AI summarizer settings from the environment (API.md §4.7, with the reference's variable names).
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `JCODEMUNCH_USE_AI_SUMMARIES` | `auto` (on) | `false`/`0`/`no`/`off` turns the AI tier off |
 * | `JCODEMUNCH_SUMMARIZER_PROVIDER` | auto | `anthropic`, `gemini`, `openai` or `none`; auto: the first of `ANTHROPIC_API_KEY`, `GOOGLE_API_KEY`, `OPENAI_API_BASE` that is set |
 * | `ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`, `ANTHROPIC_MODEL` | —, `https://api.anthropic.com`, `claude-haiku-4-5-20251001` | Anthropic Messages API |
 * | `GOOGLE_API_KEY`, `GOOGLE_MODEL`, `GOOGLE_BASE_URL` | —, `gemini-2.5-flash-lite`, `https://generativelanguage.googleapis.com` | Google Gemini (`GOOGLE_BASE_URL` is codemunch's) |
 * | `OPENAI_API_BASE`, `OPENAI_API_KEY`, `OPENAI_MODEL` | —, —, `gpt-4o-mini` | any OpenAI-compatible `/chat/completions` endpoint |
 * | `JCODEMUNCH_SUMMARIZER_MODEL` | — | overrides the provider's model |
 * | `JCODEMUNCH_ALLOW_REMOTE_SUMMARIZER` | off | `1` allows a custom base URL that is not localhost |
 * | `JCODEMUNCH_SUMMARIZER_BATCH_SIZE` | 10 | symbols per request |
 * | `JCODEMUNCH_SUMMARIZER_CONCURRENCY` | 4 | requests in flight |
 * | `JCODEMUNCH_SUMMARIZER_MAX_FAILURES` | 3 | failed requests in a row before the provider is not called again in a run |
 * | `CODEMUNCH_SUMMARIZER_TIMEOUT_MS` | 30000 | one request's timeout |
 * | `CODEMUNCH_SUMMARIZER_MAX_WAIT_MS` | 120000 | the most an index run spends waiting on the summarizer |
 */

/** The wire APIs we speak. */
export type ProviderKind = "anthropic" | "gemini" | "openai";

/** A configured provider. */
export interface ProviderSettings {
  kind: ProviderKind;
  /** Base URL without a trailing slash. */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
}

/** Summarizer settings. */
export interface SummarizerSettings {
  /** The AI tier is allowed at all (`JCODEMUNCH_USE_AI_SUMMARIES`). @default true */
  enabled: boolean;
  /** The provider, or null when none is configured (or it was refused). */
  provider: ProviderSettings | null;
  /** Why a configured provider was refused (a remote base URL without the opt-in). */
  refused: string | null;
  /** @default 10 */
  batchSize: number;
  /** @default 4 */
  concurrency: number;
  /** @default 3 */
  maxFailures: number;
  /** @default 30000 */
  timeoutMs: number;
  /** @default 120000 */
  maxWaitMs: number;
  /** Output tokens per request. @default 500 */
  maxTokens: number;
}

/** No provider: every summary comes from docstrings and signatures. */
export const NO_SUMMARIZER: SummarizerSettings = {
  enabled: true,
  provider: null,
  refused: null,
  batchSize: 10,
  concurrency: 4,
  maxFailures: 3,
  timeoutMs: 30_000,
  maxWaitMs: 120_000,
  maxTokens: 500,
};

const _DEFAULTS: Record<ProviderKind, { baseUrl: string; model: string }> = {
  anthropic: { baseUrl: "https://api.anthropic.com", model: "claude-haiku-4-5-20251001" },
  gemini: { baseUrl: "https://generativelanguage.googleapis.com", model: "gemini-2.5-flash-lite" },
  openai: { baseUrl: "", model: "gpt-4o-mini" },
};

function _off(v: string | undefined): boolean {
  return v !== undefined && /^(0|off|false|no)$/i.test(v.trim());
}

/**
 * Whether a base URL points at this machine (`localhost`, `127.0.0.0/8`, `::1`).
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { isLocalUrl } from "./config.ts";
 * equal(isLocalUrl("http://127.0.0.1:11434/v1"), true);
 * equal(isLocalUrl("https://api.example.com/v1"), false);
 * ```
 */
export function isLocalUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) ||
      host === "[::1]" || host === "::1";
  } catch {
    return false;
  }
}

/** Read the settings (see the module doc); bad values throw `RangeError`. */
export function summarizerSettingsFromEnv(
  env: (name: string) => string | undefined,
): SummarizerSettings {
  const get = (n: string) => {
    const v = env(n)?.trim();
    return v ? v : undefined;
  };
  const int = (name: string, fallback: number, min = 1) => {
    const v = get(name);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) {
      throw new RangeError(`Invalid ${name}: expected an integer of at least ${min}, got "${v}"`);
    }
    return n;
  };
  const base: SummarizerSettings = {
    ...NO_SUMMARIZER,
    enabled: !_off(get("JCODEMUNCH_USE_AI_SUMMARIES")),
    batchSize: int("JCODEMUNCH_SUMMARIZER_BATCH_SIZE", NO_SUMMARIZER.batchSize),
    concurrency: int("JCODEMUNCH_SUMMARIZER_CONCURRENCY", NO_SUMMARIZER.concurrency),
    maxFailures: int("JCODEMUNCH_SUMMARIZER_MAX_FAILURES", NO_SUMMARIZER.maxFailures),
    timeoutMs: int("CODEMUNCH_SUMMARIZER_TIMEOUT_MS", NO_SUMMARIZER.timeoutMs),
    maxWaitMs: int("CODEMUNCH_SUMMARIZER_MAX_WAIT_MS", NO_SUMMARIZER.maxWaitMs),
  };
  const explicit = get("JCODEMUNCH_SUMMARIZER_PROVIDER")?.toLowerCase();
  let kind: ProviderKind | null = null;
  if (explicit !== undefined) {
    if (explicit === "none") return base;
    if (explicit === "google") kind = "gemini";
    else if (explicit === "anthropic" || explicit === "gemini" || explicit === "openai") {
      kind = explicit;
    } else {
      throw new RangeError(
        `Invalid JCODEMUNCH_SUMMARIZER_PROVIDER: expected anthropic, gemini, openai or none, got "${explicit}"`,
      );
    }
  } else if (get("ANTHROPIC_API_KEY")) kind = "anthropic";
  else if (get("GOOGLE_API_KEY")) kind = "gemini";
  else if (get("OPENAI_API_BASE")) kind = "openai";
  if (kind === null) return base;

  const custom = kind === "anthropic"
    ? get("ANTHROPIC_BASE_URL")
    : kind === "gemini"
    ? get("GOOGLE_BASE_URL")
    : get("OPENAI_API_BASE");
  const apiKey = kind === "anthropic"
    ? get("ANTHROPIC_API_KEY")
    : kind === "gemini"
    ? get("GOOGLE_API_KEY")
    : get("OPENAI_API_KEY");
  const model = get("JCODEMUNCH_SUMMARIZER_MODEL") ??
    get(
      kind === "anthropic"
        ? "ANTHROPIC_MODEL"
        : kind === "gemini"
        ? "GOOGLE_MODEL"
        : "OPENAI_MODEL",
    ) ??
    _DEFAULTS[kind].model;
  if (kind === "openai" && custom === undefined) {
    return { ...base, refused: "the openai summarizer needs OPENAI_API_BASE (its endpoint URL)" };
  }
  if (kind !== "openai" && apiKey === undefined) {
    const name = kind === "anthropic" ? "ANTHROPIC_API_KEY" : "GOOGLE_API_KEY";
    return { ...base, refused: `the ${kind} summarizer needs ${name}` };
  }
  const baseUrl = (custom ?? _DEFAULTS[kind].baseUrl).replace(/\/+$/, "");
  try {
    new URL(baseUrl);
  } catch {
    return { ...base, refused: `the ${kind} base URL is not a URL: "${baseUrl}"` };
  }
  if (
    custom !== undefined && !isLocalUrl(custom) && get("JCODEMUNCH_ALLOW_REMOTE_SUMMARIZER") !== "1"
  ) {
    return {
      ...base,
      refused:
        `the ${kind} base URL ${custom} is not on this machine; set JCODEMUNCH_ALLOW_REMOTE_SUMMARIZER=1 to send signatures there`,
    };
  }
  return { ...base, provider: { kind, baseUrl, apiKey, model } };
}

/** The host a configured summarizer calls (for Deno's `--allow-net`), or null. */
export function summarizerHost(settings: SummarizerSettings): string | null {
  return settings.provider === null ? null : new URL(settings.provider.baseUrl).host;
}
