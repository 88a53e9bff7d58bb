/**
 * SCSS (`.scss`), our own scanner: not a language entry of its own but the `errorScanner` of the
 * SCSS grammar spec (`languages/scss.ts`), run over the regions tree-sitter-scss cannot parse (a
 * nested selector list starting with a combinator, `-$x`, `@if $a or $b` with hyphenated
 * variable names): it reads what the grammar's queries read, with the same kinds, so the symbols
 * of a region the grammar lost and of one it parsed look alike. Rule sets → class named by their
 * selector list (spaces squeezed; `%placeholder`s too), nested ones inside their parent;
 * `@mixin` and `@function` → function; top-level `$variables` and custom properties (`--x`) →
 * constant; `@keyframes` → type; `@media`, `@if`, `@each`, `@include x { }` and the other at-rules
 * only scope what is inside them. Comment lines directly above a definition (`//`) are its
 * docstring. `@import`, `@use` and `@forward` are imports; `@include name` is a call.
 * Interpolations (`#{$i}`) are blanked like comments, so their braces open no block and a selector
 * holding one is named as written (`.col-#{$i}`). Not understood: nested properties
 * (`font: { family: x; }`, read as no symbol), a `{` inside an interpolation.
 */
import type { ScanRules } from "./line_scan.ts";
import { lineScanner } from "./line_scan.ts";

/** Keyframe selectors: `0%`, `12.5%, 50%`, `from`, `to`. */
const _FRAME = String.raw`(?:\d+(?:\.\d+)?%|from|to)`;
const _FRAMES = String.raw`${_FRAME}(?:\s*,\s*${_FRAME})*`;

export const rules: ScanRules = {
  comments: { line: ["//"], block: [["/*", "*/"], ["#{", "}"]], strings: ['"', "'"] },
  definitions: [
    { match: /@mixin\s+(?<name>[\p{L}\p{N}_-]+)/u, kind: "function", end: { brace: true } },
    { match: /@function\s+(?<name>[\p{L}\p{N}_-]+)/u, kind: "function", end: { brace: true } },
    {
      match: /@(?:-\w+-)?keyframes\s+(?<name>[\p{L}\p{N}_-]+)/u,
      kind: "type",
      tag: "keyframes",
      end: { brace: true },
    },
    // Every other at-rule (`@media`, `@if`, `@each`, `@include x { }`...) only scopes.
    {
      match: /@[\w-]+/,
      kind: "class",
      tag: "at",
      container: true,
      end: { brace: true, terminator: ";" },
    },
    // As the grammar's query: a `$variable` directly in the stylesheet, nowhere else.
    {
      match: /(?<name>\$[\p{L}\p{N}_-]+)\s*:/u,
      kind: (_m, parent) => (parent === undefined ? "constant" : undefined),
      end: { terminator: ";" },
    },
    // A custom property, named as written (`--bp-#{$name}`: the interpolation is blanked).
    { match: /(?<name>--[^:;{}]*):/, kind: "constant", end: { terminator: ";" } },
    {
      // A selector list up to its `{` (over several lines), never a declaration (`a: b`, a space
      // after the colon), a `$variable`, an at-rule or a keyframe (`0%`, `from`: the frames of
      // `@include keyframes(x) { 0% { } }`, no symbols, as in `@keyframes`); `a:hover` is one.
      match: new RegExp(
        String.raw`(?![@$;{}]|[\w-]+\s*:(?:\s|$)|${_FRAMES}\s*\{)` +
          String.raw`(?:[^;{}/]|\/(?![/*]))+?(?=\{|,\s*$)`,
      ),
      kind: "class",
      end: { brace: true, terminator: ";", nameToBrace: true },
      notWithin: ["keyframes"],
    },
  ],
  imports: [{
    match:
      /@(?:import|use|forward)\s+(?<sources>(?:"[^"]+"|'[^']+')(?:\s*,\s*(?:"[^"]+"|'[^']+'))*)/,
  }],
  calls: [/@include\s+(?<name>[\w-]+)/g],
  doc: { above: ["//"] },
};

export const extractor = lineScanner(rules);
