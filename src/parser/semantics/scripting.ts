import { DEFAULT_SEMANTICS, type LanguageSemantics } from "../language_spec.ts";

/** Ruby: class members are in scope unqualified (implicit `self`); `class A < Base`. */
export const RUBY_SEMANTICS: LanguageSemantics = {
  ...DEFAULT_SEMANTICS,
  family: "ruby",
  classScope: true,
  selfNames: ["self"],
  superNames: ["super"],
  bases: "superclass",
};

/** PHP: `$this`, `self::`, `static::` and `parent::`; `extends`/`implements`. */
export const PHP_SEMANTICS: LanguageSemantics = {
  ...DEFAULT_SEMANTICS,
  family: "php",
  selfNames: ["$this", "self", "static"],
  superNames: ["parent"],
};

/** Rust: `self`/`Self`; a `mod.rs` passes on what it imports. */
export const RUST_SEMANTICS: LanguageSemantics = {
  ...DEFAULT_SEMANTICS,
  family: "rust",
  selfNames: ["self", "Self"],
  superNames: [],
  reexportFile: /(?:^|\/)mod\.rs$/,
};
