/**
 * The format dispatcher: picks MUNCH, JSON or the JSON table form for one response and measures
 * what it saved.
 *
 * @module
 */
import { decodeMunch } from "./decode.ts";
import { decodeV1 } from "./decode_v1.ts";
import { encodeStrict, STRICT_ID } from "./encode_v1.ts";
import { encodeMunch, encodeMunchDetailed, EXTENDED_SUFFIX, GENERIC_ID } from "./generic.ts";
import { parseJson } from "./json_text.ts";
import type { EncoderSpec } from "./spec.ts";
import { isPlainKey } from "./strict.ts";
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
   * The tool's tier-1 spec: the layout of its responses (scalar order, tables, interned
   * columns, and with extensions its reshapings and encoding id). Without one, the generic
   * layout. A server derives its tools' specs from their declarations and passes them in.
   */
  spec?: EncoderSpec;
  /**
   * Use codemunch's extensions beyond MUNCH v1 (transforms, constant columns, `json` columns,
   * nested dotted keys, escapes). The header then reads `#MUNCH/1x` and the encoding id ends in
   * `x`, so a v1 decoder refuses the payload instead of misreading it; only codemunch's
   * {@linkcode decode} reads it.
   * @default {false}
   */
  extensions?: boolean;
}

/** Options for {@linkcode encodeResponse}. The codec reads no environment: pass settings in. */
export interface DispatchOptions {
  /**
   * Output format.
   * @default {"auto"}
   */
  format?: FormatName;
  /**
   * Least byte saving (0..1) for `auto` to pick MUNCH over JSON.
   * @default {0.15}
   */
  threshold?: number;
  /**
   * Encode MUNCH with codemunch's extensions beyond v1 (see {@linkcode EncodeOptions}).
   * @default {false}
   */
  extensions?: boolean;
  /** The tool's tier-1 spec (see {@linkcode EncodeOptions}); without one, the generic layout. */
  spec?: EncoderSpec;
}

/** Options for {@linkcode decode}. */
export interface DecodeOptions {
  /**
   * The tier-1 specs an extended payload (`#MUNCH/1x`) may name in its header: the reshapings a
   * spec applied (`__xf`) are undone with it. Strict v1 payloads need none.
   */
  specs?: readonly EncoderSpec[];
}

/** What {@linkcode encodeResponse} produced. */
export interface EncodeResult {
  /** The response text to send. */
  text: string;
  /** `"json"`, `"table"`, or the MUNCH encoding id (`"gen1"`, or `"ss1x"`, … with extensions). */
  encoding: string;
  /** UTF-8 bytes of the compact JSON form. */
  json_bytes: number;
  /** UTF-8 bytes of `text`. */
  encoded_bytes: number;
  /** Estimated tokens saved against JSON: (json_bytes − encoded_bytes) / 4, at least 0. */
  encoding_tokens_saved: number;
  /**
   * Why MUNCH was not sent although the format allowed it: `"threshold"` (it saved too little),
   * `"json_blobs"` (`auto` only: rows would hold JSON text — a list of records as a JSON blob, or
   * with extensions a `json` column),
   * `"unrepresentable"` (a top-level key no v1 decoder reads back, such as one holding a `.`),
   * or `"encoder_error"`.
   */
  fallback?: "threshold" | "json_blobs" | "unrepresentable" | "encoder_error";
  /** Set when the MUNCH encoder failed and the dispatcher fell back to JSON; the caller logs it. */
  encoder_error?: string;
}

/**
 * Encode a response as MUNCH. By default the payload is strict MUNCH v1 (`enc=gen1`; a tool's
 * tier-1 spec only orders its scalars and columns and picks the interned columns): any decoder
 * that follows SPEC_MUNCH v1 reads it back exactly. With `extensions`, the payload uses
 * codemunch's extended format instead (see {@linkcode EncodeOptions}). Throws `TypeError` for a
 * tool name that is not `[A-Za-z0-9_.-]+`, a response that is not a plain object, or (strict
 * only) a response with a top-level key that MUNCH v1 cannot carry (see {@linkcode canEncodeV1}).
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
 * ok(text.startsWith("#MUNCH/1 tool=search_symbols enc=gen1\n"));
 * ```
 */
export function encode(tool: string, response: JsonObject, options: EncodeOptions = {}): string {
  const spec = options.spec;
  if (options.extensions) return encodeMunch(tool, response, spec);
  const payload = encodeStrict(tool, response, spec);
  if (payload === undefined) {
    throw new TypeError(
      `Cannot encode response as MUNCH v1: a top-level key is not a plain name (letters, digits, _ $ / + -, not starting with "__")`,
    );
  }
  return payload.text;
}

/**
 * True when {@linkcode encode} can write `response` as strict MUNCH v1: every top-level key is
 * a plain name (letters, digits, `_ $ / + -`, not starting with `__`). Values never stop it:
 * what a v1 table cannot hold travels as a `__json.` blob.
 */
