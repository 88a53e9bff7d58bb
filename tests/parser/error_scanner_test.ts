/**
 * A spec's `errorScanner` (`GrammarSpec.errorScanner`): what tree-sitter-scss cannot parse (a
 * negated variable `-$x`, `@if $a or $b` with hyphenated names, a selector list of combinators)
 * is read by the SCSS scanner, and joins the tree's records without repeating them. Each file is
 * parsed twice, with the registry's spec and with the same spec without its scanner, so the test
 * shows what the tree alone loses and that the scanner gives it back.
 */
import assert from "node:assert/strict";
import { languageById, parseSource } from "../../src/parser/mod.ts";
import { parseWithSpec } from "../../src/parser/parse.ts";
import type { GrammarSpec } from "../../src/parser/mod.ts";
import type { ParseResult } from "../../src/parser/types.ts";

const _encode = (s: string) => new TextEncoder().encode(s);

/**
 * The registry's SCSS spec without its error scanner: the tree's records alone (another id: a
 * language is loaded once per id).
 */
function treeOnly(): GrammarSpec {
  const spec = { ...languageById("scss") as GrammarSpec, id: "scss-tree-only" };
  delete spec.errorScanner;
  return spec;
}

/** A result as the registry's SCSS spec would write it. */
const asScss = (r: ParseResult): ParseResult => ({
  ...r,
  language: "scss",
  symbols: r.symbols.map((s) => ({ ...s, language: "scss" })),
});

const names = (r: ParseResult) => r.symbols.map((s) => `${s.line} ${s.kind} ${s.qualified_name}`);

// Bootstrap 4's `_card.scss` writes negated variables: the grammar makes the whole file one ERROR.
const CARD = [
  "// Card footer",
  ".card-footer {",
  "  padding: $card-spacer-y $card-spacer-x;",
  "",
  "  &:last-child {",
  "    @include border-radius(0 0 $card-inner-border-radius $card-inner-border-radius);",
  "  }",
  "}",
  "",
  "//",
  "// Header navs",
  "//",
  "",
  ".card-header-tabs {",
  "  margin-right: -$card-spacer-x * .5;",
  "  margin-bottom: -$card-spacer-y;",
  "  border-bottom: 0;",
  "}",
  "",
  ".card-header-pills {",
  "  margin-left: -$card-spacer-x * .5;",
  "}",
  "",
  "// Card image",
  ".card-img,",
  ".card-img-top {",
  "  flex-shrink: 0; // For IE: https://github.com/twbs/bootstrap/issues/29396",
  "  width: 100%;",
  "}",
  "",
].join("\n");

Deno.test("error scanner: a file the SCSS grammar loses whole comes back, nested and documented", async () => {
  const bytes = _encode(CARD);
  const alone = await parseWithSpec(treeOnly(), "scss/_card.scss", bytes);
  assert.equal(alone.status, "partial");
  assert.deepEqual(names(alone), [], "the grammar alone gives nothing of this file");

  const r = await parseSource("scss/_card.scss", bytes);
  assert.equal(r.status, "partial", "the file still has syntax errors");
  assert.deepEqual(names(r), [
    "2 class .card-footer",
    "5 class .card-footer.&:last-child",
    "14 class .card-header-tabs",
    "20 class .card-header-pills",
    "25 class .card-img, .card-img-top",
  ]);
  const byName = Object.fromEntries(r.symbols.map((s) => [s.qualified_name, s]));
  assert.equal(byName[".card-footer.&:last-child"]!.parent, byName[".card-footer"]!.id);
  assert.equal(byName[".card-footer"]!.docstring, "Card footer");
  assert.equal(byName[".card-img, .card-img-top"]!.docstring, "Card image");
  assert.equal(byName[".card-img, .card-img-top"]!.end_line, 29);
  for (const s of r.symbols) {
    const source = new TextDecoder().decode(
      bytes.slice(s.byte_offset, s.byte_offset + s.byte_length),
    );
    assert.ok(source.startsWith(s.name.split(",")[0]!), `${s.id}: ${JSON.stringify(source)}`);
    assert.ok(source.endsWith("}"), `${s.id} ends with its block`);
  }
  // The call inside the lost rule is read too, with its caller.
  assert.deepEqual(r.calls.map((c) => [c.callee, c.line, c.caller]), [
    ["border-radius", 6, byName[".card-footer.&:last-child"]!.id],
  ]);
});

