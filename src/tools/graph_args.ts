/**
 * Argument helpers shared by the tools: numbers clamped to their range with a warning (API.md
 * Part A §10), one-of argument pairs, a language filter checked against the registry, and the
 * symbol heading every graph response starts with.
 */
import type { SymbolRecord } from "../parser/types.ts";
import { knownLanguageIds } from "../parser/registry.ts";
import { ToolError } from "../errors.ts";

/**
 * Throw `invalid_argument` unless `language` (when given) is a language id files are indexed
 * under: a registered one or a text-only one (every language name of the reference is one).
 */
export function checkLanguage(language: string | undefined): void {
  if (language === undefined) return;
  const known = knownLanguageIds();
  if (known.includes(language)) return;
  throw new ToolError(
    "invalid_argument",
    `Unknown language "${language}": expected one of ${known.join(", ")}`,
  );
}

/**
 * `value` (or `fallback` when missing) clamped to `[min, max]`; a clamped value is named in
 * `warnings`.
 */
export function clampInt(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
  warnings: string[],
): number {
  if (value === undefined) return fallback;
  const clamped = Math.min(max, Math.max(min, Math.trunc(value)));
  if (clamped !== value) {
    warnings.push(`${name}=${value} is out of range ${min}..${max}; used ${clamped}`);
  }
  return clamped;
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

/** The heading of a graph response: which symbol it is about. */
export function symbolHeading(s: SymbolRecord): Record<string, unknown> {
  return { id: s.id, name: s.name, kind: s.kind, file: s.file, line: s.line };
}

/** `_meta` for a response: warnings, and truncation with the hint that fetches more. */
export function graphMeta(
  warnings: string[],
  truncated: boolean,
  hint: string,
): Record<string, unknown> {
  const meta: Record<string, unknown> = { truncated };
  if (truncated) meta.hint = hint;
  if (warnings.length > 0) meta.warnings = warnings;
  return meta;
}
