/**
 * VHDL (`.vhd`, `.vhdl`), our own scanner: entities, architectures (named by themselves),
 * packages, package bodies, package instances (`is new`) and configurations → class; components →
 * type; processes with a label → function; functions and procedures (declarations and bodies) →
 * function; types and subtypes → type (a record's elements → field, an enumeration's literals →
 * constant); constants → constant; signals, shared variables and aliases (`"and"` too) → variable. Blocks close with `end [keyword]
 * [name];`. Comment lines directly above a definition (`--`) are its docstring. `library x;` and
 * `use x.y.all;` are imports. Not understood: generics and ports (not symbols), `generate`
 * labels, instantiations (not calls), locals.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

const _SUBPROGRAM = { keyword: true, body: /is\b(?!\s*new\b)/i, terminator: ";" } as const;

export const rules: ScanRules = {
  comments: {
    line: ["--"],
    block: [["/*", "*/"]],
    strings: ['"'],
    escape: "double",
    charLiterals: true,
  },
  definitions: [
    {
      match: /entity\s+(?<name>\w+)\s+is\b/i,
      kind: "class",
      tag: "entity",
      end: { keyword: true },
    },
    {
      match: /architecture\s+(?<name>\w+)\s+of\s+\w+\s+is\b/i,
      kind: "class",
      tag: "architecture",
      end: { keyword: true },
    },
    // A generic package's instance (`package p is new work.g generic map (...);`).
    { match: /package\s+(?<name>\w+)\s+is\s+new\b/i, kind: "class", end: { terminator: ";" } },
    {
      match: /package\s+(?:body\s+)?(?<name>\w+)\s+is\b(?!\s+new\b)/i,
      kind: "class",
      tag: "package",
      end: { keyword: true },
    },
    {
      match: /configuration\s+(?<name>\w+)\s+of\s+\w+\s+is\b/i,
      kind: "class",
      tag: "configuration",
      end: { keyword: true },
    },
    { match: /component\s+(?<name>\w+)/i, kind: "type", tag: "component", end: { keyword: true } },
    {
      match: /(?<name>\w+)\s*:\s*(?:postponed\s+)?process\b/i,
      kind: "function",
      tag: "process",
      end: { keyword: true },
    },
    {
      match: /(?:(?:pure|impure)\s+)?(?<what>function|procedure)\s+(?<name>\w+|"[^"]*")/i,
      kind: "function",
      tag: "subprogram",
      end: _SUBPROGRAM,
    },
    {
      match: /type\s+(?<name>\w+)\s+is\s*/i,
      kind: "type",
      tag: "record",
      end: { keyword: true, body: /record\b|protected\b/i, terminator: ";" },
      members: "constant",
    },
    { match: /subtype\s+(?<name>\w+)/i, kind: "type", end: { terminator: ";" } },
    {
      match: /constant\s+(?<names>\w+(?:\s*,\s*\w+)*)\s*:/i,
      kind: "constant",
      end: { terminator: ";" },
    },
    {
      match: /(?:signal|shared\s+variable)\s+(?<names>\w+(?:\s*,\s*\w+)*)\s*:/i,
      kind: "variable",
      end: { terminator: ";" },
    },
    { match: /alias\s+(?<name>\w+|"[^"]*")/i, kind: "variable", end: { terminator: ";" } },
    {
      match: /(?<names>\w+(?:\s*,\s*\w+)*)\s*:(?!=)/i,
      kind: "field",
      end: { terminator: ";" },
      within: ["record"],
    },
  ],
  closers: [
    {
      match:
        /end(?:\s+(?<what>entity|architecture|package\s+body|package|configuration|component|postponed\s+process|process|function|procedure|record|protected\s+body|protected|units))?(?:\s+(?<name>\w+|"[^"]*"))?\s*;/i,
      tags: {
        "package body": ["package"],
        function: ["subprogram"],
        procedure: ["subprogram"],
        "postponed process": ["process"],
        protected: ["record"],
        "protected body": ["record"],
        units: ["record"],
      },
    },
  ],
  imports: [
    { match: /library\s+(?<sources>\w+(?:\s*,\s*\w+)*)\s*;/i },
    { match: /use\s+(?<sources>[\w.]+(?:\s*,\s*[\w.]+)*)\s*;/i },
  ],
  cleanName: (name) => name.trim().replace(/^"(.*)"$/, "$1"),
  keywords: new Set(["if", "loop", "case", "generate", "block", "for", "while", "others"]),
  doc: { above: ["--"] },
};

export const extractor = lineScanner(rules);