// Compass's `_opacity.scss` style: `or` between hyphenated variables ends what the grammar reads.
const MIXINS = [
  '@import "shared";',
  "",
  "// Card groups.",
  ".card-group {",
  "  > .card {",
  "    margin-bottom: $card-group-margin;",
  "  }",
  "}",
  "",
  "// Makes an element completely transparent.",
  "@mixin transparent { @include opacity(0); }",
  "",
  "@mixin opacity($opacity) {",
  "  @if $legacy-support-for-ie6 or $legacy-support-for-ie8 {",
  '    filter: unquote("alpha(opacity=#{round($opacity * 100)})");',
  "  }",
  "  opacity: $opacity;",
  "}",
  "",
  "// Scales a color's lightness.",
  "@function scale-lightness($color, $amount) {",
  "  @return scale-color($color, $lightness: $amount);",
  "}",
  "",
  '@import "grid";',
  "$enable-shadows: true;",
  "",
].join("\n");

Deno.test("error scanner: what follows an error is read, and what the tree has is not repeated", async () => {
  const bytes = _encode(MIXINS);
  const alone = await parseWithSpec(treeOnly(), "scss/_opacity.scss", bytes);
  assert.deepEqual(names(alone), [
    "4 class .card-group",
    "5 class .card-group..card",
    "11 function transparent",
    "13 function opacity",
  ]);
  const r = await parseSource("scss/_opacity.scss", bytes);
  assert.deepEqual(names(r), [
    ...names(alone),
    "21 function scale-lightness",
    "26 constant $enable-shadows",
  ]);
  // The tree's own records are kept as they were (ids, signatures, docstrings).
  for (const s of alone.symbols) {
    assert.deepEqual(r.symbols.find((t) => t.id === s.id), { ...s, language: "scss" });
  }
  const fn = r.symbols.find((s) => s.name === "scale-lightness")!;
  assert.equal(fn.signature, "@function scale-lightness($color, $amount)");
  assert.equal(fn.docstring, "Scales a color's lightness.");
  assert.deepEqual([fn.line, fn.end_line], [21, 23]);
  // An import after the error region is read; the one the tree has is not repeated.
  assert.deepEqual(r.imports.map((i) => [i.specifier, i.line]), [["shared", 1], ["grid", 25]]);
  assert.deepEqual(r.calls.map((c) => [c.callee, c.line]), [["opacity", 11]]);
});

Deno.test("error scanner: a file the grammar parses is the tree's alone", async () => {
  const source = [
    "// Buttons.",
    ".btn {",
    "  &:hover { color: $link-hover-color; }",
    "}",
    "@mixin button-size($padding-y, $padding-x) {",
    "  padding: $padding-y $padding-x;",
    "}",
    "",
  ].join("\n");
  const r = await parseSource("scss/_buttons.scss", _encode(source));
  assert.equal(r.status, "ok");
  const alone = await parseWithSpec(treeOnly(), "scss/_buttons.scss", _encode(source));
  assert.deepEqual(r, asScss(alone));
});

Deno.test('error scanner: an embedded <style lang="scss"> is scanned inside the style only', async () => {
  const source = [
    "<template>",
    '  <div class="card-header-tabs">{{ title }}</div>',
    "</template>",
    "",
    '<style lang="scss">',
    ".card-header-tabs {",
    "  margin-right: -$card-spacer-x * .5;",
    "}",
    ".card-img-overlay {",
    "  position: absolute;",
    "}",
    "</style>",
    "",
  ].join("\n");
  const r = await parseSource("src/Card.vue", _encode(source));
  assert.deepEqual(names(r), ["6 class .card-header-tabs", "9 class .card-img-overlay"]);
  assert.ok(r.symbols.every((s) => s.language === "vue"));
});
