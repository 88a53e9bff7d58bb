/**
 * The one-line summary of a file from its symbols (API.md §4.7, "File summary", no AI): made from
 * parser records alone, so the indexer writes it and the query layer re-ranks it with the repo's
 * graph, each from below.
 */
import type { CallRecord, SymbolRecord } from "./types.ts";

/** Whether a name reads as private (`_x`, `#x`, Go's lower-case names). */
function _private(s: SymbolRecord): boolean {
  if (s.name.startsWith("_") || s.name.startsWith("#")) return true;
  return s.language === "go" && /^[a-z]/.test(s.name);
}

/** How referenced a symbol is (any scale; only the order counts). */
export type References = (s: SymbolRecord) => number;

/** References from a file's own call sites: how often the file calls each name. */
export function callReferences(calls: readonly CallRecord[]): References {
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(c.callee, (counts.get(c.callee) ?? 0) + 1);
  return (s) => counts.get(s.name) ?? 0;
}

/**
 * The symbols in the order a summary names them, one per name: public before private, then the
 * most referenced, then source order.
 */
function _ranked(symbols: readonly SymbolRecord[], references: References): SymbolRecord[] {
  const seen = new Set<string>();
  const unique = symbols.filter((s) => !seen.has(s.name) && seen.add(s.name));
  return unique
    .map((s, i) => ({ s, i, r: references(s) }))
    .sort((a, b) => Number(_private(a.s)) - Number(_private(b.s)) || b.r - a.r || a.i - b.i)
    .map((x) => x.s);
}

/**
 * Up to two `Defines <Class> class (<n> methods)`, then `Contains <n> functions: a, b, c[, ...]`;
 * when neither applies, `Defines types: ...` or `Defines <n> constants`; parts joined by `. `.
 * Each list names public symbols before private ones and the most referenced first (at index time
 * by the file's own call sites, see {@linkcode callReferences}; the query layer re-ranks with the
 * repo's import and call graph), each name once.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { callReferences, fileSummary } from "./file_summary.ts";
 * const fn = (name: string) => ({ name, kind: "function", language: "python" }) as never;
 * equal(
 *   fileSummary(
 *     [fn("_helper"), fn("load"), fn("save"), fn("save")],
 *     callReferences([{ callee: "save", receiver: null, caller: null, line: 9 }]),
 *   ),
 *   "Contains 3 functions: save, load, _helper",
 * );
 * ```
 */
export function fileSummary(
  symbols: readonly SymbolRecord[],
  references: References = () => 0,
): string {
  const calls = references;
  const parts: string[] = [];
  const classes = _ranked(symbols.filter((s) => s.kind === "class"), calls);
  for (const c of classes.slice(0, 2)) {
    const methods = symbols.filter((s) => s.parent === c.id && s.kind === "method").length;
    parts.push(`Defines ${c.name} class (${methods} methods)`);
  }
  const functions = _ranked(symbols.filter((s) => s.kind === "function"), calls);
  if (functions.length > 0) {
    const names = functions.slice(0, 3).map((f) => f.name).join(", ");
    parts.push(
      `Contains ${functions.length} functions: ${names}${functions.length > 3 ? ", ..." : ""}`,
    );
  }
  if (parts.length === 0) {
    const types = _ranked(symbols.filter((s) => s.kind === "type"), calls);
    const constants = symbols.filter((s) => s.kind === "constant");
    if (types.length > 0) {
      parts.push(
        `Defines types: ${types.slice(0, 3).map((t) => t.name).join(", ")}${
          types.length > 3 ? ", ..." : ""
        }`,
      );
    } else if (constants.length > 0) {
      parts.push(`Defines ${constants.length} constants`);
    }
  }
  return parts.join(". ");
}

/**
 * Number of lines by the line rule of every tool (`\r\n`, `\n` or a lone `\r` ends a line; a
 * trailing break ends the last line).
 */
export function lineCount(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let n = 0;
  if (bytes.indexOf(0x0d) === -1) {
    for (let from = 0;;) {
      const i = bytes.indexOf(0x0a, from);
      if (i === -1) break;
      n++;
      from = i + 1;
    }
  } else {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (b === 0x0a) n++;
      else if (b === 0x0d) {
        n++;
        if (bytes[i + 1] === 0x0a) i++;
      }
    }
  }
  const last = bytes[bytes.length - 1];
  return last === 0x0a || last === 0x0d ? n : n + 1;
}
