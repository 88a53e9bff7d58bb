/**
 * The response envelope: secret redaction, `_meta` (API.md Part A §3), token savings, and the
 * codec dispatcher's format choice, turning a tool's output into the one text the client gets.
 */
import { encodeResponse, type Format, utf8Length } from "../codec/dispatch.ts";
import type { JsonObject } from "../codec/types.ts";
import type { SavingsCounter } from "../store/savings.ts";
import type { ToolOutput } from "../tools/context.ts";
import type { ServerSettings } from "./config.ts";
import { redactDeep } from "./redact.ts";

/** The text to send and how it was encoded. */
export interface Envelope {
  text: string;
  /** `json`, `table` or the MUNCH encoding id. */
  encoding: string;
}

/**
 * Wrap a tool's output. `tokens_saved` is (raw bytes an agent would have read − bytes of the
 * JSON response) / 4, at least 0; the running totals live in the savings counter. With a compact
 * encoding the payload is encoded twice: once to choose and measure, once more with the
 * measured `encoding_tokens_saved` in `_meta`.
 */
export function envelope(
  tool: string,
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
  const options = { format, threshold: settings.threshold };
  if (!settings.meta) {
    const r = encodeResponse(tool, body as JsonObject, options);
    savings.add(tokensSaved, r.encoding_tokens_saved);
    return { text: r.text, encoding: r.encoding };
  }
  const meta: Record<string, unknown> = { timing_ms: Math.round(elapsedMs * 10) / 10 };
  if (out.repo !== undefined) meta.repo = out.repo;
  Object.assign(meta, out.meta ?? {});
  meta.tokens_saved = tokensSaved;
  meta.total_tokens_saved = 0;
  if (secrets > 0) meta.secrets_redacted = secrets;
  const withMeta = { ...body, _meta: meta } as JsonObject;
  if (format === "json" || format === "table") {
    meta.total_tokens_saved = savings.add(tokensSaved, 0).total_tokens_saved;
    if (format === "json") return { text: JSON.stringify(withMeta), encoding: "json" };
    const r = encodeResponse(tool, withMeta, options);
    return { text: r.text, encoding: r.encoding };
  }
  // Placeholders of the same shape, so that the measuring pass sees the final size.
  meta.encoding = "";
  meta.encoding_tokens_saved = 0;
  meta.total_encoding_tokens_saved = 0;
  const first = encodeResponse(tool, withMeta, options);
  if (first.encoding === "json") {
    // auto chose JSON (or the encoder failed): no encoding fields.
    delete meta.encoding;
    delete meta.encoding_tokens_saved;
    delete meta.total_encoding_tokens_saved;
    meta.total_tokens_saved = savings.add(tokensSaved, 0).total_tokens_saved;
    return { text: JSON.stringify(withMeta), encoding: "json" };
  }
  const totals = savings.add(tokensSaved, first.encoding_tokens_saved);
  meta.total_tokens_saved = totals.total_tokens_saved;
  meta.encoding = first.encoding;
  meta.encoding_tokens_saved = first.encoding_tokens_saved;
  meta.total_encoding_tokens_saved = totals.total_encoding_tokens_saved;
  const final = encodeResponse(tool, withMeta, { ...options, format: "compact" });
  if (final.encoding === "json") {
    // The encoder failed on the final pass (it reported why on stderr): send plain JSON.
    delete meta.encoding;
    delete meta.encoding_tokens_saved;
    delete meta.total_encoding_tokens_saved;
    return { text: JSON.stringify(withMeta), encoding: "json" };
  }
  return { text: final.text, encoding: final.encoding };
}
