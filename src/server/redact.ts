/**
 * Response-time secret redaction (API.md §4.3): credentials that slipped into indexed text are
 * replaced by `[REDACTED:<type>]` in every string of a response before it is sent.
 */

/** One kind of secret and how to recognise it. */
interface SecretRule {
  type: string;
  pattern: RegExp;
}

/** The rules, most specific first (a private key block before its header line alone). */
const _RULES: readonly SecretRule[] = [
  {
    type: "private_key",
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
  },
  { type: "private_key", pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g },
  { type: "aws_access_key", pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b/g },
  {
    type: "aws_secret_key",
    pattern:
      /\b(aws_?secret_?access_?key|aws_?secret|secret_?access_?key)(["']?\s*[:=]\s*["']?)[A-Za-z0-9/+]{40}\b/gi,
  },
  { type: "gcp_api_key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  {
    type: "gcp_service_account",
    pattern:
      /\b[a-z][a-z0-9-]{4,28}[a-z0-9]@[a-z][a-z0-9-]{4,28}[a-z0-9]\.iam\.gserviceaccount\.com\b/g,
  },
  {
    type: "azure_key",
    pattern: /\b(AccountKey|SharedAccessKey|SharedAccessSignature)=[A-Za-z0-9+/=%]{20,}/g,
  },
  {
    type: "github_token",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
  },
  { type: "slack_token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g },
  {
    type: "jwt",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  },
  { type: "bearer_token", pattern: /\b(Authorization:\s*Bearer\s+)[A-Za-z0-9._~+/-]{20,}=*/gi },
];

// A cheap pre-check: text without any of these fragments cannot hold a secret of the rules.
const _HINT =
  /PRIVATE KEY|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|secret|AIza|gserviceaccount|AccountKey|SharedAccess|gh[pousr]_|github_pat_|xox|eyJ|Bearer/i;

/**
 * Redact secrets in one string; returns the new text and how many secrets were replaced.
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { redactText } from "./redact.ts";
 * deepEqual(redactText('key = "AKIAIOSFODNN7EXAMPLE"'), {
 *   text: 'key = "[REDACTED:aws_access_key]"',
 *   count: 1,
 * });
 * ```
 */
export function redactText(text: string): { text: string; count: number } {
  if (!_HINT.test(text)) return { text, count: 0 };
  let count = 0;
  let out = text;
  for (const rule of _RULES) {
    out = out.replace(rule.pattern, (...m: unknown[]) => {
      count++;
      // Keep a captured key name and separator (aws_secret_access_key = ..., Authorization: Bearer).
      const groups = m.slice(1, -2).filter((g): g is string => typeof g === "string");
      if (rule.type === "aws_secret_key") return `${groups[0]}${groups[1]}[REDACTED:${rule.type}]`;
      if (rule.type === "bearer_token") return `${groups[0]}[REDACTED:${rule.type}]`;
      if (rule.type === "azure_key") return `${groups[0]}=[REDACTED:${rule.type}]`;
      return `[REDACTED:${rule.type}]`;
    });
  }
  return { text: out, count };
}

/**
 * Redact every string value (not keys) of a JSON-like value in place; returns the count.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { redactDeep } from "./redact.ts";
 * const r = { results: [{ text: "token ghp_0123456789abcdefghijABCDEFGHIJ012345" }] };
 * equal(redactDeep(r), 1);
 * equal(r.results[0]!.text, "token [REDACTED:github_token]");
 * ```
 */
export function redactDeep(value: unknown): number {
  let count = 0;
  const visit = (v: unknown): unknown => {
    if (typeof v === "string") {
      const r = redactText(v);
      count += r.count;
      return r.text;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = visit(v[i]);
    } else if (v !== null && typeof v === "object") {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) o[k] = visit(o[k]);
    }
    return v;
  };
  visit(value);
  return count;
}
