/** JSON text for `json` cells and `__json.` blobs: `JSON.stringify`, except that `-0` stays `-0`. */
import type { JsonValue } from "./types.ts";

/** Serialize compactly, keeping negative zero (which `JSON.stringify` writes as `0`). */
export function stringifyJson(value: JsonValue): string {
  const text = JSON.stringify(value);
  return _hasNegativeZero(value) ? _stringifySlow(value) : text;
}

function _hasNegativeZero(value: JsonValue): boolean {
  if (typeof value === "number") return Object.is(value, -0);
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(_hasNegativeZero);
  for (const k in value) if (_hasNegativeZero(value[k]!)) return true;
  return false;
}

function _stringifySlow(value: JsonValue): string {
  if (typeof value === "number" && Object.is(value, -0)) return "-0";
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) return "[" + value.map(_stringifySlow).join(",") + "]";
  return "{" +
    Object.keys(value).map((k) => JSON.stringify(k) + ":" + _stringifySlow(value[k]!)).join(",") +
    "}";
}
