/**
 * COBOL (`.cbl`, `.cob`, `.cpy` copybooks), fixed form (columns 1-6 a sequence area, column 7 an
 * indicator, `*` or `/` a comment line, text past column 72 ignored) or free form (`>>SOURCE
 * FORMAT FREE`, or text in those columns), our own scanner: programs (`PROGRAM-ID`, and
 * `FUNCTION-ID`, `CLASS-ID`) → class, up to `END PROGRAM name.` or the end of the file; in the
 * procedure division, sections → function (a method of their program) and paragraphs → function
 * (inside their section), each up to the next of its level, names starting in area A (columns
 * 8-11); in the data division, file descriptions (`FD`, `SD`, `RD`) and level-01, 66 and 77 items
 * → variable, their subordinate items (02-49) → field, level-78 constants and level-88 condition
 * names → constant, nested by level number. Divisions and the standard sections
 * (`WORKING-STORAGE`, `FILE`, `LINKAGE`...) are containers, not symbols. `COPY name` and
 * `EXEC SQL INCLUDE name` are imports (resolved to the copybook of that name); `PERFORM p`,
 * `PERFORM p THRU q` and `GO TO p` are calls. Comment lines directly above a definition (`*`,
 * `*>`, in a file without sequence numbers) are its docstring. Not understood: `REPLACE` and
 * `COPY ... REPLACING` (the copybook's names as written), `CALL "program"` (a literal), items
 * without a name (`FILLER`, `05 PIC X.`: no symbol), nested programs without `END PROGRAM`.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

const _NAME = String.raw`[A-Za-z0-9][\w-]*`;

/** Column 7 of a fixed-form line: blank, a comment (`*`, `/`), continuation or debugging line. */
const _INDICATOR = /^.{6}[ *\/\-dD$]/;

/** Fixed form unless the file says `>>SOURCE FORMAT FREE` or over a tenth of its lines do not fit. */
function _fixedForm(text: string): boolean {
  if (/^\s*>>\s*SOURCE\s+(?:FORMAT\s+)?(?:IS\s+)?FREE\b/im.test(text)) return false;
  let lines = 0;
  let free = 0;
  for (const line of text.split("\n", 5000)) {
    const raw = line.replace(/\r$/, "");
    if (raw.trim() === "" || raw.trimStart().startsWith("*>")) continue;
    lines++;
    if (raw.length > 6 && !_INDICATOR.test(raw)) free++;
  }
  return free * 10 <= lines;
}

/** Area A: a fixed-form line's columns 8-11 (0-based 7-10); a free-form line's first columns. */
const _AREA_A = 10;

/** The sections of the environment and data divisions: fixed names, containers here. */
const _STANDARD_SECTIONS =
  /(?<name>CONFIGURATION|INPUT-OUTPUT|FILE|WORKING-STORAGE|LOCAL-STORAGE|LINKAGE|SCREEN|REPORT|COMMUNICATION)\s+SECTION\b/i;

const _PROCEDURE = ["procedure", "section", "paragraph"] as const;

function _itemLevel(m: RegExpMatchArray): number {
  const n = Number(m.groups!.level);
  if (n === 88) return 60;
  return n >= 66 ? 11 : 10 + n;
}

