/**
 * The parser's output records: the contract between src/parser/ (which produces them) and
 * src/store/ (which persists them). Field names follow ../shared/API.md §4.1.
 */

/**
 * Symbol kinds: the reference's VALID_KINDS, then three of ours for members and bindings that are
 * not code an agent usually looks for first, so ranking can weigh them apart: `field` (a data
 * member of a type: a Go struct field, a GraphQL or Protocol Buffers field, an Apex property),
 * `property` (a value assigned onto an object at module level: `exports.x = 1`,
 * `app.mountpath = "/"`), `variable` (a module-level `let`/`var` binding that is no function).
 */
export const SYMBOL_KINDS = [
  "function",
  "class",
  "method",
  "constant",
  "type",
  "template",
  "import",
  "field",
  "property",
  "variable",
] as const;

/** One of {@linkcode SYMBOL_KINDS}. */
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

/** One definition found in a file (API.md §4.1). */
export interface SymbolRecord {
  /** `{file}::{qualified_name}#{kind}`, with `~1`, `~2`… on every duplicate in source order. */
  id: string;
  /** Repo-relative POSIX path. */
  file: string;
  name: string;
  qualified_name: string;
  kind: SymbolKind;
  /** Registry id of the language (`python`, `typescript`, …). */
  language: string;
  /** Declaration text without the body (multi-line allowed). */
  signature: string;
  /** Cleaned doc comment or docstring; `""` when none. */
  docstring: string;
  /** One-line summary; filled by src/summarize (docstring, then signature fallback). */
  summary: string;
  decorators: string[];
  keywords: string[];
  /** Id of the enclosing symbol, or null at top level. */
  parent: string | null;
  /** 1-based inclusive line span. */
  line: number;
  end_line: number;
  /** Byte range into the file's UTF-8 bytes: source = bytes[byte_offset, byte_offset + byte_length). */
  byte_offset: number;
  byte_length: number;
  /** SHA-256 hex of exactly those bytes. */
  content_hash: string;
  /**
   * Complexity of a function or method whose language has complexity rules
   * (`LanguageSpec.complexity`); absent for other symbols and languages.
   */
  complexity?: SymbolComplexity;
}

/** The complexity metrics of a function or method, read from its tree at index time. */
export interface SymbolComplexity {
  /** 1 + its decision points (branches, loops, cases, catches, short-circuit operators). */
  cyclomatic: number;
  /** The deepest nesting of control structures inside it (0: none). */
  max_nesting: number;
  /** Its declared parameters. */
  param_count: number;
}

/** One import statement (or include/require/use) in a file. */
export interface ImportRecord {
  /** The raw specifier as written (`./util`, `os.path`, `crate::a::b`, `stdio.h`). */
  specifier: string;
  /** Imported names where the syntax lists them (`{a, b}` → `["a", "b"]`), else `[]`. */
  names: string[];
  line: number;
  /** Repo-relative path of the file the specifier resolves to, or null when external/unresolved. */
  resolved: string | null;
}

/** One call site. */
export interface CallRecord {
  /** Callee name as written at the call (`foo` in `a.b.foo()`). */
  callee: string;
  /** Receiver text (`a.b` in `a.b.foo()`), or null for a bare call. */
  receiver: string | null;
  /** Id of the innermost enclosing symbol, or null at file level. */
  caller: string | null;
  line: number;
}

/** How a file fared in the parser. */
export type ParseStatus = "ok" | "partial" | "skipped";

/** Everything the parser extracts from one file. */
export interface ParseResult {
  file: string;
  language: string;
  status: ParseStatus;
  /** Why a file was skipped, or what made it partial (e.g. `"syntax errors: 3"`). */
  reason: string | null;
  symbols: SymbolRecord[];
  imports: ImportRecord[];
  calls: CallRecord[];
}
