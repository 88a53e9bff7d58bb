/**
 * Ada (`.ads` specs, `.adb` bodies), our own scanner: packages, package bodies, tasks and
 * protected objects (specs, bodies, `type`s of them) → class; procedures and functions (specs and
 * bodies, operators named `"+"`) → function, `entry` → function; types and subtypes → type, a
 * record's components → field, an enumeration's literals → constant; `X : constant T := ...` →
 * constant, other declarations at package level → variable, `exception`s → constant. Bodies close
 * with `end Name;` (a bare `end;` of a subprogram is not matched to it: the next named `end`
 * closes it). Comment lines directly above a definition (`--`) are its docstring. `with A.B;` is an
 * import. Not understood: generic formal parameters, `separate` subunits' parent, locals, calls.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

const _NAME = String.raw`(?<name>[A-Za-z]\w*(?:\.[A-Za-z]\w*)*|"[^"]*")`;
/** Where a declaration of a unit, subprogram or type ends: `;` unless its body keyword comes first. */
const _DECLARED = {
  keyword: true,
  body: /is\b(?!\s*(?:(?:new|separate|abstract|null)\b|<>|\())/i,
  terminator: ";",
} as const;

export const rules: ScanRules = {
  comments: { line: ["--"], strings: ['"'], escape: "double", charLiterals: true },
  definitions: [
    {
      match: new RegExp(String.raw`(?:private\s+)?package\s+(?:body\s+)?${_NAME}`, "i"),
      kind: "class",
      tag: "package",
      end: _DECLARED,
    },
    {
      match: new RegExp(String.raw`(?:task|protected)\s+(?:body\s+|type\s+)?${_NAME}`, "i"),
      kind: "class",
      tag: "package",
      end: { keyword: true, body: /is\b(?!\s*new\b)/i, terminator: ";" },
    },
    {
      match: new RegExp(
        String.raw`(?:overriding\s+|not\s+overriding\s+)?(?:procedure|function)\s+${_NAME}`,
        "i",
      ),
      kind: "function",
      tag: "subprogram",
      end: _DECLARED,
    },
    {
      match: new RegExp(String.raw`entry\s+${_NAME}`, "i"),
      kind: "function",
      tag: "subprogram",
      end: _DECLARED,
      within: ["package"],
    },
    {
      match: new RegExp(String.raw`type\s+${_NAME}[^;]*?\bis\b\s*`, "i"),
      kind: "type",
      tag: "record",
      end: { keyword: true, body: /(?<!null\s+)record\b/i, terminator: ";" },
      members: "constant",
    },
    {
      match: new RegExp(String.raw`(?:sub)?type\s+${_NAME}`, "i"),
      kind: "type",
      end: { terminator: ";" },
    },
    {
      match:
        /(?<names>[A-Za-z]\w*(?:\s*,\s*[A-Za-z]\w*)*)\s*:(?!=)\s*(?:aliased\s+)?(?<rest>constant|exception)?/i,
      kind: (m) => (m.groups?.rest !== undefined ? "constant" : "variable"),
      end: { terminator: ";" },
      within: ["package"],
    },
    {
      match: /(?<names>[A-Za-z]\w*(?:\s*,\s*[A-Za-z]\w*)*)\s*:(?!=)/i,
      kind: "field",
      end: { terminator: ";" },
      within: ["record"],
    },
  ],
  closers: [
    { match: /end\s+record\b/i, tags: {} },
    { match: new RegExp(String.raw`end\s+${_NAME}\s*;`, "i") },
  ],
  imports: [{
    match: /(?:limited\s+)?(?:private\s+)?with\s+(?<sources>[\w.]+(?:\s*,\s*[\w.]+)*)\s*;/i,
  }],
  cleanName: (name) => name.trim().replace(/^"(.*)"$/, "$1"),
  keywords: new Set([
    "if",
    "loop",
    "case",
    "select",
    "record",
    "return",
    "begin",
    "declare",
    "when",
    "others",
  ]),
  doc: { above: ["--"] },
};

export const extractor = lineScanner(rules);
