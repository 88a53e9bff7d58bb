/**
 * The response envelope: secret redaction, `_meta` (API.md Part A §3), token savings, and the
 * codec dispatcher's format choice, turning a tool's output into the one text the client gets.
 */
import { encodeResponse, encodingId, type Format, utf8Length } from "../codec/dispatch.ts";
import type { JsonObject } from "../codec/types.ts";
import type { EncoderSpec } from "../codec/spec.ts";
import type { SavingsCounter } from "../store/savings.ts";
import type { ToolOutput } from "../tools/context.ts";
import type { ServerSettings } from "./config.ts";
import { redactDeep } from "./redact.ts";

/** The text to send and how it was encoded. */
export interface Envelope {
  text: string;
  /** `json`, `table` or the MUNCH encoding id. */
  encoding: string;
  /** Why the MUNCH encoder failed, when it did (the text is then JSON); the caller logs it. */
  encoderError?: string;
}

/**
 * Wrap a tool's output. `tokens_saved` is (raw bytes an agent would have read − bytes of the
 * JSON response) / 4, at least 0; the running totals live in the savings counter. A compact
 * payload is encoded once, with `_meta` numbers that depend on that encoding filled in after.
 */
export function envelope(
  tool: string,
  spec: EncoderSpec | undefined,
  out: ToolOutput,
  elapsedMs: number,
  format: Format,
  settings: ServerSettings,
  savings: SavingsCounter,
): Envelope {
  const body = out.response;
  const secrets = settings.redact ? redactDeep(body) : 0;
  const bodyBytes = utf8Length(JSON.stringify(body));
  const tokensSaved = Math.max(0, Math.floor(((out.rawBytes ?? 0) - bodyBytes) / 4));
  const extensions = settings.munchExtensions ?? false;
  const options = {
    format,
    threshold: settings.threshold,
    extensions,
    ...(spec !== undefined ? { spec } : {}),
  };
  if (!settings.meta) {
    const r = encodeResponse(tool, body as JsonObject, options);
    savings.add(tokensSaved, r.encoding_tokens_saved);
    return _result(r.text, r.encoding, r.encoder_error);
  }
  const meta: Record<string, unknown> = { timing_ms: Math.round(elapsedMs * 10) / 10 };
  if (out.repo !== undefined) meta.repo = out.repo;
  // `_meta` holds scalars only: a tool's object-valued field (`freshness: {fresh: 3, …}`)
  // becomes one scalar per entry (`freshness_fresh: 3`), a list one comma-joined string.
  for (const [k, v] of Object.entries(out.meta ?? {})) {
    // Frugal (issue 28): freshness counts only when a file is not fresh; `_freshness` on each
    // row says the rest.
    if (k === "freshness" && _allFresh(v)) continue;
    if (Array.isArray(v)) meta[k] = v.map(String).join(", ");
    else if (v !== null && typeof v === "object") {
      for (const [sub, x] of Object.entries(v)) {
        meta[`${k}_${sub}`] = x !== null && typeof x === "object" ? JSON.stringify(x) : x;
      }
    } else meta[k] = v;
  }
  // One flat string (`_meta` holds scalars only), sentences joined by "; ".
  if (out.warnings !== undefined && out.warnings.length > 0) {
    meta.warnings = out.warnings.join("; ");
  }
  meta.tokens_saved = tokensSaved;
  meta.total_tokens_saved = 0;
  if (secrets > 0) meta.secrets_redacted = secrets;
  const withMeta = { ...body, _meta: meta } as JsonObject;
  if (format === "json" || format === "table") {
    meta.total_tokens_saved = savings.add(tokensSaved, 0).total_tokens_saved;
    if (format === "json") return { text: JSON.stringify(withMeta), encoding: "json" };
    const r = encodeResponse(tool, withMeta, options);
    return _result(r.text, r.encoding, r.encoder_error);
  }
  // One encoding pass: the numbers that depend on its result are written as sentinels and
  // filled in afterwards (integer scalars are bare decimals on the scalar line, never interned).
  meta.total_tokens_saved = SENTINELS.total;
  meta.encoding = encodingId(tool, options);
  meta.encoding_tokens_saved = SENTINELS.saved;
  meta.total_encoding_tokens_saved = SENTINELS.totalSaved;
  const first = encodeResponse(tool, withMeta, options);
  if (first.encoding === "json") {
    // auto chose JSON (or the encoder failed): no encoding fields.
    delete meta.encoding;
    delete meta.encoding_tokens_saved;
    delete meta.total_encoding_tokens_saved;
    meta.total_tokens_saved = savings.add(tokensSaved, 0).total_tokens_saved;
    return _result(JSON.stringify(withMeta), "json", first.encoder_error);
  }
  const totals = savings.add(tokensSaved, first.encoding_tokens_saved);
  const values = {
    total: totals.total_tokens_saved,
    saved: first.encoding_tokens_saved,
    totalSaved: totals.total_encoding_tokens_saved,
  };
  const filled = fillSentinels(first.text, values);
  if (filled !== null && meta.encoding === first.encoding) {
    return { text: filled, encoding: first.encoding };
  }
  // The sentinels were not where expected: encode again with the real values.
  meta.total_tokens_saved = values.total;
  meta.encoding = first.encoding;
  meta.encoding_tokens_saved = values.saved;
  meta.total_encoding_tokens_saved = values.totalSaved;
  const again = encodeResponse(tool, withMeta, { ...options, format: "compact" });
  return _result(again.text, again.encoding, again.encoder_error);
}

/** True for freshness counts (`{fresh, edited_uncommitted, stale_index}`) with only fresh rows. */
function _allFresh(v: unknown): boolean {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  return Object.entries(v).every(([k, n]) => k === "fresh" || n === 0);
}

function _result(text: string, encoding: string, encoderError: string | undefined): Envelope {
  return encoderError === undefined ? { text, encoding } : { text, encoding, encoderError };
}

/** Integers no real count reaches, one per field filled in after encoding. */
export const SENTINELS = { total: 987654321987, saved: 987654321986, totalSaved: 987654321985 };

/**
 * Replace each sentinel by its value, or return null. A sentinel must occur exactly once, as a
 * whole number: a scalar (`key=N` before a space or line end) or a number inside the `_meta` JSON
 * blob (`"key":N` before `,` or `}`). Exported for tests.
 */
export function fillSentinels(
  text: string,
  values: Record<keyof typeof SENTINELS, number>,
): string | null {
  let out = text;
  for (const key of Object.keys(SENTINELS) as (keyof typeof SENTINELS)[]) {
    const token = String(SENTINELS[key]);
    const at = out.indexOf(token);
    if (at === -1 || out.indexOf(token, at + 1) !== -1) return null;
    const before = out[at - 1];
    const after = out[at + token.length];
    const scalar = before === "=" && (after === " " || after === "\n");
    const inBlob = before === ":" && (after === "," || after === "}");
    if (!scalar && !inBlob) return null;
    out = out.slice(0, at) + String(values[key]) + out.slice(at + token.length);
  }
  return out;
}
