/**
 * Response-time secret redaction (API.md §4.3): credentials that slipped into indexed text are
 * replaced by `[REDACTED:<type>]` in every string of a response before it is sent. The rules are
 * those of `src/query/secrets.ts`, which the tools also apply by position in the whole file (a
 * line range inside a private key is redacted although it holds no key header).
 */
import { redactSecrets } from "../parser/secrets.ts";

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
  return redactSecrets(text);
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
