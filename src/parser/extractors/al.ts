/**
 * AL (`.al`, Microsoft Dynamics 365 Business Central), our own scanner: objects (`table`,
 * `tableextension`, `page`, `pageextension`, `codeunit`, `report`, `query`, `xmlport`, `enum`,
 * `enumextension`, `interface`, `permissionset`, `profile`, `controladdin`, `entitlement`) →
 * class named as written (quotes dropped: `table 50100 "Customer Ext"` is `Customer Ext`);
 * `procedure`s and `trigger`s → method of their object; a table's `field(1; Name; Type)` →
 * field, an enum's `value(0; Name)` → constant; `var` sections' globals → variable. A procedure
 * reaches up to the `end;` closing its `begin` (nested `begin ... end` and `case ... end`
 * counted). Comment lines directly above a definition (`//`, `///` XML docs) are its docstring.
 * Not understood: page layout controls and actions (not symbols), `#if` preprocessor branches,
 * calls.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

const _NAME = String.raw`(?<name>"[^"]+"|[A-Za-z_]\w*)`;
const _OBJECTS =
  "tableextension|table|pageextension|pagecustomization|page|codeunit|reportextension|report|query|xmlport|enumextension|enum|interface|permissionsetextension|permissionset|profile|controladdin|entitlement|dotnet";

export const rules: ScanRules = {
  // AL strings are '...'; "..." is a quoted identifier, kept as code.
  comments: { line: ["//"], block: [["/*", "*/"]], strings: ["'"], escape: "double" },
  definitions: [
    {
      match: new RegExp(String.raw`(?:${_OBJECTS})\s+(?:\d+\s+)?${_NAME}`, "i"),
      kind: "class",
      tag: "object",
      end: { brace: true },
      within: [null],
    },
    {
      match: new RegExp(
        String.raw`(?:(?:local|internal|protected)\s+)?(?:procedure|trigger)\s+${_NAME}\s*\(`,
        "i",
      ),
      kind: "function",
      tag: "procedure",
      end: { keyword: true, body: /(?:begin|var)\b/i, terminator: ";" },
      level: 5,
    },
    {
      match: new RegExp(String.raw`field\s*\(\s*\d+\s*;\s*${_NAME}\s*;`, "i"),
      kind: "field",
      end: "line",
    },
    {
      match: new RegExp(String.raw`value\s*\(\s*\d+\s*;\s*${_NAME}\s*\)`, "i"),
      kind: "constant",
      end: "line",
    },
    {
      match: /var\s*$/i,
      kind: "variable",
      tag: "var",
      container: true,
      end: "next",
      level: 5,
      within: ["object"],
    },
    {
      match: new RegExp(
        String.raw`(?<names>${_NAME.replace("(?<name>", "(?:")}(?:\s*,\s*${
          _NAME.replace("(?<name>", "(?:")
        })*)\s*:`,
        "i",
      ),
      kind: "variable",
      end: { terminator: ";" },
      within: ["var"],
    },
  ],
  // A procedure's body: its `begin` up to the matching `end;` (`begin`/`case` open, `end` closes).
  openers: [/(?:.*\bthen\s+|.*\belse\s+|.*\bdo\s+)?begin\b(?!.*\bend\b)/i, /case\b.*\bof\s*$/i],
  closers: [{ match: /end\b\s*[;.]?/i }],
  cleanName: (name) => name.trim().replace(/^"(.*)"$/, "$1"),
  keywords: new Set(["if", "begin", "end", "var", "case", "repeat", "while"]),
  doc: { above: ["///", "//"] },
};

export const extractor = lineScanner(rules);
