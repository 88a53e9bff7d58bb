/**
 * The format dispatcher: picks MUNCH, JSON or the JSON table form for one response and measures
 * what it saved.
 *
 * @module
 */
import { decodeMunch } from "./decode.ts";
import { encodeMunch } from "./generic.ts";
import { parseJson } from "./json_text.ts";
import { specForId, specForTool } from "./schemas/mod.ts";
import { encodeTables } from "./table_codec.ts";
import type { JsonObject } from "./types.ts";

/** Output formats of the dispatcher. */
export type Format = "auto" | "compact" | "json" | "table";

/** Accepted format names: the formats plus the reference's aliases. */
export type FormatName = Format | "adaptive" | "encoded" | "raw";

const ALIASES: Record<string, Format> = {
  auto: "auto",
  adaptive: "auto",
  compact: "compact",
  encoded: "compact",
  json: "json",
  raw: "json",
  table: "table",
};

/** Options for {@linkcode encode}. */
export interface EncodeOptions {
  /**
   * Encode with the generic `gen1` encoder even when the tool has a tier-1 spec.
   * @default {false}
   */
  generic?: boolean;
}

/** Options for {@linkcode encodeResponse}. */
export interface DispatchOptions {
  /**
   * Output format. Defaults to `$JCODEMUNCH_DEFAULT_FORMAT` when that is set and readable,
   * else `"auto"`.
   * @default {"auto"}
   */
  format?: FormatName;
  /**
   * Least byte saving (0..1) for `auto` to pick MUNCH over JSON. Defaults to
   * `$JCODEMUNCH_ENCODING_THRESHOLD` when set and readable, else 0.15.
   * @default {0.15}
   */
  threshold?: number;
}

/** What {@linkcode encodeResponse} produced. */
export interface EncodeResult {
  /** The response text to send. */
  text: string;
  /** `"json"`, `"table"`, or the MUNCH encoding id (`"gen1"`, `"ss1"`, …). */
  encoding: string;
  /** UTF-8 bytes of the compact JSON form. */
  json_bytes: number;
  /** UTF-8 bytes of `text`. */
  encoded_bytes: number;
  /** Estimated tokens saved against JSON: (json_bytes − encoded_bytes) / 4, at least 0. */
  encoding_tokens_saved: number;
  /** Set when the MUNCH encoder failed and the dispatcher fell back to JSON. */
  encoder_error?: string;
}

/**
 * Encode a response as MUNCH with the tool's tier-1 spec, or the generic `gen1` encoder.
 * Throws `TypeError` for a tool name that is not `[A-Za-z0-9_.-]+` or a response that is not a
 * plain object.
 *
 * @example Encode search hits
 * ```ts
 * import { encode } from "@codemunch/codemunch";
 * import { ok } from "node:assert/strict";
 *
 * const text = encode("search_symbols", {
 *   result_count: 1,
 *   results: [{ id: "a.py::f#function", name: "f", kind: "function", file: "a.py", line: 1 }],
 * });
 * ok(text.startsWith("#MUNCH/1 tool=search_symbols enc=ss1\n"));
 * ```
 */
export function encode(tool: string, response: JsonObject, options: EncodeOptions = {}): string {
  return encodeMunch(tool, response, options.generic ? undefined : specForTool(tool));
}

/**
 * Decode a MUNCH payload, or parse the text as JSON when it does not start with `#MUNCH/`.
 * Throws `SyntaxError` (naming line and column) for malformed MUNCH.
 *
 * @example Decode a payload from any conforming encoder
 * ```ts
 * import { decode } from "@codemunch/codemunch";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const payload = "#MUNCH/1 tool=find_references enc=fr1\n\n@1=src/\n\n" +
 *   "total=2 __tables=r:refs:file|line:str|int __stypes=total:int\n\n" +
 *   "r,@1a.py,10\nr,@1b.py,5\n";
 * deepStrictEqual(decode(payload), {
 *   total: 2,
 *   refs: [{ file: "src/a.py", line: 10 }, { file: "src/b.py", line: 5 }],
 * });
 * deepStrictEqual(decode('{"plain":"json"}'), { plain: "json" });
 * ```
 */
