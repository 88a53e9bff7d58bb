/**
 * Nim (`.nim`, `.nims`, `.nimble`), our own scanner: `proc`, `func`, `method`, `iterator` and
 * `converter` → function; `template` and `macro` → template; types of a `type` section (one per
 * line, or `type X = object` on one line) → type, with an object's fields → field and an enum's
 * values → constant; `const` → constant; `let`/`var` at module level → variable. Names lose their
 * export marker (`area*` is `area`) and backticks (`` `+` `` is `+`). A definition reaches over
 * the lines indented deeper than it. The `##` lines right below a definition's first line are its
 * docstring (Nim's doc comments), else `#` lines above. `import a, b/c`, `from x import y` and
 * `include x` are imports. Not understood: definitions made by macros, `when` branches (both are
 * read), pragmas, one-line bodies after `=` on the next line's indentation.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

const _NAME = String.raw`(?<name>\x60[^\x60]+\x60|[A-Za-z_]\w*)\*?`;
/** An enum's block holds its values (constants), any other type's its fields. */
const _typeTag = (m: RegExpMatchArray) => (m.groups?.what === "enum" ? "enum" : "type");

export const rules: ScanRules = {
  comments: {
    line: ["#"],
    block: [["#[", "]#"], ["##[", "]##"]],
    strings: ['"""', '"'],
    charLiterals: true,
  },
  definitions: [
    {
      match: new RegExp(String.raw`(?:proc|func|method|iterator|converter)\s+${_NAME}`),
      kind: "function",
      end: "indent",
    },
    {
      match: new RegExp(String.raw`(?:template|macro)\s+${_NAME}`),
      kind: "template",
      end: "indent",
    },
    {
      match: new RegExp(
        String
          .raw`type\s+${_NAME}\s*(?:\[[^\]]*\])?\s*(?:\{[^}]*\}\s*)?=\s*(?:ref\s+|ptr\s+)?(?<what>object|enum|tuple|concept|distinct)?`,
      ),
      kind: "type",
      tag: _typeTag,
      end: "indent",
    },
    { match: /type\s*$/, kind: "type", tag: "typesection", container: true, end: "indent" },
    { match: /const\s*$/, kind: "constant", tag: "constsection", container: true, end: "indent" },
    {
      match: /(?:let|var)\s*$/,
      kind: "variable",
      tag: "varsection",
      container: true,
      end: "indent",
      within: [null],
    },
    {
      match: new RegExp(
        String
          .raw`${_NAME}\s*(?:\[[^\]]*\])?\s*(?:\{[^}]*\}\s*)?=\s*(?:ref\s+|ptr\s+)?(?<what>object|enum|tuple|concept|distinct)?`,
      ),
      kind: "type",
      tag: _typeTag,
      end: "indent",
      within: ["typesection"],
    },
    {
      match: new RegExp(String.raw`${_NAME}\s*(?:\{[^}]*\}\s*)?(?::[^=]*)?=`),
      kind: (_m, parent) => (parent?.tag === "constsection" ? "constant" : "variable"),
      end: "indent",
      within: ["constsection", "varsection"],
    },
    {
      match: new RegExp(String.raw`const\s+${_NAME}\s*(?::[^=]*)?=`),
      kind: "constant",
      end: "indent",
    },
    {
      match: new RegExp(String.raw`(?:let|var)\s+${_NAME}\s*(?:\{[^}]*\}\s*)?[:=]`),
      kind: "variable",
      end: "indent",
      within: [null],
    },
    {
      match:
        /(?<names>(?:\x60[^\x60]+\x60|[A-Za-z_]\w*)\*?(?:\s*\{[^}]*\})?(?:\s*,\s*(?:\x60[^\x60]+\x60|[A-Za-z_]\w*)\*?(?:\s*\{[^}]*\})?)*)\s*(?::|=|,|$)/,
      kind: (_m, parent) => (parent?.tag === "enum" ? "constant" : "field"),
      end: "line",
      within: ["type", "enum"],
    },
  ],
  imports: [
    { match: /import\s+(?<sources>[^#\n]+)/ },
    { match: /from\s+(?<source>[\w/."]+)\s+import\s+(?<names>[^#\n]+)/ },
    { match: /include\s+(?<sources>[^#\n]+)/ },
  ],
  calls: [
    /(?<![\w.])(?<!\b(?:proc|func|method|iterator|converter|template|macro)\s+)(?:(?<receiver>[A-Za-z_]\w*)\.)?(?<name>[A-Za-z_]\w*)\(/g,
  ],
  notCalls: new Set([
    "proc",
    "func",
    "method",
    "iterator",
    "template",
    "macro",
    "if",
    "elif",
    "while",
    "case",
    "when",
    "echo",
    "return",
    "result",
    "discard",
    "not",
    "and",
    "or",
    "of",
    "type",
    "var",
    "let",
    "const",
  ]),
  cleanName: (name) => name.trim().replace(/\*$/, "").replace(/^\x60(.*)\x60$/, "$1"),
  keywords: new Set([
    "of",
    "else",
    "elif",
    "when",
    "case",
    "discard",
    "result",
    "if",
    "for",
    "while",
    "return",
  ]),
  doc: { below: ["##"], above: ["##", "#"] },
};

export const extractor = lineScanner(rules);
