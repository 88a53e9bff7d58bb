/**
 * Every supported language, one entry per line (see `../LANGUAGES.md`). Keep one import line and
 * one list line per language, in alphabetical order.
 */
import { type GrammarSpec, isGrammarSpec, type LanguageSpec } from "../language_spec.ts";
import { ada } from "./ada.ts";
import { al } from "./al.ts";
import { ansible } from "./ansible.ts";
import { apex } from "./apex.ts";
import { arduino } from "./arduino.ts";
import { asm } from "./asm.ts";
import { autohotkey } from "./autohotkey.ts";
import { bash } from "./bash.ts";
import { blade } from "./blade.ts";
import { c } from "./c.ts";
import { clojure } from "./clojure.ts";
import { cobol } from "./cobol.ts";
import { commonlisp } from "./commonlisp.ts";
import { cpp } from "./cpp.ts";
import { csharp } from "./csharp.ts";
import { css } from "./css.ts";
import { d } from "./d.ts";
import { dart } from "./dart.ts";
import { dockerfile } from "./dockerfile.ts";
import { dtd } from "./dtd.ts";
import { ejs } from "./ejs.ts";
import { elisp } from "./elisp.ts";
import { elixir } from "./elixir.ts";
import { elm } from "./elm.ts";
import { erb } from "./erb.ts";
import { erlang } from "./erlang.ts";
import { fortran } from "./fortran.ts";
import { fsharp } from "./fsharp.ts";
import { gdscript } from "./gdscript.ts";
import { gleam } from "./gleam.ts";
import { go } from "./go.ts";
import { graphql } from "./graphql.ts";
import { groovy } from "./groovy.ts";
import { haskell } from "./haskell.ts";
import { hcl } from "./hcl.ts";
import { html } from "./html.ts";
import { java } from "./java.ts";
import { javascript } from "./javascript.ts";
import { json } from "./json.ts";
import { julia } from "./julia.ts";
import { kotlin } from "./kotlin.ts";
import { latex } from "./latex.ts";
import { less } from "./less.ts";
import { lua } from "./lua.ts";
import { luau } from "./luau.ts";
import { make } from "./make.ts";
import { markdown } from "./markdown.ts";
import { matlab } from "./matlab.ts";
import { nim } from "./nim.ts";
import { nix } from "./nix.ts";
import { objc } from "./objc.ts";
import { ocaml } from "./ocaml.ts";
import { openapi } from "./openapi.ts";
import { pascal } from "./pascal.ts";
import { perl } from "./perl.ts";
import { php } from "./php.ts";
import { powershell } from "./powershell.ts";
import { properties } from "./properties.ts";
import { proto } from "./proto.ts";
import { python } from "./python.ts";
import { r } from "./r.ts";
import { razor } from "./razor.ts";
import { rescript } from "./rescript.ts";
import { ruby } from "./ruby.ts";
import { rust } from "./rust.ts";
import { sass } from "./sass.ts";
import { scala } from "./scala.ts";
import { scss } from "./scss.ts";
import { solidity } from "./solidity.ts";
import { sparql } from "./sparql.ts";
import { sql } from "./sql.ts";
import { stylus } from "./stylus.ts";
import { svelte } from "./svelte.ts";
import { swift } from "./swift.ts";
import { systemrdl } from "./systemrdl.ts";
import { talon } from "./talon.ts";
import { tcl } from "./tcl.ts";
import { tlaplus } from "./tlaplus.ts";
import { toml } from "./toml.ts";
import { tsx } from "./tsx.ts";
import { typescript } from "./typescript.ts";
import { verilog } from "./verilog.ts";
import { verse } from "./verse.ts";
import { vhdl } from "./vhdl.ts";
import { vue } from "./vue.ts";
import { xml } from "./xml.ts";
import { yaml } from "./yaml.ts";
import { zig } from "./zig.ts";

/** All language specs, by registry order. */
export const LANGUAGES: readonly LanguageSpec[] = [
  ada,
  al,
  ansible,
  apex,
  arduino,
  asm,
  autohotkey,
  bash,
  blade,
  c,
  clojure,
  cobol,
  commonlisp,
  cpp,
  csharp,
  css,
  d,
  dart,
  dockerfile,
  dtd,
  ejs,
  elisp,
  elixir,
  elm,
  erb,
  erlang,
  fortran,
  fsharp,
  gdscript,
  gleam,
  go,
  graphql,
  groovy,
  haskell,
  hcl,
  html,
  java,
  javascript,
  json,
  julia,
  kotlin,
  latex,
  less,
  lua,
  luau,
  make,
  markdown,
  matlab,
  nim,
  nix,
  objc,
  ocaml,
  openapi,
  pascal,
  perl,
  php,
  powershell,
  properties,
  proto,
  python,
  r,
  razor,
  rescript,
  ruby,
  rust,
  sass,
  scala,
  scss,
  solidity,
  sparql,
  sql,
  stylus,
  svelte,
  swift,
  systemrdl,
  talon,
  tcl,
  tlaplus,
  toml,
  tsx,
  typescript,
  verilog,
  verse,
  vhdl,
  vue,
  xml,
  yaml,
  zig,
];

/** The languages read by a tree-sitter grammar (the others by an npm parser, `extractors/`). */
export const GRAMMAR_LANGUAGES: readonly GrammarSpec[] = LANGUAGES.filter(isGrammarSpec);
