/**
 * Sass's indented syntax (`.sass`; `.scss` is the SCSS grammar's), our own scanner: a line with
 * deeper-indented lines below it that is no declaration is a rule → class named by its selector
 * (nested rules inside their parent, `%placeholder`s too); `@mixin name(...)` and `=name(...)` →
 * function; `@function name(...)` → function; `$name: value` → constant at the top level,
 * variable inside a rule; `@keyframes` → type; `@media`, `@if`, `@each` and other at-rules only
 * scope what is inside them. Comment lines directly above a definition (`//`) are its
 * docstring. `@import`, `@use` and `@forward` are imports; `@include name` and `+name` are calls.
 * Not understood: multi-line selectors (`,` at a line's end: each line is read alone) and
 * interpolated selectors, named as written.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

export const rules: ScanRules = {
  comments: { line: ["//"], block: [["/*", "*/"]], strings: ['"', "'"] },
  definitions: [
    { match: /(?:@mixin\s+|=\s*)(?<name>[\w-]+)/, kind: "function", end: "indent" },
    { match: /@function\s+(?<name>[\w-]+)/, kind: "function", end: "indent" },
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
      match: /(?<name>\$[\w-]+)\s*:/,
      kind: (_m, parent) => (parent === undefined || parent.tag === "at" ? "constant" : "variable"),
      end: "line",
    },
    {
      // A declaration is `name: value` (a space after the colon) or `:name value`; `a:hover` is not.
      match: /(?![@+=$]|[\w-]+\s*:(?:\s|$)|:[\w-]+\s)(?<name>[^\n]+?)\s*$/,
      kind: "class",
      end: "indent",
      nextDeeper: true,
      notWithin: ["keyframes"],
    },
  ],
  imports: [{
    match:
      /@(?:import|use|forward)\s+(?<sources>(?:"[^"]+"|'[^']+'|[\w./-]+)(?:\s*,\s*(?:"[^"]+"|'[^']+'))*)/,
  }],
  calls: [/(?:@include\s+|^[ \t]*\+)(?<name>[\w-]+)/gm],
  doc: { above: ["//"] },
};

export const extractor = lineScanner(rules);
