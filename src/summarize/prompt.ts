/**
 * The AI summary request and reply (API.md §4.7): the symbols as numbered lines
 * `N. <kind>: <signature>`, and one numbered line back per symbol, `N. <summary>`. The reply is
 * read tolerantly: blank lines, stray prose, markdown bullets or bold numbers, `N)` or `N:`
 * instead of `N.`, missing or extra lines — each symbol gets the line with its number, if any.
 */

/** One symbol as the model sees it. */
export interface PromptItem {
  kind: string;
  signature: string;
}

/** Longest signature sent, in characters (a summary needs the head of a declaration only). */
export const MAX_SIGNATURE_CHARS = 300;
/** Longest summary kept, in characters. */
const _MAX_SUMMARY = 120;

/**
 * The request text for a batch.
 *
 * @example
 * ```ts
 * import { ok } from "node:assert/strict";
 * import { buildPrompt } from "./prompt.ts";
 * ok(buildPrompt([{ kind: "function", signature: "def f(x)" }]).endsWith("1. function: def f(x)"));
 * ```
 */
export function buildPrompt(items: readonly PromptItem[]): string {
  const lines = items.map((item, i) =>
    `${i + 1}. ${item.kind}: ${
      item.signature.replace(/\s+/g, " ").trim().slice(0, MAX_SIGNATURE_CHARS)
    }`
  );
  return [
    "Summarize each code symbol in ONE short sentence (max 15 words) saying what it does.",
    `Reply with exactly ${items.length} lines, one per symbol, in the same order, each formatted "N. summary" with the symbol's number. No other text.`,
    "",
    ...lines,
  ].join("\n");
}

/**
 * The summaries in a reply, by position (undefined where the reply has none for a number).
 *
 * @example
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { parseReply } from "./prompt.ts";
 * deepEqual(
 *   parseReply("Sure! Here they are:\n\n**1.** Adds two numbers.\n3) Parses a file\n", 3),
 *   ["Adds two numbers.", undefined, "Parses a file"],
 * );
 * ```
 */
export function parseReply(text: string, count: number): (string | undefined)[] {
  const out: (string | undefined)[] = new Array(count).fill(undefined);
  for (const raw of text.split(/\r?\n/)) {
    const m =
      /^\s*(?:[-*•]\s*)?(?:\*\*|__)?\s*(\d{1,4})\s*(?:\*\*|__)?\s*[.):\]-]\s*(?:\*\*|__)?\s*(.*)$/
        .exec(raw);
    if (m === null) continue;
    const n = Number(m[1]);
    if (n < 1 || n > count || out[n - 1] !== undefined) continue;
    const summary = _clean(m[2]!);
    if (summary !== "") out[n - 1] = summary;
  }
  return out;
}

function _clean(text: string): string {
  let s = text.trim().replace(/^(?:\*\*|__)|(?:\*\*|__)$/g, "").trim();
  // A model sometimes repeats "kind: signature — summary": keep what follows the dash.
  s = s.replace(/^["'`]+|["'`]+$/g, "").trim();
  return s.replace(/\s+/g, " ").slice(0, _MAX_SUMMARY);
}
