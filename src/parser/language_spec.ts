/**
 * The interfaces the extractors know. Each language is one `LanguageSpec` data entry in
 * `src/parser/languages/<id>.ts`; `languages/mod.ts` lists them. A language is read either by
 * tree-sitter (a `GrammarSpec`: a grammar and queries for the one generic extractor) or by its own
 * official parser from npm (an `ExtractorSpec`: it names one of `extractors/`). See `LANGUAGES.md`
 * for the capture names each query may use and how to add a language.
 */

/** Names of the import resolvers in `resolve.ts`; a spec picks one by name (data, not code). */
export type ResolverName =
  | "python"
  | "javascript"
  | "go"
  | "rust"
  | "jvm"
  | "c"
  | "ruby"
  | "php"
  | "path"
  | "lua"
  | "dart"
  | "tex"
  | "module_file";

/**
 * Names of the extractors in `extractors/mod.ts`, each reading a language with its own parser from
 * npm (`graphql`, `protobufjs`, `dockerfile-ast`, `yaml`) or our own line scanner (`line_scan.ts`),
 * loaded lazily like a grammar. A scanner may also read the regions a grammar cannot parse
 * (`GrammarSpec.errorScanner`: `scss`).
 */
export type ExtractorName =
  | "ada"
  | "al"
  | "ansible"
  | "asm"
  | "autohotkey"
  | "cobol"
  | "dockerfile"
  | "fortran"
  | "graphql"
  | "less"
  | "markdown"
  | "matlab"
  | "nim"
  | "openapi"
  | "protobuf"
  | "razor"
  | "sass"
  | "scss"
  | "stylus"
  | "tcl"
  | "verse"
  | "vhdl";

/** How to find doc comments written before a definition (Go, Rust, JS, Java, C, ...). */
export interface DocCommentRule {
  /** Node types that are comments (`comment`, `line_comment`, `block_comment`). */
  nodeTypes: string[];
  /**
   * Only comments whose text starts with one of these count as documentation (`["///", "/**"]`).
   * @default every comment
   */
  prefixes?: string[];
  /**
   * Parent node types that wrap a definition and own its comments (`export_statement`,
   * `decorated_definition`): the search for comments starts before the outermost wrapper.
   * @default []
   */
  wrapperTypes?: string[];
  /**
   * Sibling node types to step over between the comment and the definition (`attribute_item`).
   * @default []
   */
  skipTypes?: string[];
  /**
   * Doc comments starting with one of these document the next definition even when blank lines
   * separate them, as the language's own tools attach them (TypeScript and JSDoc take the `/**`
   * block before a declaration, javadoc the last `/**` before it, rustdoc every `///` line before an
   * item). Without it a comment must end on the line above the definition (godoc's rule).
   * @default []
   */
  detachedPrefixes?: string[];
}

/** Source regions to parse with the spec's grammar, found by first parsing with a host grammar. */
export interface RegionRule {
  /** Host grammar file stem (`vue` for `tree-sitter-vue.wasm`). */
  grammar: string;
  /** Where the host grammar's `.wasm` is, as for `LanguageSpec.grammarModule`. */
  grammarModule?: string;
  /**
   * Query over the host tree; every `@region` node becomes an included range. An optional
   * `@region.language` capture (the value of a `lang` attribute) selects one of `variants`.
   */
  query: string;
  /**
   * Grammar and queries for regions written in another language, by the `@region.language` text
   * (Vue: `{ ts: typescript }` for `<script lang="ts">`). Any spec serves: only its `grammar`, its
   * queries and `docComments` are used (queries it lacks are the spec's own); the records keep this
   * spec's id. Without a match the spec's own grammar and queries apply.
   * @default {}
   */
  variants?: Record<string, RegionVariant>;
}

/**
 * Code of other languages inside a file (`<script>` and `<style>` in HTML, Vue and Svelte): the
 * regions a query finds in the file's outer tree are parsed with another spec, and its records
 * join the file's own (they keep the file's spec id).
 */
export interface EmbedRule {
  /**
   * Query over the outer tree: the `regions` host's when the spec has `regions`, else the
   * spec's own. Every `@region` node is parsed with `language` (all regions of one rule as one
   * document); an optional `@region.language` capture (`<style lang="scss">`) selects one of
   * `variants`.
   */
  query: string;
  /** The spec that parses the regions: its grammar, queries and doc comments. */
  language: GrammarSpec;
  /**
   * Specs for regions in another language, by the `@region.language` text.
   * @default {}
   */
  variants?: Record<string, GrammarSpec>;
}

