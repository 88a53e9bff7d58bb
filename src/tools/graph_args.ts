/**
 * Argument helpers shared by the tools: one-of argument pairs, a language filter checked against
 * the registry, and the symbol heading every graph response starts with. (Numbers are clamped
 * to the limits of their zod schema by the runner, one policy for every tool.)
 */
import { z } from "zod";
import type { SymbolRecord } from "../parser/types.ts";
import { canonicalLanguageId, knownLanguageIds } from "../parser/registry.ts";
import { ToolError } from "../errors.ts";

/**
 * The language id files are indexed under that `language` (when given) means: a registered one or
 * a text-only one (every language name of the reference is one), an alias (`protobuf`) as its
 * language's id (`proto`). Throws `invalid_argument` for any other name.
 */
export function checkLanguage(language: string | undefined): string | undefined {
  if (language === undefined) return undefined;
  const id = canonicalLanguageId(language);
  if (id !== undefined) return id;
  const known = knownLanguageIds();
  throw new ToolError(
    "invalid_argument",
    `Unknown language "${language}": expected one of ${known.join(", ")}`,
  );
}

/** The single value or the batch of a one-of argument pair; both or neither fail. */
export function oneOf<T>(
  singleName: string,
  single: T | undefined,
  batchName: string,
  batch: T[] | undefined,
  what: string,
): { single: T } | { batch: T[] } {
  const hasBatch = batch !== undefined && batch.length > 0;
  if (single !== undefined && hasBatch) {
    throw new ToolError(
      "invalid_argument",
      `Pass either "${singleName}" (one ${what}) or "${batchName}" (several), not both`,
    );
  }
  if (single !== undefined) return { single };
  if (hasBatch) return { batch: batch! };
  throw new ToolError(
    "invalid_argument",
    `Missing argument "${singleName}": give one ${what} (or "${batchName}", a list)`,
  );
}

/** A symbol as a graph response names it. */
export interface SymbolHeading {
  id: string;
  name: string;
  kind: string;
  file: string;
  line: number;
}

/** The declared type of {@linkcode SymbolHeading} (a response field). */
export const SYMBOL_HEADING = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number().int(),
}).describe("The symbol the answer is about: id, name, kind, file, line");

/** The heading of a graph response: which symbol it is about. */
export function symbolHeading(s: SymbolRecord): SymbolHeading {
  return { id: s.id, name: s.name, kind: s.kind, file: s.file, line: s.line };
}

/** `_meta` of a capped graph answer: whether it was cut, and then the hint that fetches more. */
export function graphMeta(truncated: boolean, hint: string): { truncated: boolean; hint?: string } {
  return truncated ? { truncated, hint } : { truncated };
}

/** `warnings` for a tool's output, when there are any. */
export function withWarnings(warnings: string[]): { warnings?: string[] } {
  return warnings.length > 0 ? { warnings } : {};
}
