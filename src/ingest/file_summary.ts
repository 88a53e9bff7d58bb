/** The one-line summary of a file from its symbols (API.md §4.7, "File summary", no AI). */
import type { SymbolRecord } from "../parser/types.ts";

/**
 * Up to two `Defines <Class> class (<n> methods)`, then `Contains <n> functions: a, b, c[, ...]`;
 * when neither applies, `Defines types: ...` or `Defines <n> constants`; parts joined by `. `.
 */
export function fileSummary(symbols: readonly SymbolRecord[]): string {
  const parts: string[] = [];
  const classes = symbols.filter((s) => s.kind === "class");
  for (const c of classes.slice(0, 2)) {
    const methods = symbols.filter((s) => s.parent === c.id && s.kind === "method").length;
    parts.push(`Defines ${c.name} class (${methods} methods)`);
  }
  const functions = symbols.filter((s) => s.kind === "function");
  if (functions.length > 0) {
    const names = functions.slice(0, 3).map((f) => f.name).join(", ");
    parts.push(
      `Contains ${functions.length} functions: ${names}${functions.length > 3 ? ", ..." : ""}`,
    );
  }
  if (parts.length === 0) {
    const types = symbols.filter((s) => s.kind === "type");
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
