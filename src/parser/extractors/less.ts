/**
 * Less (`.less`), our own scanner (the SCSS grammar does not read Less: `.mixin();` calls and
 * guards are syntax errors to it): rule sets → class named by their selector list (as CSS's and
 * SCSS's are), nested ones inside their parent; mixin definitions (`.name(@a; @b) { }`, with
 * `when` guards) → function; `@name: value;` → constant at the top level, variable inside a rule;
 * detached rulesets (`@name: { }`) → function; `@keyframes` → type; `@media` and other at-rules
 * only scope what is inside them. Comment lines directly above a definition (`//`) are its
 * docstring. `@import (options) "file"` is an import; a mixin call (`.name();`, `#ns > .name();`)
 * is a call. Not understood: selectors built by interpolation (`.@{name}`), which are named as
 * written, and `e()`/`~""` escapes.
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
      end: { brace: true },
    },
    {
      match: /@(?:media|supports|container|layer|document|font-face|page)\b/,
      kind: "class",
      tag: "at",
      container: true,
      end: { brace: true },
    },
    { match: /(?<name>@[\w-]+)\s*:\s*(?=\{)/, kind: "function", end: { brace: true } },
    {
      match: /(?<name>@[\w-]+)\s*:(?!\s*\{)/,
      kind: (_m, parent) => (parent === undefined || parent.tag === "at" ? "constant" : "variable"),
      end: { terminator: ";" },
    },
    {
      match: /(?<name>[.#][\w-]+)\s*\((?:[^()]|\([^()]*\))*\)\s*(?:when\b[^{;]*)?(?=\{)/,
      kind: "function",
      end: { brace: true },
    },
    {
      match: /(?=[^@\s;{}])(?:[^;{}/]|\/(?![/*]))+?(?=\{|,\s*$)/,
      kind: "class",
      end: { brace: true, terminator: ";", nameToBrace: true },
      notWithin: ["keyframes"],
    },
  ],
  imports: [{ match: /@import\s*(?:\([\w\s,-]*\)\s*)?(?:url\()?(?<source>"[^"]+"|'[^']+')/ }],
  calls: [/(?:^|[\s;{])(?:#[\w-]+\s*>?\s*)?(?<name>\.[\w-]+)\s*\([^)]*\)\s*(?:!important\s*)?;/gm],
  doc: { above: ["//"] },
};

export const extractor = lineScanner(rules);
