/**
 * Symbol summaries without AI (API.md §4.7 tiers 1 and 3): the first line of the docstring cut
 * after its first sentence, else a fallback from the kind and signature. Pure text from the
 * extracted record, so the extractor computes them in its workers; the AI tier (src/summarize/)
 * replaces the fallback later, and the tools read {@linkcode summaryRepeatsSignature}.
 */

/** The fields a summary is made from. */
export interface SummarySource {
  kind: string;
  name: string;
  signature: string;
  docstring: string;
}

const _MAX = 120;

/**
 * One-line summary of a symbol: tier 1 (docstring) or tier 3 (signature fallback).
 *
 * @example Docstring first, signature fallback otherwise
 * ```ts
 * import { deepEqual as assertEquals } from "node:assert/strict";
 * assertEquals(
 *   symbolSummary({ kind: "function", name: "f", signature: "def f()", docstring: "Do it. More." }),
 *   "Do it.",
 * );
 * assertEquals(symbolSummary({ kind: "class", name: "A", signature: "class A", docstring: "" }), "Class A");
 * ```
 */
export function symbolSummary(source: SummarySource): string {
  const fromDoc = docstringSummary(source.docstring);
  if (fromDoc !== "") return fromDoc;
  return signatureSummary(source);
}

/** Tier 1: first non-blank line of the docstring, cut after the first `.`, at most 120 chars. */
export function docstringSummary(docstring: string): string {
  const line = docstring.trim().split("\n")[0]?.trim() ?? "";
  if (line === "") return "";
  const dot = line.indexOf(".");
  const sentence = dot === -1 ? line : line.slice(0, dot + 1);
  return sentence.slice(0, _MAX);
}

/**
 * Tier 3: `Class <name>`, `Constant <name>`, `Type definition <name>`, else the signature with its
 * whitespace collapsed to single spaces (a summary is one line), cut at a word boundary within 120
 * characters.
 */
export function signatureSummary(source: SummarySource): string {
  switch (source.kind) {
    case "class":
      return `Class ${source.name}`;
    case "constant":
      return `Constant ${source.name}`;
    case "type":
      return `Type definition ${source.name}`;
  }
  const signature = source.signature.replace(/\s+/g, " ").trim();
  return signature === "" ? `${source.kind} ${source.name}` : _cutAtWord(signature, _MAX);
}

/** At most `max` characters of a one-line text, cut at a space or punctuation, never mid-word. */
function _cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  while (
    end > max / 2 && /[\p{L}\p{N}_$]/u.test(text[end]!) && /[\p{L}\p{N}_$]/u.test(text[end - 1]!)
  ) {
    end--;
  }
  if (end <= max / 2) end = max;
  return text.slice(0, end).trimEnd();
}

/**
 * Whether a symbol's summary only repeats its signature (the signature fallback, tier 3): an
 * outline or search hit then leaves the summary out, since the signature is shown anyway.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { summaryRepeatsSignature } from "./summary.ts";
 * equal(summaryRepeatsSignature({ signature: "def f(a,\n      b)", summary: "def f(a, b)" }), true);
 * equal(summaryRepeatsSignature({ signature: "def f(a, b)", summary: "Add a to b." }), false);
 * ```
 */
export function summaryRepeatsSignature(s: { signature: string; summary: string }): boolean {
  if (s.summary === "") return false;
  const signature = s.signature.replace(/\s+/g, " ").trim();
  return signature.startsWith(s.summary);
}
