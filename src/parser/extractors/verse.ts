/**
 * Verse (`.verse`, Epic's language for Unreal Editor for Fortnite), our own scanner: `name :=
 * class(...)` / `struct` / `interface` / `enum` / `module` → class (structs, interfaces and
 * enums → type), with what is indented below them as members; functions (`Name(params)<spec>:
 * type =`, and `Name<spec>(params):type` declarations) → function, methods inside a class;
 * `var Name : type = value` → variable; other `Name<spec>? : type = value` bindings → constant
 * at module level, field inside a class. Comments are `#` and `<# #>`; comment lines directly
 * above a definition are its docstring. `using { /Path }` is an import. Not understood: bracketed
 * (`{ }`) bodies of one line, effects in calls, locals (not symbols), calls.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

const _NAME = String.raw`(?<name>[A-Za-z_]\w*)(?:<[\w<>]+>)*`;

export const rules: ScanRules = {
  comments: { line: ["#"], block: [["<#", "#>"]], strings: ['"'] },
  definitions: [
    {
      match: new RegExp(String.raw`${_NAME}\s*:=\s*(?<what>class|struct|interface|enum|module)\b`),
      kind: (m) => (m.groups?.what === "class" || m.groups?.what === "module" ? "class" : "type"),
      tag: (m) => m.groups!.what!,
      end: "indent",
    },
    {
      match: new RegExp(
        String.raw`${_NAME}\s*\((?:[^()]|\([^()]*\))*\)(?:<[\w<>]+>)*\s*(?::\s*[^=]+?)?\s*(?:=|$)`,
      ),
      kind: "function",
      end: "indent",
      within: [null, "module", "class", "struct", "interface"],
    },
    {
      match: new RegExp(String.raw`var(?:<[\w<>]+>)*\s+${_NAME}\s*:`),
      kind: "variable",
      end: "indent",
      within: [null, "module", "class", "struct", "interface"],
    },
    {
      match: new RegExp(String.raw`${_NAME}\s*:\s*[^=]+=`),
      kind: (_m, parent) =>
        parent === undefined || parent.tag === "module"
          ? "constant"
          : parent.tag === "enum"
          ? undefined
          : "field",
      end: "indent",
      within: [null, "module", "class", "struct", "interface"],
    },
    { match: /(?<name>[A-Za-z_]\w*)\s*$/, kind: "constant", end: "line", within: ["enum"] },
  ],
  imports: [{ match: /using\s*\{\s*(?<source>[^}]+?)\s*\}/ }],
  keywords: new Set([
    "if",
    "for",
    "loop",
    "block",
    "case",
    "return",
    "set",
    "else",
    "then",
    "do",
    "var",
    "using",
  ]),
  doc: { above: ["#"] },
};

export const extractor = lineScanner(rules);
