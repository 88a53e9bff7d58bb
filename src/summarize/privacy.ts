/**
 * What may leave the machine for an AI summary: a symbol's kind and signature (cut at 300
 * characters), never a file or a body — and not even that when the signature looks like it holds
 * a credential (the same shapes the response redaction looks for: private keys, cloud and
 * GitHub/Slack tokens, JWTs, bearer headers, and string literals assigned to names like `password`
 * or `api_key`). Symbols of files the secret filters skip are never indexed at all.
 */

const _CREDENTIAL = new RegExp(
  [
    "PRIVATE KEY",
    "\\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA)[0-9A-Z]{16}\\b",
    "\\bAIza[0-9A-Za-z_-]{35}\\b",
    "\\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
    "\\bxox[abposr]-[A-Za-z0-9-]{10,}",
    "\\beyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.",
    "Bearer\\s+[A-Za-z0-9._~+/-]{20,}",
    "(?:AccountKey|SharedAccessKey|SharedAccessSignature)=",
    "(?:passw(?:or)?d|secret|api_?key|access_?key|token|credential)\\w*[\"']?\\s*[:=]\\s*[\"'][^\"']{8,}[\"']",
  ].join("|"),
  "i",
);

/**
 * Whether a signature may be sent to a summarizer.
 *
 * @example
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { maySend } from "./privacy.ts";
 * equal(maySend("def connect(host, port)"), true);
 * equal(maySend('API_KEY = "sk-live-0123456789abcdef"'), false);
 * ```
 */
export function maySend(signature: string): boolean {
  return !_CREDENTIAL.test(signature);
}
