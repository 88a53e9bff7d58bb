/**
 * Stylus (`.styl`), our own scanner: a line with deeper-indented lines below it (or a `{`) is a
 * rule → class named by its selector, unless it is a mixin or function definition (`name(args)`
 * at a block's start) → function; `name = value` and `$name = value` → constant at the top level,
 * variable inside a rule; `@keyframes` → type; `@media` and other at-rules only scope what is
 * inside them. Comment lines directly above a definition (`//`) are its docstring. `@import` and
 * `@require` are imports; `name(args)` alone on a line inside a rule is a call (a mixin use). Not
 * understood: property lines without a colon that have nested lines, selectors over several
 * lines, interpolation (`{$x}`), named as written.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

export const rules: ScanRules = {
  comments: { line: ["//"], block: [["/*", "*/"]], strings: ['"', "'"] },
  definitions: [
    {
      match: /@(?:-\w+-)?keyframes\s+(?<name>[\w-]+)/,
      kind: "type",
      tag: "keyframes",
      end: "indent",
    },
    {
      match: /@[\w-]+/,
      kind: "class",
      tag: "at",
      container: true,
      end: "indent",
      nextDeeper: true,
    },
    {
      match: /(?<name>\$?[\w-]+)\s*(?:\?=|:=|=)(?!=)/,
      kind: (_m, parent) => (parent === undefined || parent.tag === "at" ? "constant" : "variable"),
      end: "line",
    },
    {
      match: /(?<name>[\w-]+)\((?:[^()]|\([^()]*\))*\)\s*\{?\s*$/,
      kind: "function",
      end: "indent",
      nextDeeper: true,
    },
    {
      match: /(?![@$]|[\w-]+\s*:\s|[\w-]+\s+[^\s{,>+~&.#:[]+\s*$)(?<name>[^\n{]+?)\s*\{?\s*$/,
      kind: "class",
      end: "indent",
      nextDeeper: true,
      notWithin: ["keyframes"],
    },
  ],
  imports: [{
    match: /@(?:import|require)\s+(?<sources>(?:"[^"]+"|'[^']+')(?:\s*,\s*(?:"[^"]+"|'[^']+'))*)/,
  }],
  calls: [/^[ \t]+(?<name>[\w-]+)\([^)]*\)\s*$/gm],
  doc: { above: ["//"] },
};

export const extractor = lineScanner(rules);