/** The parts of a spec a region variant replaces. */
export type RegionVariant = Pick<
  GrammarSpec,
  "grammar" | "grammarModule" | "definitions" | "imports" | "calls" | "docComments" | "complexity"
>;

/**
 * Files of an extension that belongs to another language (`.yaml`, `.json`) which are this
 * language when their path or first bytes say so: an OpenAPI document declares `openapi:` or
 * `swagger:`, an Ansible task file sits in a role's `tasks/`.
 */
export interface ContentRule {
  /** Extensions with the dot, lower case, that the rule looks at. */
  extensions: string[];
  /** Matched against the repo-relative path; either this or `content` must match. */
  path?: RegExp;
  /** Matched against the file's first 4 KB (read as Latin-1). */
  content?: RegExp;
}

/** What every language entry has, whichever parser reads it. */
export interface LanguageCommon {
  /** Registry key, stored as `SymbolRecord.language` (`python`, `typescript`, `tsx`, ...). */
  id: string;
  /** File extensions with the dot, lower case (`.py`); longest match wins (`.d.ts` over `.ts`). */
  extensions: string[];
  /** Exact file names (`Makefile`, `Rakefile`). @default [] */
  fileNames?: string[];
  /**
   * Other ids a user may pass for this language (a `language` argument), read as `id`: names it
   * was indexed under before (`protobuf` for `proto`). Never stored. @default []
   */
  aliases?: string[];
  /** Files of other languages' extensions that are this language by path or content. */
  detect?: ContentRule;
  /** Import resolver used by `resolveImports`. Unset: every import stays external. */
  resolver?: ResolverName;
  /**
   * A file larger than this many bytes is data, not configuration (a 300 KB JSON of translated
   * messages has thousands of top-level keys): it is indexed as text only, with no symbols, and
   * its result says so in `reason`.
   * @default no limit
   */
  maxSymbolBytes?: number;
  /**
   * How the code graph reads the language: scoping, visibility, receivers, bases, what an import
   * binds (`src/parser/semantics/`). A spec that declares none gets
   * {@linkcode DEFAULT_SEMANTICS} with its own id as the family — written down in the
   * conformance suite's graph row of the language, so a new language's defaults are a choice.
   * @default DEFAULT_SEMANTICS
   */
  semantics?: LanguageSemantics;
  /**
   * What the language's files hold: `code`, `document` (prose: Markdown, LaTeX) or `data`
   * (configuration and data: JSON, YAML, TOML, XML). Ranking puts code first for a question about
   * code (`src/query/priors.ts`).
   * @default "code"
   */
  content?: ContentKind;
}

/** A language read by its own parser from npm (`extractors/`), not by a tree-sitter grammar. */
export interface ExtractorSpec extends LanguageCommon {
  /** The extractor that reads it (`extractors/<name>.ts`). */
  extractor: ExtractorName;
}

/** A language of the registry: a tree-sitter grammar with queries, or an npm parser. */
export type LanguageSpec = GrammarSpec | ExtractorSpec;

/** Whether a language is read by tree-sitter (else by an extractor of `extractors/`). */
export function isGrammarSpec(spec: LanguageSpec): spec is GrammarSpec {
  return spec.extractor === undefined;
}