export function canEncodeV1(response: JsonObject): boolean {
  return Object.keys(response).every((k) => k === "_meta" || isPlainKey(k));
}

/**
 * Decode a MUNCH payload, or parse the text as JSON when it does not start with `#MUNCH/`.
 * `#MUNCH/1` payloads are read by SPEC_MUNCH v1 alone (from any conforming encoder);
 * `#MUNCH/1x` payloads are codemunch's extended format, whose reshapings are undone with the
 * spec named in the header (pass it in `options.specs`). Throws `SyntaxError` (naming the line)
 * for malformed MUNCH or another version, `TypeError` for an extended payload reshaped by a spec
 * that was not passed.
 *
 * @example Decode a payload from any conforming encoder
 * ```ts
 * import { decode } from "@codemunch/codemunch";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * const payload = "#MUNCH/1 tool=find_references enc=fr1\n\n@1=src/\n\n" +
 *   "total=2 _meta.timing_ms=3.1 __tables=r:refs:file|line:str|int __stypes=total:int\n\n" +
 *   "r,@1a.py,10\nr,@1b.py,5\n";
 * deepStrictEqual(decode(payload), {
 *   total: 2,
 *   _meta: { timing_ms: 3.1 },
 *   refs: [{ file: "src/a.py", line: 10 }, { file: "src/b.py", line: 5 }],
 * });
 * deepStrictEqual(decode('{"plain":"json"}'), { plain: "json" });
 * ```
 */
export function decode(payload: string, options: DecodeOptions = {}): unknown {
  if (typeof payload !== "string") {
    throw new TypeError("Cannot decode payload: expected a string");
  }
  if (payload.startsWith("#MUNCH/1 ")) return decodeV1(payload);
  if (payload.startsWith("#MUNCH/")) {
    const specs = options.specs ?? [];
    return decodeMunch(payload, (id) => specs.find((s) => s.id === id));
  }
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
 * The MUNCH encoding id {@linkcode encodeResponse} writes: `gen1` for strict v1, the tier-1
 * spec's id (or `gen1`) plus `x` with extensions.
 */
export function encodingId(
  _tool: string,
  options: { extensions?: boolean; spec?: EncoderSpec } = {},
): string {
  if (!options.extensions) return STRICT_ID;
  return (options.spec?.id ?? GENERIC_ID) + EXTENDED_SUFFIX;
}

/**
 * Encode one response in the requested format and report the sizes. `auto` sends MUNCH only when
 * it is at least `threshold` smaller than JSON and its rows hold no JSON text (no list of records
 * as a JSON blob — a list whose rows no v1 table can hold: nested values, rows with different
 * keys, text with line breaks — and, with extensions, no `json` column); otherwise JSON, with
 * `fallback` saying why. `compact` sends MUNCH whenever the
 * response can be written as MUNCH at all. An encoder failure is answered with JSON and reported
 * in `encoder_error` (the codec logs nothing; the caller decides). Throws `TypeError` for an
 * unknown format and `RangeError` for a threshold outside 0..1.
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
  const format = resolveFormat(options.format ?? "auto");
  const threshold = options.threshold ?? 0.15;
  if (!(threshold >= 0 && threshold <= 1)) {
    throw new RangeError(`Invalid threshold "${threshold}": expected a number from 0 to 1`);
  }
  const json = JSON.stringify(response);
  const jsonBytes = utf8Length(json);
  const asJson = (fallback?: EncodeResult["fallback"], error?: string): EncodeResult => ({
    text: json,
    encoding: "json",
    json_bytes: jsonBytes,
    encoded_bytes: jsonBytes,
    encoding_tokens_saved: 0,
    ...(fallback === undefined ? {} : { fallback }),
    ...(error === undefined ? {} : { encoder_error: error }),
  });
  if (format === "json") return asJson();
  let text: string;
  let encoding: string;
  try {
    if (format === "table") {
      text = JSON.stringify(encodeTables(response));
      encoding = "table";
    } else if (options.extensions) {
      const payload = encodeMunchDetailed(tool, response, options.spec);
      if (format === "auto" && payload.jsonInRows) return asJson("json_blobs");
      text = payload.text;
      encoding = encodingId(tool, options);
    } else {
      const payload = encodeStrict(tool, response, options.spec);
      if (payload === undefined) return asJson("unrepresentable");
      if (format === "auto" && payload.recordBlobs.length > 0) return asJson("json_blobs");
      text = payload.text;
      encoding = STRICT_ID;
    }
  } catch (e) {
    return asJson("encoder_error", e instanceof Error ? e.message : String(e));
  }
  const bytes = utf8Length(text);
  if (format === "auto" && (jsonBytes - bytes) / jsonBytes < threshold) return asJson("threshold");
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
