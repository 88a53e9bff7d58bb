/**
 * Every supported language, one entry per line (see `../LANGUAGES.md`). Keep one import line and
 * one list line per language, in alphabetical order.
 */
import type { LanguageSpec } from "../language_spec.ts";
import { bash } from "./bash.ts";
import { c } from "./c.ts";
import { cpp } from "./cpp.ts";
import { csharp } from "./csharp.ts";
import { dart } from "./dart.ts";
import { elixir } from "./elixir.ts";
import { go } from "./go.ts";
import { java } from "./java.ts";
import { javascript } from "./javascript.ts";
import { kotlin } from "./kotlin.ts";
import { lua } from "./lua.ts";
import { objc } from "./objc.ts";
import { ocaml } from "./ocaml.ts";
import { php } from "./php.ts";
import { python } from "./python.ts";
import { ruby } from "./ruby.ts";
import { rust } from "./rust.ts";
import { scala } from "./scala.ts";
import { solidity } from "./solidity.ts";
import { swift } from "./swift.ts";
import { tsx } from "./tsx.ts";
import { typescript } from "./typescript.ts";
import { vue } from "./vue.ts";
import { zig } from "./zig.ts";

/** All language specs, by registry order. */
export const LANGUAGES: readonly LanguageSpec[] = [
  bash,
  c,
  cpp,
  csharp,
  dart,
  elixir,
  go,
  java,
  javascript,
  kotlin,
  lua,
  objc,
  ocaml,
  php,
  python,
  ruby,
  rust,
  scala,
  solidity,
  swift,
  tsx,
  typescript,
  vue,
  zig,
];