/** One tree-sitter language: everything the generic extractor needs, as data. */
export interface GrammarSpec extends LanguageCommon {
  /** Unset: the generic tree-sitter extractor reads it. */
  extractor?: undefined;
  /**
   * Grammar name, naming it in errors: the file stem of `tree-sitter-<grammar>.wasm` in
   * `tree-sitter-wasms/out/` unless `grammarModule` says where the file is.
   */
  grammar: string;
  /**
   * Bare module specifier of the grammar's `.wasm` file, resolved with `import.meta.resolve`
   * through the import map of `deno.json`, for a grammar published outside tree-sitter-wasms
   * (`@tree-sitter-grammars/tree-sitter-lua/tree-sitter-lua.wasm`). Its package must be in the
   * import map and its directory embedded in a `deno compile` binary (`--include`).
   * @default `tree-sitter-wasms/out/tree-sitter-<grammar>.wasm`
   */
  grammarModule?: string;
  /**
   * Definitions query. Captures: `@definition.<kind>` (kind: function, class, method, constant,
   * type, template) on the node whose range is the symbol; `@container` on a node that scopes the
   * definitions inside it without being a symbol, its functions becoming methods (a Rust `impl`);
   * `@namespace` on a node that only qualifies the names inside it (a C++ namespace); `@name` (the
   * name, required);
   * `@scope` (a qualifier written in the definition itself: a Go receiver type, `Foo::` in C++);
   * `@body` (where the signature ends); `@declaration` (where the signature starts, when not at the
   * definition node); `@doc` (docstring node); `@decorator` (decorator/attribute/annotation).
   * Matches on the same definition node are merged, so optional parts can be separate patterns.
   * Captures starting with `_` are free for predicates.
   */
  definitions: string;
  /**
   * Imports query. Captures: `@import` (the statement; its line is the record's line),
   * `@import.source` (the specifier, quotes and `<>` stripped), `@import.name` (an imported name),
   * `@import.names` (a whitespace-separated word list, one name per word: Perl's `qw(a b)`).
   * Captures of one statement with the same source are merged into one record.
   */
  imports?: string;
  /** Calls query. Captures: `@reference.call` (the call), `@name` (callee), `@receiver`. */
  calls?: string;
  /**
   * A call inside a `@decorator` runs each time the definition runs (Solidity's modifier
   * invocations wrap the function's body), so its caller is the definition. Unset: a decorator's
   * calls (`@app.get("/x")`) run once, where the definition is written, and their caller is the
   * symbol around it (or the file).
   * @default false
   */
  decoratorsRunWithBody?: boolean;
  /** Doc comments before definitions; `@doc` captures take precedence. */
  docComments?: DocCommentRule;
  /**
   * Removed from every `@name` text: a qualifier the grammar keeps inside the name's one token
   * (PowerShell's scope modifier, `global:` in `function global:prompt`).
   * @default nothing removed
   */
  nameTrim?: RegExp;
  /**
   * Blanked before the grammar parses the file: each match of this global regex is replaced by as
   * many spaces (line breaks kept), so byte offsets and lines stay exact while the grammar no
   * longer sees words it cannot parse (C++'s export macros, `class PROTOBUF_EXPORT Foo : Bar {`,
   * which tree-sitter-cpp reads as a class named `PROTOBUF_EXPORT`). Symbols' source, signatures
   * and error scanning read the file as written; names and predicates read the blanked text.
   * @default nothing blanked
   */
  parseBlanks?: RegExp;
  /** Parse only these regions of the file (Vue `<script>`). */
  regions?: RegionRule;
  /** Code of other languages embedded in the file (HTML `<script>`, `<style>`). @default [] */
  embeds?: EmbedRule[];
  /**
   * Query over the file's own tree finding macro invocations whose body is code of the language
   * (Rust's `cfg_rt! { pub fn spawn() {} }`, a token tree to the grammar): each `@region` node,
   * or the inside of each `@region.inner` node (its first and last child, the brackets, left
   * out), is parsed again with the spec's own grammar, and so are the macro bodies inside those,
   * up to 4 levels. Their definitions, imports and calls join the file's, nested by range (an item
   * in a macro inside an `impl` is a method). Syntax errors inside them do not make the file
   * partial: a macro's body need not be items.
   */
  macroBodies?: string;
  /**
   * A scanner of `extractors/` (its name) that reads what the grammar could not parse: when a
   * tree has `ERROR` nodes, the scanner reads the file (the spec's regions only, for an embedded
   * or region part) and its symbols, imports and calls that start on the lines of an `ERROR` node
   * join the tree's, each unless the tree already has it (a symbol of the same kind and name,
   * letters and digits compared, starting or ending on the same line; an import of the same
   * specifier or a call of the same callee on the same line). Its kinds should be the queries'
   * (SCSS: tree-sitter-scss loses whole rules to `> .a,` selector lists, `-$x` and `@if $a or $b`;
   * `extractors/scss.ts` reads them). Loaded with the grammar, run only on a tree with errors; the
   * file stays `partial`.
   * @default none: what an `ERROR` node holds is what the queries match in it
   */
  errorScanner?: ExtractorName;
  /**
   * How a function's complexity is read from its tree (decision points, nesting, parameters;
   * `src/parser/complexity/`). Unset: the language's functions are not measured, and the
   * conformance suite's complexity row of the language says why.
   * @default not measured
   */
  complexity?: ComplexityRules;
}

