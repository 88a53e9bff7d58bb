/**
 * Tcl (`.tcl`, `.tm`), our own scanner: `proc` → function; `namespace eval ns { }` → class (the
 * procs inside qualified by it); TclOO and [incr Tcl] classes (`oo::class create C`,
 * `itcl::class C`) → class with their `method`s, `constructor`s and `destructor`s → method.
 * A command ends at a newline or `;` outside braces and brackets, so a `proc`'s range is its whole
 * body. A `#` starts a comment only where a command starts. Comment lines directly above a
 * definition are its docstring. `package require x` and `source file.tcl` are imports; calls are
 * `[cmd ...]` and a command at the start of a line. Not understood: procs created by other
 * commands (`interp alias`, `snit::type`), `uplevel`/`eval` code.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

const _WORD = String.raw`(?<name>[^\s{}\[\];"]+)`;

export const rules: ScanRules = {
  comments: { line: ["#"], lineAfter: /(?:^|[;{])\s*$/, strings: ['"'], multiline: true },
  continuation: "\\",
  definitions: [
    {
      match: new RegExp(String.raw`namespace\s+eval\s+${_WORD}\s*\{`),
      kind: "class",
      tag: "namespace",
      end: "command",
    },
    {
      match: new RegExp(
        String.raw`(?:(?:::)?oo::class\s+create|(?:::)?itcl::class|class)\s+${_WORD}\s*\{`,
      ),
      kind: "class",
      tag: "class",
      end: "command",
    },
    {
      match: new RegExp(
        String
          .raw`(?:(?:public|private|protected)\s+)?(?:method\s+${_WORD}|(?<name>constructor|destructor)\b)`,
      ),
      kind: "function",
      end: "command",
      within: ["class"],
    },
    {
      match: new RegExp(
        String
          .raw`(?:::)?oo::define\s+\S+\s+(?:method\s+${_WORD}|(?<name>constructor|destructor)\b)`,
      ),
      kind: "function",
      end: "command",
    },
    { match: new RegExp(String.raw`(?:::)?proc\s+${_WORD}`), kind: "function", end: "command" },
  ],
  imports: [
    { match: /package\s+require\s+(?:-exact\s+)?(?<source>[\w:.-]+)/ },
    { match: /source\s+(?<source>[^\s;[\]$][^\s;\]]*)/ },
  ],
  calls: [/(?:^|\[|;)[ \t]*(?<name>[A-Za-z_][\w:]*)/gm],
  notCalls: new Set(
    "proc namespace set if else elseif for foreach while return expr puts package source variable global upvar incr append lappend list lindex llength string dict array switch catch try error uplevel eval after break continue info unset format regexp regsub split join file open close gets read lsort lsearch concat subst apply oo::class oo::define method constructor destructor then"
      .split(" "),
  ),
  // `proc ::app::util::log` is `log` (ctags names it so too); its namespace is not a symbol here.
  cleanName: (name) => name.trim().replace(/^.*::/, ""),
  doc: { above: ["#"] },
};

export const extractor = lineScanner(rules);
