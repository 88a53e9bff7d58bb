/**
 * Fortran (free form, and fixed form in `.f`, `.for`, `.f77`, `.fpp`), our own scanner: programs,
 * modules and submodules → class; subroutines and functions (any prefix: `pure`, `elemental`,
 * `recursive`, `module`, a result type) → function, methods inside a type's `contains`; derived
 * types, named interfaces and `block data` → type; a derived type's components → field; module
 * variables → variable (`parameter`s → constant); `entry` points → function; `common` blocks →
 * variable. Units close with `end [unit [name]]`. Comment lines directly above a definition (`!`)
 * are its docstring. `use module` is an import; `call f(...)` a call. Not understood: statement
 * functions, `include` lines (imports only), preprocessor conditionals (`#ifdef`: both branches
 * are read), locals.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

const _TYPE = String
  .raw`(?:integer|real|double\s*precision|double\s*complex|complex|logical|character|byte|type\s*\(|class\s*\(|procedure\s*\()`;
const _PREFIX = String
  .raw`(?:(?:pure|impure|elemental|recursive|non_recursive|module|simple)\s+|(?:integer|real|double\s*precision|double\s*complex|complex|logical|character)\s*(?:\*\s*\d+|\([^)]*\))?\s+|(?:type|class)\s*\([^)]*\)\s+)*`;

export const rules: ScanRules = {
  comments: {
    line: ["!"],
    strings: ['"', "'"],
    escape: "double",
    fixed: {
      files: /\.(f|for|f77|fpp|ftn)$/i,
      sequence: 6,
      comment: /^[cC*!dD]/,
      lastColumn: 72,
    },
  },
  continuation: "&",
  definitions: [
    { match: /program\s+(?<name>\w+)/i, kind: "class", tag: "program", end: { keyword: true } },
    {
      match: /module\s+(?!procedure\b|function\b|subroutine\b)(?<name>\w+)\s*$/i,
      kind: "class",
      tag: "module",
      end: { keyword: true },
    },
    {
      match: /submodule\s*\([^)]*\)\s*(?<name>\w+)/i,
      kind: "class",
      tag: "submodule",
      end: { keyword: true },
    },
    {
      match: new RegExp(String.raw`${_PREFIX}(?<what>subroutine|function)\s+(?<name>\w+)`, "i"),
      kind: "function",
      tag: "procedure",
      end: { keyword: true },
    },
    {
      match: /module\s+procedure\s+(?<name>\w+)\s*$/i,
      kind: "function",
      tag: "procedure",
      within: ["submodule", "module"],
      end: { keyword: true },
    },
    {
      match: /block\s*data(?:\s+(?<name>\w+))?/i,
      kind: "type",
      tag: "blockdata",
      end: { keyword: true },
    },
    {
      match:
        /type(?:\s*,\s*[\w\s(),=]*?\s*::|\s*::|\s+)\s*(?!is\s*\()(?<name>\w+)\s*(?:\([\w\s,]*\))?\s*$/i,
      kind: "type",
      tag: "type",
      end: { keyword: true },
    },
    {
      match: /(?:abstract\s+)?interface\s+(?<name>\w+(?:\s*\([^)]*\))?)\s*$/i,
      kind: "type",
      tag: "interface",
      end: { keyword: true },
    },
    {
      match: /(?:abstract\s+)?interface\s*$/i,
      kind: "type",
      tag: "interface",
      container: true,
      end: { keyword: true },
    },
    { match: /entry\s+(?<name>\w+)/i, kind: "function", end: "line", within: ["procedure"] },
    {
      match: /common\s*\/\s*(?<name>\w+)\s*\//i,
      kind: "variable",
      end: "line",
    },
    {
      match: /procedure\b[^:]*::\s*(?<names>.+)$/i,
      kind: "function",
      end: "line",
      within: ["type"],
    },
    {
      match: new RegExp(String.raw`${_TYPE}[^!]*?::\s*(?<names>.+)$`, "i"),
      kind: (m, parent) =>
        parent?.tag === "type"
          ? "field"
          : parent?.tag === "module" || parent?.tag === "submodule"
          ? /\bparameter\b/i.test(m[0].slice(0, m[0].indexOf("::"))) ? "constant" : "variable"
          : undefined,
      end: "line",
      within: ["type", "module", "submodule"],
    },
  ],
  closers: [
    {
      match: new RegExp(
        String
          .raw`end\s*(?:(?<what>subroutine|function|module\s+procedure|module|submodule|program|type|interface|procedure|block\s*data)\b\s*(?<name>\w+)?)?\s*$`,
        "i",
      ),
      tags: {
        subroutine: ["procedure"],
        function: ["procedure"],
        "module procedure": ["procedure"],
        procedure: ["procedure"],
        "block data": ["blockdata"],
        blockdata: ["blockdata"],
      },
    },
  ],
  imports: [{
    match:
      /use\b(?:\s*,\s*(?:non_)?intrinsic\s*::)?\s*(?:::\s*)?(?<source>\w+)(?:\s*,\s*only\s*:\s*(?<names>[^!\n]*))?/i,
  }],
  calls: [/\bcall\s+(?<name>\w+)/gi],
  doc: { above: ["!>", "!!", "!"] },
};

export const extractor = lineScanner(rules);