/**
 * The complexity metrics of a function, read from its tree as data: the node types (of the
 * language's grammar) that are decision points, control structures and parameters. Every type
 * named here must exist in the grammar: the loader fails naming the language and the type.
 *
 * - cyclomatic = 1 + the `branches` and `operators` found in the function, not counting the
 *   functions nested in it (each is measured on its own), as ESLint's `complexity` rule counts;
 * - max nesting = the deepest chain of `nesting` structures inside one another (`chains` are
 *   continuations that stay at their parent's level: `else if`), as ESLint's `max-depth`;
 * - parameters = the entries of the function's first parameter list.
 */
export interface ComplexityRules {
  /**
   * Named node types that each open one more path: `if`, loops, a `case` with a test, `catch`,
   * a conditional expression, a default value, an optional chain.
   */
  branches: readonly string[];
  /**
   * Operator tokens that open a path, by the node type they appear in
   * (`{ binary_expression: ["&&", "||", "??"] }`): short-circuit operators.
   * @default {}
   */
  operators?: Readonly<Record<string, readonly string[]>>;
  /**
   * Named operator nodes that open a path by their text (`{ operator: ["&&", "||"] }`), for
   * grammars that write an operator as a named node (Haskell, F#, Elm).
   * @default {}
   */
  operatorTexts?: Readonly<Record<string, readonly string[]>>;
  /** Named node types of the control structures whose nesting is measured. */
  nesting: readonly string[];
  /**
   * A nesting structure directly inside one of these parent types continues the parent's level
   * instead of opening one (`{ else_clause: ["if_statement"] }`: `else if`).
   * @default {}
   */
  chains?: Readonly<Record<string, readonly string[]>>;
  /**
   * Wrapper node types looked through when finding a chained structure's parent (Verilog's
   * `else if` sits in `statement_or_null` > `statement` > `statement_item`).
   * @default []
   */
  chainWrappers?: readonly string[];
  /**
   * Named node types of functions (declarations, methods, lambdas): a function's paths and
   * nesting stop at the functions inside it.
   */
  functions: readonly string[];
  /** Where a function's parameters are. */
  parameters: ParameterRule;
  /**
   * Languages whose control structures are calls or lists with a head word (Lisp's `(if …)`,
   * Elixir's `if … do`): the node types of such forms, and the head words that are branches,
   * nesting structures or functions.
   * @default none
   */
  forms?: FormRule;
}

/** How the parameters of a function are found and counted. */
export interface ParameterRule {
  /**
   * Node types of parameter lists: the first one in the function's head (breadth first, not in
   * its body or the `skipFields`) holds its parameters, one per named child.
   */
  lists: readonly string[];
  /** Named children of a list that are no parameter (comments, separators). @default [] */
  skip?: readonly string[];
  /**
   * A parameter declaring several names with this field (`a, b int` in Go) counts each.
   * @default one per child
   */
  nameField?: string;
  /** Fields of the function that hold one parameter without a list (`x => x`). @default [] */
  single?: readonly string[];
  /** Fields of the function not searched for the list (a Go method's `receiver`). @default [] */
  skipFields?: readonly string[];
  /**
   * Parameters written directly in the function node, without a list node (Swift, Solidity):
   * the function's children of these types, when no list is found.
   * @default []
   */
  items?: readonly string[];
  /**
   * A list whose one entry is of these types is read inside that entry (Elixir's `def f(a, b)`
   * is a `def` call whose one argument is the call `f(a, b)`).
   * @default []
   */
  unwrap?: readonly string[];
}

/** Control structures written as forms with a head word (see {@linkcode ComplexityRules.forms}). */
export interface FormRule {
  /**
   * Node types of forms (`list_lit`, `call`); the head is the text of the first child that is no
   * bracket.
   */
  nodeTypes: readonly string[];
  /** Head words that open a path (`if`, `when`, `cond`). */
  branches: readonly string[];
  /** Head words of nesting structures. @default the branches */
  nesting?: readonly string[];
  /** Head words of function definitions (`defn`, `fn`, `lambda`). @default [] */
  functions?: readonly string[];
}

