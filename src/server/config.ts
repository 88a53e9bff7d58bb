/**
 * Server settings from the environment.
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `CODEMUNCH_META` | on | `off` (or `0`, `false`, `no`) leaves `_meta` out of every response |
 * | `JCODEMUNCH_REDACT_RESPONSE_SECRETS` | on | `0` (or `off`, `false`, `no`) turns secret redaction off |
 * | `JCODEMUNCH_DEFAULT_FORMAT` | `auto` | format when a call gives none (`auto`, `compact`, `json`, `table`) |
 * | `JCODEMUNCH_ENCODING_THRESHOLD` | 0.15 | least saving for `auto` to send MUNCH |
 * | `CODEMUNCH_MUNCH_EXTENSIONS` | off | `on` (or `1`, `true`, `yes`) sends codemunch's extended MUNCH (`#MUNCH/1x`), which only codemunch's decoder reads |
 * | `CODEMUNCH_IDLE_DROP_S` | 300 | seconds a repo's derived read data (name indexes, graphs, rankings) is kept unused before it is dropped and rebuilt on demand; a server with no call for that long also closes its idle search workers and stops its parser workers |
 * | `CODEMUNCH_FRESH_READS` | on | `off` (or `0`, `false`, `no`): read tools answer from the index as it is, without checking the files their answer comes from (fresh_reads.ts) |
 *
 * The codec reads no environment itself: these settings are passed to it by the envelope.
 */
import { type Format, resolveFormat } from "../codec/dispatch.ts";
import type { ToolVisibility } from "./tool_profile.ts";
import { IDLE_DROP_MS } from "../query/view.ts";

/** What the envelope does with every response. */
export interface ServerSettings {
  /** Add `_meta` to responses. @default true */
  meta: boolean;
  /** Redact secrets in served text. @default true */
  redact: boolean;
  /** Format when a call does not name one. @default "auto" */
  defaultFormat: Format;
  /** Least saving for `auto` to pick MUNCH. @default 0.15 */
  threshold: number;
  /** Send extended MUNCH (`#MUNCH/1x`) instead of strict MUNCH v1. @default false */
  munchExtensions?: boolean;
  /** Re-index a changed file before a read answers from it (fresh_reads.ts). @default true */
  freshReads?: boolean;
  /**
   * The tools MCP clients see and may call (tool profile and `disabled_tools`, read by the
   * composition root with `config.jsonc`: tool_profile.ts). @default every tool
   */
  tools?: ToolVisibility;
  /** Seconds a repo's read model may go unused before it is dropped (src/query/view.ts). @default 300 */
  idleDropS?: number;
}

/** The defaults, without looking at the environment. */
export const DEFAULT_SETTINGS: ServerSettings = {
  meta: true,
  redact: true,
  defaultFormat: "auto",
  threshold: 0.15,
};

function _off(v: string | undefined): boolean {
  return v !== undefined && /^(0|off|false|no)$/i.test(v.trim());
}

function _on(v: string | undefined): boolean {
  return v !== undefined && /^(1|on|true|yes)$/i.test(v.trim());
}

/**
 * An integer setting from the environment: `fallback` when unset or blank; a value that is not an
 * integer of at least `min` throws `RangeError` naming the variable.
 */
export function envInteger(
  env: (name: string) => string | undefined,
  name: string,
  fallback: number,
  min: number,
): number {
  const v = env(name)?.trim();
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    throw new RangeError(`Invalid ${name}: expected an integer of at least ${min}, got "${v}"`);
  }
  return n;
}

/** Read the settings from environment variables (see the module doc); bad values throw `RangeError`. */
export function settingsFromEnv(
  env: (name: string) => string | undefined,
): ServerSettings {
  const format = env("JCODEMUNCH_DEFAULT_FORMAT")?.trim();
  const threshold = env("JCODEMUNCH_ENCODING_THRESHOLD")?.trim();
  let defaultFormat: Format = "auto";
  if (format) {
    try {
      defaultFormat = resolveFormat(format.toLowerCase());
    } catch (e) {
      throw new RangeError(`Invalid JCODEMUNCH_DEFAULT_FORMAT: ${(e as Error).message}`);
    }
  }
  let t = DEFAULT_SETTINGS.threshold;
  if (threshold) {
    t = Number(threshold);
    if (!(t >= 0 && t <= 1)) {
      throw new RangeError(
        `Invalid JCODEMUNCH_ENCODING_THRESHOLD: expected a number from 0 to 1, got "${threshold}"`,
      );
    }
  }
  return {
    meta: !_off(env("CODEMUNCH_META")),
    redact: !_off(env("JCODEMUNCH_REDACT_RESPONSE_SECRETS")) && !_off(env("CODEMUNCH_REDACT")),
    defaultFormat,
    threshold: t,
    munchExtensions: _on(env("CODEMUNCH_MUNCH_EXTENSIONS")),
    freshReads: !_off(env("CODEMUNCH_FRESH_READS")),
    idleDropS: envInteger(env, "CODEMUNCH_IDLE_DROP_S", IDLE_DROP_MS / 1000, 1),
  };
}
