/** Number formatting and parsing for MUNCH `int` and `float` values. */

/** True for a number written as a MUNCH `int` (an integer other than `-0`). */
export function isIntValue(v: number): boolean {
  return Number.isInteger(v) && !Object.is(v, -0);
}

/** Decimal text of an integer; digits only, even beyond 1e21 (where `String` uses exponents). */
export function formatInt(v: number): string {
  return Math.abs(v) < 1e21 ? String(v) : BigInt(v).toString();
}

/**
 * A float in Python `repr` style: always a `.` or an exponent (`2.0`, `1.5e-05`, `-0.0`),
 * shortest text that reads back as the same number.
 */
export function formatFloat(v: number): string {
  if (Object.is(v, -0)) return "-0.0";
  const s = String(v);
  const e = s.indexOf("e");
  if (e === -1) return s.includes(".") ? s : s + ".0";
  const exp = s.slice(e + 2);
  return s.slice(0, e + 2) + (exp.length < 2 ? "0" + exp : exp);
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** True when `text` is number text (what {@linkcode parseNumber} turns into a number). */
export function isNumberText(text: string): boolean {
  return NUMBER.test(text);
}

/** Parse number text; text that is not a number is returned unchanged (as the spec says). */
export function parseNumber(text: string): number | string {
  return NUMBER.test(text) ? Number(text) : text;
}
