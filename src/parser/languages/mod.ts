/**
 * Every supported language, one entry per line (see `../LANGUAGES.md`). Keep one import line and
 * one list line per language, in alphabetical order.
 */
import type { LanguageSpec } from "../language_spec.ts";
import { bash } from "./bash.ts";
import { csharp } from "./csharp.ts";
import { dart } from "./dart.ts";
import { kotlin } from "./kotlin.ts";
import { php } from "./php.ts";
import { python } from "./python.ts";
import { ruby } from "./ruby.ts";
import { solidity } from "./solidity.ts";
import { zig } from "./zig.ts";

/** All language specs, by registry order. */
export const LANGUAGES: readonly LanguageSpec[] = [
  bash,
  csharp,
  dart,
  kotlin,
  php,
  python,
  ruby,
  solidity,
  zig,
];
