/**
 * Symbol summaries without AI (API.md §4.7 tiers 1 and 3): the first line of the docstring cut
 * after its first sentence, else a fallback from the kind and signature.
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
 * Tier 3: `Class <name>`, `Constant <name>`, `Type definition <name>`, else the first 120 chars of
 * the signature with its whitespace collapsed to single spaces (a summary is one line).
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
  return signature === "" ? `${source.kind} ${source.name}` : signature.slice(0, _MAX);
}