export function decode(payload: string): unknown {
  if (typeof payload !== "string") {
    throw new TypeError("Cannot decode payload: expected a string");
  }
  if (payload.startsWith("#MUNCH/")) return decodeMunch(payload, specForId);
  return parseJson(payload);
}

/** Resolve a format name or alias; throws `TypeError` for an unknown one. */
export function resolveFormat(name: string): Format {
  const f = Object.hasOwn(ALIASES, name) ? ALIASES[name] : undefined;
  if (f === undefined) {
    throw new TypeError(
      `Unknown format "${name}": expected one of ${Object.keys(ALIASES).join(", ")}`,
    );
  }
  return f;
}

/**
 * Encode one response in the requested format and report the sizes. `auto` sends MUNCH only when
 * it is at least `threshold` smaller than JSON. An encoder failure is logged to stderr with the
 * tool name and answered with JSON (`encoder_error` says why); it is never silent. Throws
 * `TypeError` for an unknown format and `RangeError` for a threshold outside 0..1.
 *
 * @example Let `auto` choose
 * ```ts
 * import { decode, encodeResponse } from "@codemunch/codemunch";
 * import { deepStrictEqual, equal } from "node:assert/strict";
 *
 * const rows = Array.from({ length: 30 }, (_, i) => ({ file: "src/app/main.py", line: i }));
 * const result = encodeResponse("example_tool", { references: rows });
 * equal(result.encoding, "gen1");
 * deepStrictEqual(decode(result.text), { references: rows });
 * equal(encodeResponse("list_repos", { count: 0 }).encoding, "json");
 * ```
 */
export function encodeResponse(
  tool: string,
  response: JsonObject,
  options: DispatchOptions = {},
): EncodeResult {
  const format = resolveFormat(options.format ?? _envFormat() ?? "auto");
  const threshold = options.threshold ?? _envThreshold() ?? 0.15;
  if (!(threshold >= 0 && threshold <= 1)) {
    throw new RangeError(`Invalid threshold "${threshold}": expected a number from 0 to 1`);
  }
  const json = JSON.stringify(response);
  const jsonBytes = utf8Length(json);
  const asJson = (error?: string): EncodeResult => ({
    text: json,
    encoding: "json",
    json_bytes: jsonBytes,
    encoded_bytes: jsonBytes,
    encoding_tokens_saved: 0,
    ...(error === undefined ? {} : { encoder_error: error }),
  });
  if (format === "json") return asJson();
  let text: string;
  let encoding: string;
  try {
    if (format === "table") {
      text = JSON.stringify(encodeTables(response));
      encoding = "table";
    } else {
      const spec = specForTool(tool);
      text = encodeMunch(tool, response, spec);
      encoding = spec?.id ?? "gen1";
    }
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    console.error(`codemunch: ${format} encoder failed for tool "${tool}": ${message}; sent JSON`);
    return asJson(message);
  }
  const bytes = utf8Length(text);
  if (format === "auto" && (jsonBytes - bytes) / jsonBytes < threshold) return asJson();
  return {
    text,
    encoding,
    json_bytes: jsonBytes,
    encoded_bytes: bytes,
    encoding_tokens_saved: Math.max(0, Math.floor((jsonBytes - bytes) / 4)),
  };
}

/** UTF-8 length of a string without allocating its bytes. */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 2;
        i++;
      } else n += 2;
    } else n += 2;
  }
  return n;
}

function _env(name: string): string | undefined {
  try {
    if (typeof Deno === "undefined") return undefined;
    if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
      return undefined;
    }
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}

function _envFormat(): FormatName | undefined {
  const v = _env("JCODEMUNCH_DEFAULT_FORMAT")?.trim().toLowerCase();
  if (!v) return undefined;
  if (Object.hasOwn(ALIASES, v)) return v as FormatName;
  console.error(`codemunch: ignoring JCODEMUNCH_DEFAULT_FORMAT="${v}" (unknown format)`);
  return undefined;
}

function _envThreshold(): number | undefined {
  const v = _env("JCODEMUNCH_ENCODING_THRESHOLD")?.trim();
  if (!v) return undefined;
  const n = Number(v);
  if (Number.isFinite(n) && n >= 0 && n <= 1) return n;
  console.error(`codemunch: ignoring JCODEMUNCH_ENCODING_THRESHOLD="${v}" (expected 0..1)`);
  return undefined;
}
