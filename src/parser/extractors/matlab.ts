/**
 * MATLAB and Octave (`.m` files that start with a `%` or `# ` comment, `function` or `classdef`;
 * other `.m` files are Objective-C), our own scanner: `classdef` → class; `function`s → function
 * (methods inside a `methods` block, property accessors `get.X` named as written); the names of a
 * `properties` block → field, of an `enumeration` block → constant, of `events` → field. A file
 * whose functions are closed by `end` (as many `end`s as blocks) is read so; otherwise each
 * function reaches up to the next one. The `%` lines right below a function's first line (its
 * help text) or directly above it are its docstring. Calls are `name(` in code. Not understood:
 * command syntax (`hold on`), nested functions in a file without `end`s, scripts' variables.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

const _FUNCTION = /function\s+(?:(?:\[[^\]]*\]|[\w.]+)\s*=\s*)?(?<name>[\w.]+)/;
const _BLOCKS =
  /^[ \t]*(?:if|for|parfor|while|switch|try|spmd|unwind_protect|function|classdef|properties|methods|events|enumeration)\b/gm;
/** `end`, and Octave's `endfunction`, `endif`, `end_try_catch`... */
const _END = String
  .raw`end(?:function|if|for|parfor|while|switch|_try_catch|_unwind_protect|classdef|methods|properties|events|enumeration|spmd)?\b`;
const _ENDS = new RegExp(String.raw`^[ \t]*${_END}[ \t]*(?:[;,#%]|$)`, "gm");

const _base: ScanRules = {
  comments: {
    line: ["%", "#"],
    block: [["%{", "%}"], ["#{", "#}"]],
    strings: ['"', "'"],
    transpose: true,
  },
  continuation: "...",
  definitions: [
    {
      match: /classdef\s*(?:\([^)]*\)\s*)?(?<name>\w+)/,
      kind: "class",
      tag: "classdef",
      end: { keyword: true },
    },
    {
      match: /(?<what>properties|methods|events|enumeration)\b/,
      kind: "class",
      tag: (m) => m.groups!.what!,
      container: true,
      end: { keyword: true },
      within: ["classdef"],
    },
    { match: _FUNCTION, kind: "function", tag: "function", end: { keyword: true } },
    {
      match: /(?<name>\w+)\b/,
      kind: (_m, parent) => (parent?.tag === "enumeration" ? "constant" : "field"),
      end: "line",
      within: ["properties", "events", "enumeration"],
    },
  ],
  openers: [/(?:if|for|parfor|while|switch|try|spmd|unwind_protect)\b/, /do\s*$/],
  closers: [{ match: new RegExp(_END) }, { match: /until\b/ }],
  calls: [/(?<![\w.])(?:(?<receiver>[A-Za-z_]\w*)\.)?(?<name>[A-Za-z_]\w*)\(/g],
  notCalls: new Set([
    "if",
    "elseif",
    "while",
    "for",
    "switch",
    "function",
    "size",
    "zeros",
    "ones",
    "numel",
    "length",
    "isempty",
    "error",
    "disp",
    "fprintf",
    "sprintf",
  ]),
  keywords: new Set(["end", "function"]),
  doc: { below: ["%", "##", "#"], above: ["%", "##", "#"] },
};

/** Functions without `end`: each reaches up to the next one (at level 1). */
const _noEnd: ScanRules = {
  ..._base,
  definitions: _base.definitions.map((d) =>
    d.tag === "function" ? { ...d, end: "next" as const, level: 1, within: [null, "function"] } : d
  ),
};

export const rules: ScanRules = {
  ..._base,
  variant: (blanked) =>
    (blanked.match(_ENDS)?.length ?? 0) >= (blanked.match(_BLOCKS)?.length ?? 0)
      ? undefined
      : _noEnd,
};

export const extractor = lineScanner(rules);