/** How a declaration's signature names its parameters' types. */
export type ParameterSyntax =
  /** `name Type`, names sharing the next type (`a, b *pkg.T`); a method's receiver list first: Go. */
  | "name_type"
  /** `Type name` (`final Car car`), else `name: Type` (`val car: Car`): Java, C#, Kotlin, Scala. */
  | "type_name"
  /** `name: Type` (`dog: Dog`, `by: Optional[int]`): TypeScript, Python hints, Swift, Rust. */
  | "name_colon_type";

/** Where a class or type declaration names its bases. */
export type BaseSyntax =
  /** `extends`, `implements`, `with` (mixins) and `:` lists in the signature. */
  | "keywords"
  /** As `keywords`, and `extends A with B with C` lists every name as extended (Scala). */
  | "keyword_chains"
  /** A parenthesized list after the name (`class A(Base, Mixin):`): Python. */
  | "parenthesized"
  /** `class A < Base`: Ruby. */
  | "superclass"
  /** Embedded fields and interfaces in the body of a struct or interface (the stored source): Go. */
  | "embedding";

/** What an import binds as a module name that receivers use (`pkg.F()`, `mod.f()`, `ns.f()`). */
export type ModuleBinding =
  /** The last segment of the path, without a `/vN` major version or a `go-` prefix: Go. */
  | "path_tail"
  /**
   * An import without names binds its dotted path (`import a.b` binds `a.b`), one with names
   * binds those names (`from a import b` binds `b`): Python.
   */
  | "dotted_path_or_names"
  /**
   * An imported name, `* as ns`, or a bare `require("./x")` / `import "./x"` of a file `x`:
   * JavaScript, TypeScript.
   */
  | "names_or_file"
  /** The imported names. */
  | "names";

/**
 * The semantics of a language for the code graph (`src/query/`: name resolution, references,
 * hierarchies, the import graph). The query layer reads these fields and never a language's id.
 */
