/**
 * AutoHotkey (`.ahk`, `.ahk2`; v1 and v2 syntax), our own scanner: function definitions
 * (`Name(params) {`, the brace on the same or the next line) → function, methods inside a class;
 * `class X [extends Y] {` → class; properties (`Name[params] {` or `Name {` with `get`/`set`)
 * inside a class → property; hotkeys (`^!k::`) and hotstrings (`::btw::`) → function named as
 * written; labels (`Name:`) → function, up to the next label or hotkey; `static`/`global`
 * declarations at class or top level → variable. Comments: `;` at a line's start or after a space,
 * block comments. Comment lines directly above a definition are its docstring. `#Include` lines
 * are imports; `Name(` inside code is a call. Not understood: continuation sections, dynamic
 * calls (`%fn%()`), v1 command syntax arguments.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

export const rules: ScanRules = {
  comments: {
    line: [{ marker: ";", after: /(?:^|[ \t])$/ }],
    block: [["/*", "*/"]],
    strings: ['"', "'"],
    escape: "double",
  },
  definitions: [
    {
      match: /class\s+(?<name>[\w.]+)(?:\s+extends\s+[\w.]+)?(?=\s*\{?\s*$)/i,
      kind: "class",
      end: { brace: true },
    },
    {
      match: /(?:static\s+)?(?<name>[\w#@$]+)\([^()]*(?:\([^()]*\)[^()]*)*\)(?=\s*(?:\{.*)?$)/,
      kind: "function",
      end: { brace: true, nextLine: true },
      within: [null, "class"],
    },
    {
      match: /(?:static\s+)?(?<name>[\w#@$]+)\([^()]*(?:\([^()]*\)[^()]*)*\)\s*=>/,
      kind: "function",
      end: "line",
      within: [null, "class"],
    },
    {
      match: /(?:static\s+)?(?<name>\w+)(?:\[[^\]]*\])?(?=\s*\{\s*$)/,
      kind: "property",
      end: { brace: true },
      within: ["class"],
    },
    { match: /:(?<opts>[^:\s]*):(?<name>[^:\n]+)::/, kind: "function", end: "line", level: 1 },
    {
      match: /(?<name>[^\s:;,`"'(){}]+(?: & [^\s:]+)?(?: up)?)::/i,
      kind: "function",
      end: "next",
      level: 1,
    },
    {
      match: /(?<name>[^\s:;,`"'(){}=]+):\s*$/,
      kind: "function",
      end: "next",
      level: 1,
      within: [null, "function"],
    },
    {
      match:
        /(?:static|global)\s+(?<names>\w+(?:\s*:?=[^,\n]*)?(?:\s*,\s*\w+(?:\s*:?=[^,\n]*)?)*)/i,
      kind: "variable",
      end: "line",
      within: [null, "class"],
    },
  ],
  imports: [{ match: /#Include(?:Again)?\s+(?:\*i\s+)?(?<source>[^\n;]+?)\s*(?:;.*)?$/i }],
  cleanSource: (path) => path.replaceAll("\\", "/"),
  calls: [/(?<![\w.#])(?:(?<receiver>[A-Za-z_]\w*)\.)?(?<name>[A-Za-z_]\w*)\(/g],
  notCalls: new Set([
    "if",
    "while",
    "for",
    "loop",
    "switch",
    "return",
    "until",
    "catch",
    "not",
    "and",
    "or",
  ]),
  keywords: new Set([
    "if",
    "while",
    "for",
    "loop",
    "switch",
    "return",
    "until",
    "catch",
    "else",
    "try",
  ]),
  doc: { above: [";"] },
};

export const extractor = lineScanner(rules);
