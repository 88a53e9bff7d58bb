/**
 * Razor views and components (`.cshtml`, `.razor`), our own scanner: the C# of `@code { }` and
 * `@functions { }` blocks — methods → function (method inside a nested class), properties and `@inject`ed services → property, fields → field, nested classes,
 * records, structs, interfaces and enums → class or type; `@section Name { }` and `@helper
 * Name(...)` → function; `@page "/route"` → constant named by its route. Comment lines directly
 * above a member (`//`, `///`) are its docstring. `@using X`, `@model X` and `@inherits X` are
 * imports; `Name(` inside code is a call. Not understood: the HTML (not symbols), C# statements
 * inside markup (`@if`, `@foreach`), lambdas and local functions.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

const _MODIFIERS = String
  .raw`(?:(?:public|private|protected|internal|static|readonly|async|virtual|override|abstract|sealed|new|partial|required|const|volatile|extern|unsafe)\s+)*`;
const _TYPE = String.raw`[\w.]+(?:<[^<>()]*(?:<[^<>()]*>[^<>()]*)*>)?(?:\[\])*\??`;
const _CODE = ["code", "class", "type"];

export const rules: ScanRules = {
  comments: {
    line: ["//"],
    block: [["@*", "*@"], ["/*", "*/"], ["<!--", "-->"]],
    strings: ['"'],
    charLiterals: true,
  },
  definitions: [
    {
      match: /@(?:code|functions)\b/,
      kind: "class",
      tag: "code",
      container: true,
      end: { brace: true },
    },
    { match: /@section\s+(?<name>\w+)/, kind: "function", end: { brace: true } },
    { match: /@helper\s+(?<name>\w+)\s*\(/, kind: "function", end: { brace: true } },
    { match: /@page\s+(?<name>"[^"]*")/, kind: "constant", end: "line" },
    {
      match: new RegExp(String.raw`@inject\s+${_TYPE}\s+(?<name>\w+)`),
      kind: "property",
      end: "line",
    },
    {
      match: new RegExp(
        String.raw`${_MODIFIERS}(?<what>class|record|struct|interface|enum)\s+(?<name>\w+)`,
      ),
      kind: (m) => (m.groups?.what === "class" || m.groups?.what === "record" ? "class" : "type"),
      tag: (m) => (m.groups?.what === "class" || m.groups?.what === "record" ? "class" : "type"),
      end: { brace: true, terminator: ";" },
      within: _CODE,
    },
    {
      match: new RegExp(
        String.raw`(?:\[[^\]]*\]\s*)*${_MODIFIERS}${_TYPE}\s+(?<name>\w+)\s*(?:<[^>]*>)?\s*\(`,
      ),
      kind: "function",
      tag: "method",
      end: { brace: true, terminator: ";" },
      within: _CODE,
    },
    {
      match: new RegExp(
        String.raw`(?:\[[^\]]*\]\s*)*${_MODIFIERS}${_TYPE}\s+(?<name>\w+)\s*(?=\{|=>)`,
      ),
      kind: "property",
      end: { brace: true, terminator: ";" },
      within: _CODE,
    },
    {
      match: new RegExp(
        String.raw`(?:\[[^\]]*\]\s*)*${_MODIFIERS}${_TYPE}\s+(?<name>\w+)\s*(?=[=;])`,
      ),
      kind: "field",
      end: { terminator: ";" },
      within: _CODE,
    },
  ],
  imports: [{ match: /@(?:using|model|inherits)\s+(?<source>[\w.]+)/ }],
  calls: [/(?<![\w.@])(?:(?<receiver>[A-Za-z_]\w*)\.)?(?<name>[A-Za-z_]\w*)\s*\(/g],
  notCalls: new Set([
    "if",
    "for",
    "foreach",
    "while",
    "switch",
    "using",
    "catch",
    "return",
    "nameof",
    "typeof",
    "sizeof",
    "lock",
    "new",
  ]),
  keywords: new Set(["return", "if", "else", "await", "var", "new", "throw"]),
  cleanName: (name) => name.trim().replace(/^"(.*)"$/, "$1"),
  doc: { above: ["///", "//"] },
};

export const extractor = lineScanner(rules);
