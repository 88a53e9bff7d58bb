/**
 * Assembly (`.asm`, `.s`, `.S`, `.nasm`: GNU as, NASM/YASM and MASM syntax), our own scanner:
 * labels (`name:`) and Go assembler `TEXT name(SB)` lines → function, reaching up to the next label (a local `.name:` label is one
 * of the label above it); macros (`.macro`, `%macro`, MASM's
 * `name macro`) → template; MASM `name proc` → function up to its `endp`; `.equ`/`.set`, `equ`,
 * `%define`, `%assign` and `#define` → constant; `struc`/`struct` → type. Comments are `;`, `#` at
 * a line's start (GNU as on x86, and the preprocessor's lines), `//`, block comments and `@` (ARM) at a
 * line's start. Comment lines directly above a label are its docstring. `.include`/`%include`/
 * `include` and `#include` are imports; `call`/`jmp`/`bl` targets are calls. Compiler-made and numeric
 * labels (`.L1:`, `1:`) are not symbols.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

const _LABEL = String.raw`(?<name>(?!\.L)[A-Za-z_.$?@][\w.$?@]*)`;

export const rules: ScanRules = {
  comments: {
    // `#` and `@` only where a line starts (`#` is an immediate in ARM, `@` a symbol type in GNU as).
    line: [";", "//", { marker: "#", after: /^\s*$/ }, { marker: "@", after: /^\s*$/ }],
    block: [["/*", "*/"]],
    strings: ['"', "'"],
  },
  definitions: [
    {
      match: /(?:\.macro|%i?macro)\s+(?<name>[\w.$?@]+)/i,
      kind: "template",
      tag: "macro",
      end: { keyword: true },
      level: 1,
    },
    {
      match: /(?<name>[A-Za-z_.$?@][\w.$?@]*)\s+macro\b/i,
      kind: "template",
      tag: "macro",
      end: { keyword: true },
      level: 1,
    },
    {
      match: /(?<name>[A-Za-z_.$?@][\w.$?@]*)\s+proc\b/i,
      kind: "function",
      tag: "proc",
      end: { keyword: true },
      level: 1,
    },
    // Go's (Plan 9) assembler: `TEXT ·memmove(SB), NOSPLIT, $0-24` defines a function.
    {
      match: /TEXT\s+(?:[\w./]*\u00b7)?(?<name>[\w.]+)(?:<[^>]*>)?\(SB\)/,
      kind: "function",
      tag: "label",
      end: "next",
      level: 1,
    },
    {
      match: /(?:struc|\.struct)\s+(?<name>[\w.$?@]+)/i,
      kind: "type",
      tag: "struc",
      end: { keyword: true },
      level: 1,
    },
    {
      match: /(?<name>[A-Za-z_.$?@][\w.$?@]*)\s+(?:struc|struct)\b/i,
      kind: "type",
      tag: "struc",
      end: { keyword: true },
      level: 1,
    },
    { match: /\.(?:equ|set|equiv)\s+(?<name>[\w.$?@]+)\s*,/i, kind: "constant", end: "line" },
    {
      match: /(?:%x?define|%assign|#\s*define)\s+(?<name>[\w.$?@]+)/i,
      kind: "constant",
      end: "line",
    },
    { match: /(?<name>[A-Za-z_.$?@][\w.$?@]*):?\s+(?:equ|=)\s/i, kind: "constant", end: "line" },
    {
      match: /(?<name>[A-Za-z_$?@][\w.$?@]*):(?!:)/,
      kind: "function",
      tag: "label",
      end: "next",
      level: 1,
      within: [null, "proc", "label", "local"],
    },
    {
      // A local label (NASM's `.loop:` after `print:`) belongs to the label above it.
      match: new RegExp(String.raw`(?=\.)${_LABEL}:(?!:)`),
      kind: "function",
      tag: "local",
      end: "next",
      level: 2,
      within: [null, "proc", "label", "local"],
    },
  ],
  closers: [
    { match: /(?:\.endm|%endmacro|endm)\b/i },
    { match: /(?:[\w.$?@]+\s+)?endp\b/i },
    { match: /(?:endstruc|\.ends|[\w.$?@]+\s+ends)\b/i },
  ],
  imports: [
    {
      match: /(?:\.include|%include|include|#\s*include)\s+(?<source>"[^"]+"|<[^>]+>|'[^']+'|\S+)/i,
    },
  ],
  calls: [/\b(?:call|jmp|bl|blx|jal|b)\s+(?<name>[A-Za-z_.$?@][\w.$?@]*)/gi],
  keywords: new Set(["section", "segment", "global", "extern", "bits", "org"]),
  doc: { above: [";", "//", "#", "@"] },
};

export const extractor = lineScanner(rules);
