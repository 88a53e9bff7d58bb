/**
 * Bounded output (API.md Part A §9): the token estimate every tool uses, signatures cut at a token
 * boundary and marked, text cut at whole lines, and a budget that a response fills item by item.
 *
 * Tokens are estimated as UTF-8 bytes / 4 (rounded up), the same estimate as `tokens_saved`.
 * Content tools take `token_budget` (default {@linkcode DEFAULT_TOKEN_BUDGET}); when they cut,
 * they set `_meta.truncated` and a `_meta.hint` that names the exact arguments fetching the rest.
 */
import { oneLine } from "./one_line.ts";

/** The `token_budget` of a content tool when the call gives none (about 32 KB of text). */
export const DEFAULT_TOKEN_BUDGET = 8000;

/** Least and largest `token_budget` a call may ask for (out-of-range values are clamped). */
export const TOKEN_BUDGET_RANGE = { min: 100, max: 200_000 } as const;

/** Characters a signature keeps in outlines and search hits before it is cut. */
export const SIGNATURE_MAX_CHARS = 240;

/** What a cut signature ends with: the whole text is one `get_symbol_source` away. */
export const CUT_MARK = " …";

const _encoder = new TextEncoder();

/** UTF-8 length of a string without allocating for ASCII-only text. */
export function utf8Bytes(text: string): number {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  return ascii ? text.length : _encoder.encode(text).length;
}

/**
 * Estimated tokens of a text, a byte count, or a JSON value (its compact JSON text).
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { estimateTokens } from "./budget.ts";
 * equal(estimateTokens("abcdefgh"), 2);
 * equal(estimateTokens(10), 3);
 * equal(estimateTokens({ a: 1 }), 2);
 * ```
 */
export function estimateTokens(value: string | number | object): number {
  const bytes = typeof value === "number"
    ? value
    : utf8Bytes(typeof value === "string" ? value : JSON.stringify(value) ?? "");
  return Math.ceil(bytes / 4);
}

/** A cut text and whether it was cut. */
export interface Cut {
  text: string;
  cut: boolean;
}

/** Characters a cut may end after: whitespace, separators and closing brackets. */
const _BOUNDARY = /[\s,;:(){}[\]<>=|&+\-*/]/;

/**
 * A signature as outlines and search hits show it, on one line ({@linkcode oneLine}: a line break
 * and the indentation after it become one space): unchanged when it has at most `max` characters,
 * else cut at the last token boundary (whitespace or punctuation) in its first `max` characters
 * and marked with {@linkcode CUT_MARK}. Never cuts inside a word (unless one word is longer than
 * half of `max`) or a surrogate pair.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { cutSignature } from "./budget.ts";
 * equal(cutSignature("def f(a, b)").text, "def f(a, b)");
 * const long = "def handler(request, " + "argument_number, ".repeat(30) + "last)";
 * const c = cutSignature(long, 60);
 * equal(c.cut, true);
 * equal(c.text, "def handler(request, argument_number, argument_number, …");
 * ```
 */
export function cutSignature(text: string, max = SIGNATURE_MAX_CHARS): Cut {
  const signature = oneLine(text);
  if (signature.length <= max) return { text: signature, cut: false };
  let end = max;
  // The character after the cut decides: a cut before a boundary ends a whole token.
  while (
    end > max / 2 && !_BOUNDARY.test(signature[end]!) && !_BOUNDARY.test(signature[end - 1]!)
  ) {
    end--;
  }
  if (end <= max / 2) end = max;
  const code = signature.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // keep a surrogate pair whole
  return { text: signature.slice(0, end).trimEnd() + CUT_MARK, cut: true };
}

/**
 * Whole lines of `lines` from the first, as many as fit in `tokens` (at least one line, itself
 * cut at a token boundary when it alone is larger). Returns how many lines were kept whole.
 */
export function fitLines(
  lines: readonly string[],
  tokens: number,
): { text: string; kept: number; cut: boolean } {
  const limit = tokens * 4;
  let bytes = 0;
  let kept = 0;
  for (const line of lines) {
    const add = utf8Bytes(line) + (kept > 0 ? 1 : 0);
    if (bytes + add > limit) break;
    bytes += add;
    kept++;
  }
  if (kept === lines.length) return { text: lines.join("\n"), kept, cut: false };
  if (kept === 0) {
    // One line larger than the whole budget (minified code): its first part.
    const first = cutSignature(lines[0] ?? "", Math.max(16, limit));
    return { text: first.text, kept: 0, cut: true };
  }
  return { text: lines.slice(0, kept).join("\n"), kept, cut: true };
}

/**
 * A token budget that a response fills item by item: {@linkcode take} adds an item when it fits
 * (the first item always fits, so a response is never empty for a small budget).
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { TokenBudget } from "./budget.ts";
 * const b = new TokenBudget(10);
 * equal(b.take(8), true);
 * equal(b.take(8), false);
 * equal(b.take(2), true);
 * equal(b.used, 10);
 * equal(b.remaining, 0);
 * equal(b.skipped, 1);
 * ```
 */
export class TokenBudget {
  /** The budget in tokens. */
  readonly limit: number;
  #used = 0;
  #taken = 0;
  #skipped = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Tokens taken so far. */
  get used(): number {
    return this.#used;
  }

  /** Tokens left (0 when over). */
  get remaining(): number {
    return Math.max(0, this.limit - this.#used);
  }

  /** Items refused so far. */
  get skipped(): number {
    return this.#skipped;
  }

  /** Whether `tokens` more would fit (always true for the first item). */
  fits(tokens: number): boolean {
    return this.#taken === 0 || this.#used + tokens <= this.limit;
  }

  /** Take an item of `tokens` (a number, or a text or JSON value to estimate) if it fits. */
  take(item: number | string | object): boolean {
    const tokens = typeof item === "number" ? item : estimateTokens(item);
    if (!this.fits(tokens)) {
      this.#skipped++;
      return false;
    }
    this.#used += tokens;
    this.#taken++;
    return true;
  }
}