export interface LanguageSemantics {
  /**
   * Languages of one family see each other's definitions by name (a `.ts` file calling a `.js`
   * function): the family's id.
   */
  family: string;
  /**
   * One name space: the file (`module`), or every file of the language in its folder
   * (`package_folder`: a Go package, where a definition of any file of the folder is in scope and
   * an import names the folder).
   */
  unit: "module" | "package_folder";
  /**
   * Members of the enclosing class and of its ancestors are in scope unqualified (implicit `this`:
   * Java, C++, Ruby).
   */
  classScope: boolean;
  /** The top-level classes and types of the file's folder are in scope without an import (Java). */
  folderClasses: boolean;
  /**
   * A name found neither in scope, nor in the unit, its imports or its folder is defined nowhere in
   * the repo (a builtin or a library): no guess by name across the repo.
   */
  closedScope: boolean;
  /**
   * Who may use a definition outside its unit: `public` anyone; `capitalized` only a name starting
   * with an upper-case letter (Go).
   */
  privacy: "public" | "capitalized";
  /** A definition of another unit is always written qualified (`pkg.Name`: Go). */
  qualifiedImports: boolean;
  /** Receivers that mean the enclosing class's instance (`self`, `this`, `$this`). */
  selfNames: readonly string[];
  /** Receivers that mean the bases of the enclosing class (`super`, `parent`). */
  superNames: readonly string[];
  /**
   * The receiver variable a method's signature declares, as group 1 (Go: `s` in
   * `func (s *Server) Start()`), for a receiver that means the method's type.
   * @default none
   */
  receiverParameter?: RegExp;
  /** `Class.method()` resolves through a class name the file sees (not in Go: no classes). */
  classReceivers: boolean;
  /** How a signature declares a parameter's type (a call `param.m()` resolves through it). */
  parameterTypes: ParameterSyntax;
  /** Where a class or type declaration names its bases. */
  bases: BaseSyntax;
  /**
   * Signature words of the declarations whose bases are in their body (`embedding`: Go's
   * `struct`, `interface`), read from the stored source.
   * @default []
   */
  bodyBaseWords?: readonly string[];
  /**
   * In a `:` base list the base's kind tells `extends` (a class) from `implements` (an interface
   * or protocol): C#, Kotlin, Swift.
   */
  colonBasesByKind: boolean;
  /** What an import binds as a module name. */
  moduleBinding: ModuleBinding;
  /**
   * A file whose path matches passes on what it imports (a barrel: `index.ts`, `__init__.py`,
   * `mod.rs`).
   * @default none
   */
  reexportFile?: RegExp;
  /**
   * An import written on a line that matches passes on what it imports (`export … from`).
   * @default none
   */
  reexportLine?: RegExp;
  /**
   * Objects are built by assignment (JavaScript): a function assigned to a member of an object or a
   * prototype (`res.render = function`, `View.prototype.render = function`) is that object's
   * method; `this` inside it means the object; a receiver named like the object (`res.render()`)
   * means it by name; a local bound to `new C(…)` is a `C`; and a call through a receiver of
   * unknown type does not match a plain object's methods by name.
   * @default false
   */
  prototypeObjects?: boolean;
  /**
   * Object names that mean the module itself (`exports.f = function`: a top-level definition of
   * the file).
   * @default []
   */
  exportObjects?: readonly string[];
  /**
   * An import of a whole module (`import pkg`, `from a import pkg`) takes from a re-exporting
   * module only the attributes its file writes on the module's name (`pkg.Name`), for the
   * importers a re-export reaches.
   * @default false
   */
  attributeUses?: boolean;
  /**
   * Bare function names that run text as code in this language (`search_ast`'s `eval_exec`),
   * besides `eval`, `execfile` and the qualified ones every language's check knows (Python:
   * `exec`; elsewhere `exec(...)` is usually a regex or a process call).
   * @default []
   */
  codeRunners?: readonly string[];
  /**
   * Where a name imported from a package is a module of its own (`from pkg import c` with
   * `pkg/c.py`): file paths relative to the folder of the package file the import resolved to,
   * `{}` standing for the name. Such a name's import reaches that module, not the package file.
   * @default []
   */
  submodules?: readonly string[];
  /**
   * Most definitions a call through a receiver of unknown type may match by name when none of
   * them is in a file the calling file sees (beyond that the name says nothing: `Error`, `Close`).
   */
  byNameReach: number;
  /**
   * Words no definition of the language may be named (a rename to one is refused:
   * `check_rename_safe`, `plan_refactoring`).
   * @default none: any identifier
   */
  reservedWords?: RegExp;
  /**
   * How a refactoring plan writes the language's imports (`plan_refactoring` move:
   * `src/parser/import_writers/`).
   * @default none: a move is refused with "Cannot rewrite imports for <language>"
   */
  importWriter?: ImportWriter;
  /**
   * What keeps a definition alive without a use the graph can see: the language's entry points,
   * runtime and framework hooks, test discovery, exports and dynamic access (dead-code and
   * test-reach analysis, `src/query/liveness.ts`).
   * @default NO_LIVENESS_RULES
   */
  liveness?: LivenessRules;
  /**
   * Which units' exports are the repo's API: `every_unit` (any module or package outside an
   * internal path: Python, Go, Java), or `package_entries` (only the files a package manifest or
   * an `index.*` names as entry points, and what they re-export: JavaScript, TypeScript).
   * @default "every_unit"
   */
  publicApi?: "every_unit" | "package_entries";
}

/**
 * How a language's import lines are written when a definition moves to another file: the one
 * writer of each family (`src/parser/import_writers/<family>.ts`), referenced from its
 * {@linkcode LanguageSemantics}. The query layer asks it and never the language's name.
 */
export interface ImportWriter {
  /** The writer's name, as the conformance suite's graph rows show it (`python`). */
  name: string;
  /** Paths a definition of the language may move to (`.py`). */
  files: RegExp;
  /** Blank lines written between an import block or a definition and the next definition. */
  blankLines: number;
  /**
   * The statement importing `names` from `specifier`; `like` is the import line it follows, when
   * there is one (an `export … from` line is followed by another).
   */
  statement(specifier: string, names: readonly string[], like?: string): string;
  /**
   * The specifier of `target` as written in `file`. `like` is a specifier to write it like (the
   * one it replaces, or one of the file's own absolute ones), `files` every path of the repo.
   */
  specifier(file: string, target: string, like: string | null, files: Iterable<string>): string;
  /**
   * The text a new file of the language starts with, from the text of the file the definition
   * leaves (Go's `package` clause).
   * @default none
   */
  header?(source: string): string;
  /**
   * For a language whose imports bind one package name used qualified (`name.X`: Go): the name
   * an import line binds and the line the new file writes for it. The moved lines need an import
   * when they write its name qualified.
   * @default none: imports bind the names they list, or a module name
   */
  packageImport?(line: string, specifier: string): { name: string; text: string };
}

