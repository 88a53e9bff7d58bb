/**
 * Row-shaped responses: the helpers that keep a tool's lists flat, so one response object reads
 * as a table in JSON and in strict MUNCH v1 alike (docs/answers.md, "Row-shaped responses").
 * A MUNCH v1 table holds records whose fields are strings, numbers, booleans or null, with the
 * same keys in every row and no line break in any string; a list of anything else travels as a
 * JSON blob, and `format: "auto"` then sends JSON. So a list in a response is a list of such
 * records: nesting becomes a column (`parent`, `file`, `kind`), a list of strings one string.
 */
import { oneLine } from "../query/one_line.ts";

/**
 * A symbol's decorators (or annotations, attributes) as one string: each decorator's text with
 * its whitespace runs collapsed to one space (a multi-line decorator becomes one line), joined by
 * a space; null when there are none. The whole text is in the symbol's source.
 *
 * @example
 * ```ts
 * import { decoratorText } from "./rows.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(decoratorText(["@property", "@app.route(\n    '/x',\n)"]), "@property @app.route( '/x', )");
 * equal(decoratorText([]), null);
 * ```
 */
export function decoratorText(decorators: readonly string[]): string | null {
  if (decorators.length === 0) return null;
  return decorators.map((d) => oneLine(d).trim().replace(/\s+/g, " ")).join(" ");
}

/**
 * Give every row the same keys, in place: a key some rows lack is added to them as null, so the
 * rows form one table (a v1 decoder reads an empty cell as null). Keys keep the order in which
 * they first occur. Returns `rows`.
 *
 * @example
 * ```ts
 * import { squareRows } from "./rows.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * deepStrictEqual(squareRows([{ a: 1 }, { a: 2, b: "x" }]), [{ a: 1, b: null }, { a: 2, b: "x" }]);
 * ```
 */
export function squareRows<T extends Record<string, unknown>>(rows: T[]): T[] {
  const keys = new Set<string>();
  for (const r of rows) for (const k in r) keys.add(k);
  for (const r of rows) {
    for (const k of keys) if (!(k in r)) (r as Record<string, unknown>)[k] = null;
  }
  return rows;
}

/**
 * A count per name as one string, largest first (ties by name): `"python:859 html:123"`.
 * A `{name: count}` object would be a nested object in a row, which no v1 table holds.
 *
 * @example
 * ```ts
 * import { countsText } from "./rows.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(countsText({ html: 123, css: 13, python: 859 }), "python:859 html:123 css:13");
 * ```
 */
export function countsText(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([k, n]) => `${k}:${n}`)
    .join(" ");
}
