/** A file's outline: its symbols as a tree (classes containing methods, nested functions). */
import type { SymbolRecord } from "./types.ts";

/** One node of an outline. */
export interface OutlineNode {
  symbol: SymbolRecord;
  children: OutlineNode[];
}

/**
 * Arrange symbols into a tree by their `parent` ids, keeping source order (by `byte_offset`).
 * A symbol whose parent is not among `symbols` becomes a root.
 *
 * @example Methods under their class
 * ```ts
 * import { deepEqual as assertEquals } from "node:assert/strict";
 * import { buildOutline, parseSource } from "./mod.ts";
 * const src = "class A:\n    def m(self):\n        pass\n";
 * const { symbols } = await parseSource("a.py", new TextEncoder().encode(src));
 * const tree = buildOutline(symbols);
 * assertEquals(tree.map((n) => [n.symbol.name, n.children.map((c) => c.symbol.name)]), [["A", ["m"]]]);
 * ```
 */
export function buildOutline(symbols: readonly SymbolRecord[]): OutlineNode[] {
  const ordered = [...symbols].sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.byte_offset - b.byte_offset
  );
  const nodes = new Map<string, OutlineNode>();
  for (const symbol of ordered) nodes.set(symbol.id, { symbol, children: [] });
  const roots: OutlineNode[] = [];
  for (const symbol of ordered) {
    const node = nodes.get(symbol.id)!;
    const parent = symbol.parent === null ? undefined : nodes.get(symbol.parent);
    if (parent === undefined || parent === node) roots.push(node);
    else parent.children.push(node);
  }
  return roots;
}
