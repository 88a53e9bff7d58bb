/** fast-check arbitraries for codec property tests: JSON objects full of hard cases. */
import fc from "fast-check";
import type { JsonObject, JsonValue } from "../../src/codec/types.ts";

const TRICKY = [
  "\n",
  "\r",
  "\n\n",
  "\r\n",
  "@",
  "@1",
  "@0",
  "@12",
  "0",
  "9",
  ",",
  '"',
  '""',
  "=",
  "\\",
  "\\n",
  ".",
  ":",
  "|",
  "%",
  "%2E",
  " ",
  "\t",
  "é",
  "😀",
  "\u2028",
  "\u0085",
  "\v",
  "\f",
  "__",
  "_meta",
  "__json.",
  "__tables",
  "#MUNCH/1",
  "a",
  "b",
  "/",
  "src/",
  "::",
  "#",
  "T",
  "F",
  "null",
  "1e5",
  "\ud800",
  "\udc00",
  "\x00",
  "²", // a digit to Python's str.isdigit() (the reference's legend reader), not to int()
  "٣", // an Arabic-Indic three: a digit to both
  "\u00a0",
  "\x1f",
  "-",
  "[",
  "{",
];

/** Strings built from the characters and fragments the codec must survive. */
export const trickyString: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.array(fc.constantFrom(...TRICKY), { maxLength: 6 }).map((a) => a.join("")),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom("", "src/pkg/a.py", "src/pkg/b.py", "src/lib/c.ts") },
);

/** Numbers including -0, exponents, and integers beyond 2^53 as JSON.parse gives them. */
export const trickyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-0, 0, 2 ** 53 + 2, 1e21, -1e22, 12345678901234567890, 1e-7, 5e-324, 1.5, 100),
);

const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
  trickyString,
  trickyNumber,
  fc.boolean(),
  fc.constant(null),
);

const KEY_POOL = [
  "id",
  "file",
  "line",
  "a.b",
  "c d",
  "__x",
  "@1",
  "x,y",
  "",
  "kind",
  "%",
  "constructor",
  "valueOf",
  "toString",
  "children",
  "matches",
];

/** Any JSON value, biased towards the shapes MUNCH turns into tables. */
export const jsonValue: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue; obj: JsonObject }>(
  (tie) => ({
    value: fc.oneof(
      { depthSize: "small", maxDepth: 3, withCrossShrink: true },
      scalar,
      fc.array(tie("value"), { maxLength: 4 }),
      tie("obj"),
      _table(tie("value")),
    ),
    obj: fc.dictionary(fc.oneof(trickyString, fc.constantFrom(...KEY_POOL)), tie("value"), {
      maxKeys: 5,
      noNullPrototype: true,
    }),
  }),
).value;

/** A list of objects over a shared key pool, with some keys missing (optional columns). */
function _table(value: fc.Arbitrary<JsonValue>): fc.Arbitrary<JsonValue> {
  return fc.tuple(
    fc.uniqueArray(fc.oneof(fc.constantFrom(...KEY_POOL), trickyString), {
      minLength: 1,
      maxLength: 5,
    }),
    fc.array(
      fc.tuple(
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        fc.array(value, {
          minLength: 5,
          maxLength: 5,
        }),
      ),
      { minLength: 1, maxLength: 6 },
    ),
  ).map(([keys, rows]) =>
    rows.map(([present, values]) => {
      const row: JsonObject = {};
      keys.forEach((k, i) => {
        if (present[i] !== false) {
          Object.defineProperty(row, k, {
            value: values[i] ?? null,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
      });
      return row;
    })
  );
}

/** A JSON object (the shape of every response). */
export const jsonObject: fc.Arbitrary<JsonObject> = fc.dictionary(
  fc.oneof(
    trickyString,
    fc.constantFrom(...KEY_POOL, "_meta", "results", "__rows__", "__matches__", "__proto__"),
  ),
  jsonValue,
  { maxKeys: 6, noNullPrototype: true },
);

/** Rebuild a value with plain prototypes (fast-check's records have none), keeping -0. */
export function plain(value: unknown): JsonValue {
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== "object" || value === null) return value as JsonValue;
  const out: JsonObject = {};
  for (const k of Object.keys(value)) {
    if ((value as Record<string, unknown>)[k] === undefined) continue;
    Object.defineProperty(out, k, {
      value: plain((value as Record<string, unknown>)[k]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
