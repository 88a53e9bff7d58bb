import { DEFAULT_SEMANTICS, type LanguageSemantics, type LivenessRules } from "../language_spec.ts";

/**
 * Ruby's liveness conventions: `initialize`, `to_s`, `method_missing`, `each`, `call` and the
 * operators are called by the runtime; `test_*` methods are discovered; every method is shared;
 * `send`, `public_send` and `define_method` reach names written in strings or symbols.
 */
export const RUBY_LIVENESS: LivenessRules = {
  hookMethods:
    /^(?:initialize|to_s|to_str|to_a|to_h|to_proc|inspect|method_missing|respond_to_missing\?|each|call|hash|eql\?|<=>|==|coerce|included|extended|inherited)$/,
  testNames: /^test_/,
  exports: "none",
  dynamicAccess: /\b(?:send|public_send|define_method|method|instance_variable_get|const_get)\b/,
};

/** PHP's: magic methods (`__construct`, `__toString`, …) are called by the runtime. */
export const PHP_LIVENESS: LivenessRules = {
  hookMethods: /^__\w+$/,
  testNames: /^test/,
  exports: "none",
  dynamicAccess: /\bcall_user_func(?:_array)?\s*\(|\$\w+\s*\(|->\$\w+|::\$\w+\(/,
};

/**
 * Rust's: `main` starts a program; trait methods of the standard library (`fmt`, `drop`, `next`,
 * `from`, …) are called through their traits; `pub` items (not `pub(crate)`) are the crate's API.
 */
export const RUST_LIVENESS: LivenessRules = {
  entryNames: /^main$/,
  hookMethods:
    /^(?:fmt|drop|clone|clone_from|eq|ne|partial_cmp|cmp|hash|next|next_back|size_hint|deref|deref_mut|from|into|try_from|try_into|as_ref|as_mut|borrow|borrow_mut|index|index_mut|poll|poll_next|default|into_iter|from_str|to_string|add|sub|mul|div|rem|neg|not|write_str|serialize|deserialize|source|description)$/,
  testNames: /^test_|_test$/,
  registeringDecorators:
    /^#\[(?:test|bench|tokio::test|tokio::main|no_mangle|export_name|proc_macro|wasm_bindgen)/,
  exports: "keyword",
  exportKeyword: /^\s*pub\b(?!\s*\((?:crate|super|self|in)\b)/,
};

/** Ruby: class members are in scope unqualified (implicit `self`); `class A < Base`. */
export const RUBY_SEMANTICS: LanguageSemantics = {
  ...DEFAULT_SEMANTICS,
  family: "ruby",
  classScope: true,
  selfNames: ["self"],
  superNames: ["super"],
  bases: "superclass",
  liveness: RUBY_LIVENESS,
};

/** PHP: `$this`, `self::`, `static::` and `parent::`; `extends`/`implements`. */
export const PHP_SEMANTICS: LanguageSemantics = {
  ...DEFAULT_SEMANTICS,
  family: "php",
  selfNames: ["$this", "self", "static"],
  superNames: ["parent"],
  liveness: PHP_LIVENESS,
};

/** Rust: `self`/`Self`; a `mod.rs` passes on what it imports. */
export const RUST_SEMANTICS: LanguageSemantics = {
  ...DEFAULT_SEMANTICS,
  family: "rust",
  selfNames: ["self", "Self"],
  superNames: [],
  reexportFile: /(?:^|\/)mod\.rs$/,
  liveness: RUST_LIVENESS,
};