export const rules: ScanRules = {
  comments: {
    line: ["*>"],
    strings: ['"', "'"],
    escape: "double",
    fixed: {
      files: /\.(?:cbl|cob|cpy|cobol)$/i,
      detect: _fixedForm,
      sequence: 6,
      comment: /^.{6}[*\/]/,
      lastColumn: 72,
    },
  },
  definitions: [
    {
      match: new RegExp(
        String.raw`(?:PROGRAM-ID|FUNCTION-ID|CLASS-ID)\s*\.\s*(?<name>${_NAME}|"[^"]*"|'[^']*')`,
        "i",
      ),
      kind: "class",
      tag: "program",
      end: { keyword: true },
    },
    {
      match: /(?<name>ENVIRONMENT|DATA|PROCEDURE)\s+DIVISION\b/i,
      kind: "class",
      container: true,
      tag: (m) => m.groups!.name!.toLowerCase() === "procedure" ? "procedure" : "division",
      end: "next",
      level: 1,
    },
    {
      match: _STANDARD_SECTIONS,
      kind: "class",
      container: true,
      tag: "data-section",
      end: "next",
      level: 2,
      maxIndent: _AREA_A,
    },
    {
      match: new RegExp(String.raw`(?<name>${_NAME})\s+SECTION\b`, "i"),
      kind: "function",
      tag: "section",
      end: "next",
      level: 2,
      within: _PROCEDURE,
      maxIndent: _AREA_A,
    },
    {
      match: new RegExp(String.raw`(?<name>${_NAME})\s*\.(?=\s|$)`, "i"),
      kind: "function",
      tag: "paragraph",
      end: "next",
      level: 3,
      within: _PROCEDURE,
      maxIndent: _AREA_A,
    },
    {
      match: new RegExp(String.raw`(?:FD|SD|RD)\s+(?<name>${_NAME})`, "i"),
      kind: "variable",
      tag: "fd",
      end: "next",
      level: 10,
      notWithin: _PROCEDURE,
    },
    {
      match: new RegExp(
        String.raw`(?<level>0?[1-9]|[1-4]\d|66|77|78|88)\s+(?<name>${_NAME})(?=[\s.]|$)`,
        "i",
      ),
      kind: (m, parent) => {
        const level = Number(m.groups!.level);
        if (level === 78 || level === 88) return "constant";
        // A subordinate item (its parent an item of a lower level number) is a field of it.
        const under = parent?.tag === "item" && parent.level < _itemLevel(m);
        return level < 50 && under ? "field" : "variable";
      },
      tag: "item",
      end: "next",
      level: _itemLevel,
      notWithin: _PROCEDURE,
    },
  ],
  closers: [
    {
      match: new RegExp(
        String.raw`END\s+(?<what>PROGRAM|FUNCTION|CLASS)\s+(?<name>${_NAME}|"[^"]*"|'[^']*')`,
        "i",
      ),
      tags: { function: ["program"], class: ["program"] },
    },
  ],
  imports: [
    { match: new RegExp(String.raw`COPY\s+(?<source>${_NAME}|"[^"]+"|'[^']+')`, "i") },
    { match: new RegExp(String.raw`EXEC\s+SQL\s+INCLUDE\s+(?<source>${_NAME})`, "i") },
  ],
  calls: [
    // (Not the `PERFORM` of `END-PERFORM`.)
    /(?<![\w-])PERFORM\s+(?<name>[\w-]*[A-Za-z][\w-]*)/gi,
    /(?<![\w-])(?:GO\s+TO|THRU|THROUGH)\s+(?<name>[\w-]*[A-Za-z][\w-]*)/gi,
  ],
  notCalls: new Set([
    "until",
    "varying",
    "with",
    "test",
    "forever",
    "times",
    "depending",
  ]),
  cleanName: (name) => name.trim().replace(/^["'](.*)["']$/, "$1"),
  keywords: new Set([
    "filler",
    "pic",
    "picture",
    "value",
    "values",
    "redefines",
    "occurs",
    "usage",
    "exit",
    "goback",
    "continue",
    "declaratives",
    "else",
    "end",
    "stop",
    "eject",
    ...[
      "if",
      "perform",
      "evaluate",
      "read",
      "write",
      "call",
      "compute",
      "search",
      "string",
      "unstring",
      "return",
      "rewrite",
      "start",
      "delete",
      "add",
      "subtract",
      "multiply",
      "divide",
      "accept",
      "display",
      "exec",
    ].map((s) => `end-${s}`),
  ]),
  doc: { above: ["*>", "*"] },
};

export const extractor = lineScanner(rules);
