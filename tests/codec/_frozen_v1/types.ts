/** Types shared by the codec modules. */

/** Any value that `JSON.parse` can produce. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A JSON object (the shape of every tool response). */
export type JsonObject = { [key: string]: JsonValue };

/** Per-column value types of a MUNCH table (`json` is our additive extension, see mod.ts). */
export type ColumnType = "int" | "float" | "bool" | "str" | "json";

/** Column types as small integers, for switches in the hot loops of the encoder and decoder. */
export const T_STR = 0, T_INT = 1, T_FLOAT = 2, T_BOOL = 3, T_JSON = 4;
/** The integer of each column type. */
export const KIND_OF: Readonly<Record<ColumnType, number>> = {
  str: T_STR,
  int: T_INT,
  float: T_FLOAT,
  bool: T_BOOL,
  json: T_JSON,
};

/** Per-scalar value types listed in `__stypes` (strings are the default and never listed). */
export type ScalarType = "int" | "float" | "bool";

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Set an own property, also for the key `__proto__` (which plain assignment would not create). */
export function setKey(obj: JsonObject, key: string, value: JsonValue): void {
  if (key.length === 9 && key === "__proto__") {
    Object.defineProperty(obj, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else obj[key] = value;
}