/**
 * Framework and runtime conventions of a language, as data: which definitions something outside
 * the code graph calls (a runtime, a test runner, a framework, a library's users).
 */
export interface LivenessRules {
  /** Functions the runtime starts or calls by name: Go's `main` and `init`, C's `main`. */
  entryNames?: RegExp;
  /**
   * Methods a runtime, protocol or framework calls by name on any object: Python's dunder
   * methods, `toString`, Go's `String` and `Error`, `ServeHTTP`.
   */
  hookMethods?: RegExp;
  /**
   * Methods the language's HTTP server calls by name, which make their type a request handler
   * (Go's `ServeHTTP` of `net/http.Handler`): entry points that `get_signal_chains` starts from.
   */
  httpHandlerMethods?: RegExp;
  /** Functions, methods and classes of test files that the test runner discovers by name. */
  testNames?: RegExp;
  /**
   * A decorator or annotation (its text, `@` and arguments included) that registers the symbol
   * with a framework: a route, a fixture, a command, a signal receiver, an injected bean, an
   * override.
   */
  registeringDecorators?: RegExp;
  /**
   * How a definition is exported from its unit: `capitalized` (Go: an upper-case first letter),
   * `keyword` (its signature matches {@linkcode exportKeyword}: JS/TS `export`, Rust `pub`,
   * Java `public`), `public_name` (every name without a leading `_`, narrowed by an export list
   * such as Python's `__all__`), `none` (a language without modules: everything is shared).
   */
  exports: "capitalized" | "keyword" | "public_name" | "none";
  /** The signature of an exported definition (with `exports: "keyword"`). */
  exportKeyword?: RegExp;
  /**
   * A file's list of exported names as a quoted-name list (`__all__ = ["a", "b"]`): group 1 is
   * the list's text. When a file has one, only the names in it are exported.
   */
  exportList?: RegExp;
  /**
   * Paths whose exports do not leave the repo (Go's `internal/`, a `_private` Python module): an
   * exported definition there counts as used only when something in the repo uses it.
   */
  internalPath?: RegExp;
  /**
   * Files the runtime or a tool starts from by their path (`__main__.py`, `manage.py`,
   * `conftest.py`, `main.go`): entry points even when nothing imports them.
   */
  entryFiles?: RegExp;
  /**
   * Text of a file that starts it as a program (`if __name__ == "__main__"`, `package main`):
   * an entry point even when nothing imports it.
   */
  entryText?: RegExp;
  /**
   * Code reaching definitions by a computed name (reflection, `getattr`, `obj[name]`,
   * `reflect.`): where a file matches, a definition whose name it writes in a string is alive.
   */
  dynamicAccess?: RegExp;
  /**
   * Files that declare code defined elsewhere (Python's `.pyi` stubs, TypeScript's `.d.ts`):
   * their definitions are never weighed as dead.
   */
  declarationFiles?: RegExp;
}

/** The liveness rules of a language that declares none: no convention, everything shared. */
export const NO_LIVENESS_RULES: LivenessRules = { exports: "none" };

/**
 * The semantics of a language that declares none: a module per file, no implicit `this`, names
 * public, guesses by name across the repo within the family (the language's own id), the usual
 * instance and base receivers of every language, `name: Type` parameters, keyword base lists, the
 * imported names as module names, no re-exports.
 */
export const DEFAULT_SEMANTICS: LanguageSemantics = {
  family: "",
  unit: "module",
  classScope: false,
  folderClasses: false,
  closedScope: false,
  privacy: "public",
  qualifiedImports: false,
  selfNames: ["self", "this", "cls", "$this", "Self", "static", "@"],
  superNames: ["super", "super()", "parent"],
  classReceivers: true,
  parameterTypes: "name_colon_type",
  bases: "keywords",
  colonBasesByKind: false,
  moduleBinding: "names",
  byNameReach: 8,
};

/** What a language's files hold (see {@linkcode LanguageSpec.content}). */
export type ContentKind = "code" | "document" | "data";

/**
 * The bare module specifier of a grammar's `.wasm` file: a spec's `grammarModule`, or by default
 * `tree-sitter-wasms/out/tree-sitter-<grammar>.wasm`.
 */
export function grammarSpecifier(grammar: string, module?: string): string {
  return module ?? `tree-sitter-wasms/out/tree-sitter-${grammar}.wasm`;
}
