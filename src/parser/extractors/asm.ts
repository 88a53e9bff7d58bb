/**
 * Assembly (`.asm`, `.s`, `.S`, `.nasm`: GNU as, NASM/YASM and MASM syntax), our own scanner:
 * labels (`name:`), Go assembler `TEXT name(SB)` lines and the preprocessor macros glibc and
 * Linux define functions with (`ENTRY (memchr)`, `SYM_FUNC_START(memcpy)`) → function, reaching up
 * to the next label (a local `.name:` or `.Lname:` label is one of the label above it); macros
 * (`.macro`, `%macro`, MASM's `name macro`; not the option `.set macro`) → template; MASM
 * `name proc` → function up to its `endp`; `.equ`/`.set`, `equ`, `%define`, `%assign` and
 * `#define` → constant; `struc`/`struct` → type. Comments are `;`, `#` at a line's start (GNU as
 * on x86, and the preprocessor's lines), `//`, block comments and `@` (ARM) at a line's start.
 * Comment lines directly above a label are its docstring. `.include`/`%include`/`include` and
 * `#include` are imports; `call`/`jmp`/`bl` targets are calls. Compiler-numbered and numeric
 * labels (`.L1:`, `.LC0:`, `1:`) are not symbols. Not understood: `;` as GNU as's statement
 * separator (read as NASM's comment: a macro line `addq $16, reg; \` does not continue), glibc's
 * `L(name):` local labels, what `weak_alias (f, g)` and `.set` aliases define.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

/**
 * A label name. GNU as's `.L` prefix makes a label local to the object file: hand-written ones
 * (`.Lloop:`, `.Laligned_m1:`) are local labels of the function above; the ones compilers number
 * (gcc's `.L2:`, `.LC0:`, `.LFB3:`, clang's `.LBB0_2:`, `.Ltmp0:`, `.Lfunc_end0:`) are not symbols.
 */
const _LABEL = String
  .raw`(?<name>(?!\.L(?:[A-Z]*\d+(?:_\d+)?|tmp\d+|func_(?:begin|end)\d+|text\d*|etext\d*|debug_\w+|cfi\d+|exception\d+)\b)[A-Za-z_.$?@][\w.$?@]*)`;

/**
 * The C-preprocessor macros of glibc, the Linux kernel and MIPS/BSD headers that define a
 * function (`ENTRY (memchr)`, `SYM_FUNC_START(memcpy)`, `LEAF(f, n)`, a system call stub's
 * `PSEUDO (name, syscall, args)`), written at a line's start; their first argument is its name.
 */
export const DEFINING_MACROS =
  /(?:ENTRY\w*|EALIGN|LEAF|NESTED|PSEUDO|SYM_(?:FUNC|CODE|TYPED_FUNC)_START\w*|SYM_INNER_LABEL\w*)\s*\(\s*(?<name>[A-Za-z_.$][\w.$]*)/;

const _PREPROCESSOR = /\s*(?:define|undef|include|if|ifdef|ifndef|elif|else|endif)\b/;

export const rules: ScanRules = {
  comments: {
    // `#` and `@` only where a line starts (`#` is an immediate in ARM, `@` a symbol type in GNU as).
    // A preprocessor line of a `.S` file (`#define`, `#include`) is code.
    line: [";", "//", { marker: "#", after: /^\s*$/, unless: _PREPROCESSOR }, {
      marker: "@",
      after: /^\s*$/,
    }],
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
      match: /(?<name>[A-Za-z_$?@][\w.$?@]*)\s+macro\b/i,
      kind: "template",
      tag: "macro",
      end: { keyword: true },
      level: 1,
    },
    {
      match: /(?<name>[A-Za-z_$?@][\w.$?@]*)\s+proc\b/i,
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
      match: DEFINING_MACROS,
      kind: "function",
      tag: "label",
      end: "next",
      level: 1,
      within: [null, "proc", "label", "local"],
    },
    {
      match: /(?:struc|\.struct)\s+(?<name>[A-Za-z_.$?@][\w.$?@]*)/i,
      kind: "type",
      tag: "struc",
      end: { keyword: true },
      level: 1,
    },
    {
      // MASM's `POINT STRUCT [alignment]`, alone on its line (not C's `typedef struct {` in a
      // preprocessor branch of a `.S` file).
      match: /(?!typedef\b)(?<name>[A-Za-z_$?@][\w.$?@]*)\s+(?:struc|struct)(?:\s+\d+)?\s*$/im,
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
  // A preprocessor macro's body continues on the next line after a `\` (NASM's `%define` too).
  continuation: "\\",
  calls: [/\b(?:call|jmp|bl|blx|jal|b)\s+(?<name>[A-Za-z_.$?@][\w.$?@]*)/gi],
  keywords: new Set(["section", "segment", "global", "extern", "bits", "org"]),
  doc: { above: [";", "//", "#", "@"] },
};

export const extractor = lineScanner(rules);
