/**
 * `deno task bench languages [--lang a,b] [--corpora c1,c2] [--roots dir1,dir2] [--per-lang N]
 * [--misses N] [--json FILE]`:
 * every language of the registry on real files, and our recall of Universal Ctags' definitions.
 *
 * Files: each language's conformance fixture, plus real-world files of that language found under
 * `corpora/` (or only its `--corpora` folders) and the `--roots` folders (package trees on this
 * machine: Perl's library, `/usr/share/dpkg`, the npm cache...), at most `--per-lang` of them
 * (default 150) in path order.
 * Each file is parsed in this thread; the table gives files, bytes, symbols, partial and skipped
 * files and the parse rate.
 *
 * Recall (where ctags knows the language): the share of ctags' definitions of the kinds in
 * `CTAGS` (by file and name) that we also extract. Names are compared after `normalize`
 * (ctags writes `%placeholder` and `$var` for SCSS, `Shape = A | B` for an Elm type); for CSS
 * selectors a ctags selector matches a rule of ours whose selector list contains it (ctags splits
 * `.a, .b` into two tags, we keep the rule whole). Definitions ctags invents or we do not claim to
 * extract are left out by the kind lists; the quirks are in `src/parser/LANGUAGES.md`.
 */
import { posix } from "node:path";
import {
  isGrammarSpec,
  languageForPath,
  languageForSource,
  LANGUAGES,
  parseSource,
} from "../src/parser/mod.ts";
import { loadLanguage } from "../src/parser/loader.ts";
import { DEFINING_MACROS } from "../src/parser/extractors/asm.ts";
import { loadAverages, markdownTable, parseFlags, writeJson } from "./bench_util.ts";
import { compileIncludes } from "./compile.ts";

/** The ctags kinds of C counted (and of C++, with its classes). */
const _C_KINDS = [
  "function",
  "macro",
  "struct",
  "union",
  "enum",
  "enumerator",
  "typedef",
  "member",
  "variable",
];

/** ctags' language name and the kinds that count as definitions, per registry id. */
const CTAGS: Record<
  string,
  {
    language: string;
    kinds: string[];
    contains?: boolean;
    localScopes?: string[];
    /** Our name as ctags spells it, where it differs (ctags drops a label's leading `.`). */
    ours?: (name: string) => string;
    /** More ctags arguments (`--map-COBOL=+.cpy`: ctags maps no extension to copybooks). */
    args?: string[];
    /** Files ctags cannot read (free-form COBOL: ctags 5.9 reads the fixed form only). */
    skip?: (text: string) => boolean;
  }
> = {
  clojure: { language: "Clojure", kinds: ["function"] },
  css: { language: "CSS", kinds: ["class", "id", "selector"], contains: true },
  dtd: {
    language: "DTD",
    kinds: ["element", "attribute", "entity", "parameterEntity", "notation"],
  },
  elisp: {
    language: "EmacsLisp",
    kinds: [
      "function",
      "macro",
      "subst",
      "inline",
      "alias",
      "minorMode",
      "derivedMode",
      "variable",
      "const",
      "custom",
      "face",
      "group",
    ],
  },
  elm: { language: "Elm", kinds: ["function", "type", "alias", "port"] },
  // The kinds of issue 31 included: module-level constants and variables, assigned properties,
  // struct fields (member) and interface methods (methodSpec).
  go: {
    language: "Go",
    kinds: [
      "func",
      "const",
      "type",
      "var",
      "member",
      "methodSpec",
      "struct",
      "interface",
      "talias",
    ],
  },
  javascript: {
    language: "JavaScript",
    kinds: [
      "function",
      "class",
      "method",
      "property",
      "constant",
      "variable",
      "generator",
      "getter",
      "setter",
      "field",
    ],
  },
  typescript: {
    language: "TypeScript",
    kinds: [
      "function",
      "class",
      "interface",
      "enum",
      "enumerator",
      "method",
      "property",
      "variable",
      "constant",
      "alias",
      "generator",
    ],
    // (Not `namespace`: a namespace qualifies the names inside it, as in C++; no symbol here.)
  },
  haskell: { language: "Haskell", kinds: ["function", "type"] },
  html: { language: "HTML", kinds: ["id"] },
  json: { language: "JSON", kinds: ["object"] },
  julia: { language: "Julia", kinds: ["function", "struct", "type", "macro", "constant"] },
  make: { language: "Make", kinds: ["target", "macro"] },
  markdown: {
    language: "Markdown",
    kinds: ["chapter", "section", "subsection", "subsubsection", "l4subsection", "l5subsection"],
  },
  properties: { language: "JavaProperties", kinds: ["key"] },
  perl: { language: "Perl", kinds: ["subroutine", "package", "constant"] },
  powershell: { language: "PowerShell", kinds: ["function", "class", "method", "enum"] },
  xml: { language: "XML,XSLT", kinds: ["id", "namedTemplate"] },
  sql: {
    language: "SQL",
    kinds: ["table", "view", "function", "procedure", "index", "trigger"],
  },
  r: { language: "R", kinds: ["function"] },
  fortran: {
    language: "Fortran",
    kinds: [
      "program",
      "module",
      "submodule",
      "subroutine",
      "function",
      "type",
      "interface",
      "blockData",
      "component",
      "variable",
      "entry",
      "method",
      "common",
    ],
  },
  ada: {
    language: "Ada",
    kinds: [
      "packspec",
      "package",
      "subprogspec",
      "subprogram",
      "type",
      "subtype",
      "component",
      "literal",
      "constant",
      "variable",
      "exception",
      "task",
      "taskspec",
      "protected",
      "protectspec",
      "entry",
    ],
    // Declarations inside a subprogram body or a `declare` block are locals (not symbols here).
    localScopes: ["anon", "subprogram", "entry", "task"],
  },
  vhdl: {
    language: "VHDL",
    kinds: [
      "entity",
      "architecture",
      "package",
      "process",
      "function",
      "procedure",
      "type",
      "subtype",
      "record",
      "constant",
      "signal",
      "alias",
    ],
  },
  tcl: { language: "Tcl,TclOO", kinds: ["procedure", "namespace", "class", "method"] },
  asm: {
    language: "Asm",
    kinds: ["define", "label", "macro", "type"],
    ours: (name) => name.replace(/^\./, ""),
  },
  // Divisions and the standard sections (`WORKING-STORAGE`...) are containers here, no symbols
  // (see `ctagsName`).
  cobol: {
    language: "COBOL",
    kinds: ["program", "section", "paragraph", "data", "group", "fd"],
    args: ["--map-COBOL=+.cpy", "--map-COBOL=+.CPY"],
    skip: (text) => /^\s*>>\s*SOURCE\s+(?:FORMAT\s+)?(?:IS\s+)?FREE\b/im.test(text),
  },
  d: {
    language: "D",
    kinds: [
      "class",
      "struct",
      "union",
      "interface",
      "enum",
      "enumerator",
      "function",
      "template",
      "alias",
      "variable",
      "member",
    ],
  },
  matlab: { language: "MatLab", kinds: ["function", "class"] },
  latex: {
    language: "Tex",
    kinds: [
      "part",
      "chapter",
      "section",
      "subsection",
      "subsubsection",
      "paragraph",
      "subparagraph",
      "label",
      "command",
    ],
  },
  // Languages with real files in the code corpora (issue 31): their definitions, members and
  // module-level bindings. Not counted: ctags' references (headers, imports, Python's
  // `namespace`/`unknown`, Ruby's `library`, Bash's `script`), Bash heredoc labels (data),
  // Rust `implementation` (an `impl` block qualifies its methods: a container here) and `module`
  // (`mod x;` is an import of `x.rs` here, an inline `mod x { }` qualifies nothing), C++ and
  // Java namespaces and packages (they qualify the names inside them, no symbol here, as
  // TypeScript's `namespace`).
  bash: { language: "Sh", kinds: ["function", "alias"] },
  c: { language: "C", kinds: _C_KINDS },
  // C++'s are C's and its classes.
  // ctags writes an operator with a space (`operator ==`, `operator []`): both sides drop it
  // (a conversion `operator bool` keeps its space).
  cpp: { language: "C++", kinds: ["class", ..._C_KINDS], ours: _operatorName },
  java: {
    language: "Java",
    kinds: ["class", "interface", "enum", "enumConstant", "annotation", "method", "field"],
  },
  python: { language: "Python", kinds: ["class", "function", "member", "variable"] },
  rust: {
    language: "Rust",
    kinds: [
      "function",
      "method",
      "struct",
      "enum",
      "enumerator",
      "interface",
      "typedef",
      "field",
      "variable",
      "macro",
    ],
  },
  proto: {
    language: "Protobuf",
    kinds: [
      "package",
      "message",
      "field",
      "enum",
      "enumerator",
      "oneof",
      "service",
      "rpc",
      "group",
    ],
  },
  ruby: {
    language: "Ruby",
    kinds: ["class", "module", "method", "singletonMethod", "constant", "accessor", "alias"],
  },
  scss: {
    language: "SCSS",
    kinds: ["class", "id", "selector", "placeholder", "mixin", "function"],
    contains: true,
  },
};

const ROOT = new URL("../", import.meta.url).pathname;

/** `operator ==` as `operator==` (ctags' spelling of C++ operators; see `CTAGS.cpp`). */
function _operatorName(name: string): string {
  return name.replace(/^operator\s+(?=[^\w\s])/, "operator");
}

/** A name as both sides spell it: no SCSS sigil, no surrounding quotes, one space per gap. */
function normalize(name: string): string {
  return name.replace(/^[%$]/, "").replace(/^"(.*)"$/, "$1").replace(/\s+/g, " ").trim();
}

/**
 * ctags' quirks, undone before comparing: an Elm type is named with its constructors
 * (`Shape = Circle Float | Square Float`); a CSS selector loses a leading attribute selector
 * (`[dir="rtl"] .x` is `.x`); JSON objects in arrays are named by their index (`0`), which no
 * symbol of ours is (array elements are not sections); a Haskell `class` declaration gives a
 * function named `class`; SCSS decimals are classes (`.5`) and interpolated selectors are cut; an
 * Elm `let` binding is a function; R's anonymous functions are named `anonFunc<hex>`; a Perl
 * `sub A::B::f` is named `A`.
 */
function ctagsName(language: string, name: string, pattern = "", kind = ""): string | null {
  // ctags names a Tcl namespace or proc by its absolute name (`::aes`, `::aes::Init`): ours is
  // the last part.
  if (language.startsWith("Tcl")) return name.replace(/^.*::/, "");
  // ctags' VHDL parser tags, besides the alias itself, every name after `is` in an alias with a
  // signature (`alias BREAD is READ [LINE, BIT_VECTOR];` gives BREAD, and READ, LINE and
  // BIT_VECTOR as aliases too, on the signature's line when it has one of its own): only the
  // name declared after `alias` is one.
  if (language === "VHDL" && kind === "alias") {
    const declared = /^\/\^\s*alias\s+("[^"]*"|\\[^\\]*\\|[A-Za-z][\w]*)/i.exec(pattern)?.[1];
    if (
      declared === undefined || normalize(declared).toLowerCase() !== normalize(name).toLowerCase()
    ) {
      return null;
    }
  }
  if (language === "COBOL") return _cobolName(name, pattern, kind);
  if (language === "C" || language === "C++") {
    // ctags names an anonymous struct, union or enum `__anon<hex>`.
    if (/^__anon[0-9a-f]+$/.test(name)) return null;
    if (language === "C++") name = _operatorName(name);
    // A `#define NAME` with no value (an include guard, `_GNU_SOURCE`) is a flag for `#if`s:
    // no symbol here (a `#define NAME value` is a constant, `#define F(x) ...` a function).
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (
      kind === "macro" &&
      new RegExp(String.raw`^\/\^\s*#\s*define\s+${escaped}\s*(?:(?:\/\*.*|\/\/.*))?\$?\/$`)
        .test(pattern)
    ) return null;
  }
  // ctags tags an `attr_writer`/`attr_accessor` name twice, the writer as `name=`: one field here.
  if (language === "Ruby" && kind === "accessor") return normalize(name.replace(/=$/, ""));
  if (language === "JavaScript" || language === "TypeScript") {
    return _ecmascriptName(language, name, pattern, kind);
  }
  if (language === "Asm") {
    const asm = _asmName(name, pattern, kind);
    return asm === null ? null : normalize(asm);
  }
  if (language === "Elm") {
    // Elm's top-level definitions start in column 0; an indented one is a `let` binding inside
    // a function, which ctags tags as a function and we leave out (locals are not symbols).
    if (/^\/\^\s/.test(pattern)) return null;
    // A type or alias is named with its type variables (`Page model msg`) and constructors.
    return normalize(name.replace(/\s*=[\s\S]*$/, "").replace(/\s[\s\S]*$/, ""));
  }
  // ctags names a Perl sub with a qualified name (`sub A::B::f`) by its first part (`A`).
  if (language === "Perl") {
    const qualified = /^\/\^\s*sub\s+([\w:']+)/.exec(pattern)?.[1];
    if (qualified?.startsWith(`${name}::`)) return qualified;
  }
  // ctags names R's anonymous functions (`function(x) ...` passed as an argument) `anonFunc<hex>`.
  if (language === "R" && /^anonFunc[0-9a-f]+$/.test(name)) return null;
  if (language === "JSON" && /^\d+$/.test(name)) return null;
  // An XSLT attribute value template (`id="toc.{$id}"`) is computed when the stylesheet runs: no
  // id of the file, which ctags' XML parser tags as written.
  if (language === "XML,XSLT" && name.includes("{")) return null;
  // ctags' SCSS parser tags decimals (`.5` in `$x: .5rem`) as classes and cuts an interpolated
  // selector at `#{` (`.col-#{$bp}` is `col-`).
  if (language === "SCSS" && (/^\.\d/.test(name) || /-$/.test(name))) return null;
  // ctags' Haskell parser tags the keyword of `class X a where` as a function named `class`.
  // ctags' Haskell parser tags keywords opening a line as functions: `class`, `instance`,
  // `deriving` (standalone), `default`, `infix`/`infixl`/`infixr` (fixity declarations).
  if (
    language === "Haskell" &&
    ["class", "instance", "data", "where", "deriving", "default", "infix", "infixl", "infixr"]
      .includes(name)
  ) return null;
  return normalize(name);
}

/**
 * ctags' Asm parser takes the first word of a line starting in column 0 as a label: a
 * preprocessor macro's call (`ENTRY (memchr)`, `weak_alias (ldiv, lldiv)`), a Go assembler
 * directive (`TEXT ·feMul(SB), ...`). Where the macro or directive defines a function, the
 * function is the definition (named by its argument, as we read it: `DEFINING_MACROS`); the other
 * calls define no label. In Go's assembly it tags instruction lines as `define`s (`ADCQ DX, BX`):
 * a define counts only on a line that defines something. `.set noat` and `.set macro` are options
 * of the assembler (Alpha, MIPS), which ctags tags as a define `noat` and a macro `set`; C's
 * `typedef struct {` in a preprocessor branch is a type `typedef`. ctags names `.Lloop:` `Lloop`
 * (see `ours`).
 */
/**
 * ctags' COBOL parser (fixed form only) takes any `word.` or `word .x` as a paragraph, in area B
 * too: a statement (`ADD .3 TO X.`), the end of a data description continued on its own line
 * (`COMPUTATIONAL.`), a continued literal (`-.0000009`). A paragraph's name starts in area A
 * (columns 8-11). It also tags the fixed paragraphs of the identification and environment
 * divisions (`AUTHOR.`, `SOURCE-COMPUTER.`, `FILE-CONTROL.`), the keyword `DECLARATIVES.` opening
 * the procedure division's declaratives, and the standard sections of the
 * environment and data divisions (`WORKING-STORAGE SECTION.`), which are containers here.
 */
function _cobolName(name: string, pattern: string, kind: string): string | null {
  const line = pattern.replace(/^\/\^/, "").replace(/\$?\/$/, "");
  if (
    kind === "section" &&
    /^(?:CONFIGURATION|INPUT-OUTPUT|FILE|WORKING-STORAGE|LOCAL-STORAGE|LINKAGE|SCREEN|REPORT|COMMUNICATION)$/i
      .test(name)
  ) return null;
  if (kind === "paragraph") {
    if (line.indexOf(name) > 10) return null;
    if (
      /^(?:AUTHOR|INSTALLATION|DATE-WRITTEN|DATE-COMPILED|SECURITY|REMARKS|SOURCE-COMPUTER|OBJECT-COMPUTER|SPECIAL-NAMES|FILE-CONTROL|I-O-CONTROL|REPOSITORY|DECLARATIVES)$/i
        .test(name)
    ) return null;
  }
  return normalize(name);
}

/**
 * ctags' JavaScript and TypeScript parsers name anonymous functions and classes
 * `AnonymousFunction<hex>`; they tag an import binding (`const debug = require("debug")`, `= await
 * import(...)`), which is an import here, `const`/`let`/`var` inside a function (indented:
 * locals, not symbols here), an object literal bound to a name as a class (`const Sizable = {`,
 * a constant here), and a `type X` of an import or export list as an alias; and JavaScript's
 * tags every key of an object literal as a property (`{ port: 3000 }`: data, not symbols here;
 * its methods and functions are).
 */
const _RESERVED = new Set(
  ("as break case catch class const continue debugger default delete do else enum export extends " +
    "false finally for function if import in instanceof new null return super switch this throw " +
    "true try typeof var void while with yield let static implements interface package private " +
    "protected public await").split(" "),
);

function _ecmascriptName(
  language: string,
  name: string,
  pattern: string,
  kind: string,
): string | null {
  const line = pattern.replace(/^\/\^/, "").replace(/\$?\/$/, "");
  if (/^Anonymous(?:Function|Class)[0-9a-f]+$/.test(name)) return null;
  // A reserved word is no name (ctags' TypeScript parser tags `if`, `else`, `const`, `this`...).
  if (_RESERVED.has(name)) return null;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // An object literal bound to a name is a class to ctags (`const Sizable = {`), its keys holding
  // objects too (`array: {`).
  if (kind === "class" && /^\s+(?:const|let|var)\s/.test(line)) return null;
  if (kind === "class" && new RegExp(`^\\s*["']?${escaped}["']?\\s*:\\s*\\{`).test(line)) {
    return null;
  }
  // A `type X` in an import or export list (`import { type ZodIssue, ...}`) is an alias to it.
  if (kind === "alias" && !new RegExp(`\\b${escaped}\\b[^=]*=`).test(line)) return null;
  // Where ctags' parser loses its way (a type predicate `x is core.T`, `instanceof core.X`), it
  // tags a word of the line that the line does not declare (`is`, `core`).
  const declared = new RegExp(
    String
      .raw`(?:^|[^\w$.])["']?${escaped}["']?\s*[?!]?\s*(?:[:=(<,;{]|$)|\b(?:class|interface|enum|namespace|module|type|function\*?|const|let|var|get|set|async|static|readonly|declare|abstract|public|private|protected|export)\s+\*?${escaped}\b`,
  );
  if (!declared.test(line)) return null;
  if (kind === "constant" || kind === "variable") {
    if (/=\s*(?:require\s*\(|(?:await\s+)?import\s*\()/.test(line)) return null;
    if (/^\s/.test(line)) return null;
  }
  if (language === "JavaScript" && kind === "property") {
    if (new RegExp(`(?:^|[{,\\s])["']?${escaped}["']?\\s*:`).test(line)) return null;
  }
  return normalize(name);
}

const _AT_LINE_START = new RegExp(`^${DEFINING_MACROS.source}`);

function _asmName(name: string, pattern: string, kind: string): string | null {
  const line = pattern.replace(/^\/\^/, "").replace(/\$?\/$/, "").replace(/\\\//g, "/");
  if (kind === "label") {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (new RegExp(`^\\s*\\.?${escaped}\\s*:`).test(line)) return name;
    const text = /^TEXT\s+(?:[\w./]*\u00b7)?(?<name>[\w.]+)(?:<[^>]*>)?\(SB\)/.exec(line);
    return text?.groups?.name ?? _AT_LINE_START.exec(line)?.groups?.name ?? null;
  }
  // (MIPS: `.set noreorder`, `.set arch=r4000`, a comment after it.)
  if (/^\s*\.set\s+[\w.]+(?:=[\w.]+)?\s*(?:(?:#|;|@|\/\/|\/\*).*)?$/.test(line)) return null;
  // C declarations in a preprocessor branch of a `.S` file (glibc's `typedef struct {`): a type
  // named `typedef`.
  if (kind === "type" && /^\s*typedef\b/.test(line)) return null;
  // (An `=` in a trailing comment is no definition: `ANDQ DX, BX // x = |x|`.)
  const code = line.replace(/\s(?:\/\/|;).*$/, "");
  if (kind === "define" && !/define|assign|\bequ\b|\.equiv?\b|\.set\b|=/i.test(code)) return null;
  return name;
}

/**
 * Whether a ctags selector is one of our rule's selectors, or a whole part of one: ctags tags a
 * compound `.nav-link.active` or `.active > .nav-link` also as `.active`.
 */
function _inSelectors(ours: string, theirs: string): boolean {
  const want = normalize(theirs.replace(/\[[^\]]*\]\s*/g, ""));
  return selectors(ours).some((s) => {
    if (s === want) return true;
    for (let i = s.indexOf(want); i !== -1; i = s.indexOf(want, i + 1)) {
      const after = s[i + want.length];
      if (after === undefined || !/[A-Za-z0-9_-]/.test(after)) return true;
    }
    return false;
  });
}

/** The selectors of a CSS rule of ours, without attribute selectors (see `ctagsName`). */
function selectors(name: string): string[] {
  return name.split(/\s*,\s*/).map((s) =>
    // A nested `&.active` is `.active` to ctags.
    normalize(s.replace(/\[[^\]]*\]\s*/g, "")).replace(/^&(?=[.#:])/, "")
  );
}

async function _walk(dir: string, out: string[], depth = 0): Promise<void> {
  // Debian package trees are deep (`usr/share/gocode/src/github.com/...`).
  if (depth > 24) return;
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    const p = posix.join(dir, e.name);
    if (e.isDirectory && e.name !== ".git") await _walk(p, out, depth + 1);
    else if (e.isFile) out.push(p);
  }
}

interface Row {
  language: string;
  files: number;
  realFiles: number;
  bytes: number;
  symbols: number;
  partial: number;
  skipped: number;
  /** Data files over the spec's `maxSymbolBytes`: indexed as text only. */
  textOnly: number;
  ms: number;
  ctagsDefinitions: number | null;
  matched: number | null;
  missed: string[];
}

/**
 * The grammar `.wasm` bytes a `deno compile` binary embeds (`compileIncludes`), by source: the
 * binary's growth from grammars, measured without building it (`denort` may be unreachable).
 */
export function embeddedGrammarBytes(): { source: string; files: number; bytes: number }[] {
  const bySource = new Map<string, { source: string; files: number; bytes: number }>();
  for (const path of compileIncludes()) {
    if (!path.endsWith(".wasm") || path.includes("web-tree-sitter")) continue;
    const parts = path.split("/");
    // node_modules/<pkg or @scope/pkg>/..., or grammars/ (the grammars we build).
    const source = parts[0] === "grammars"
      ? "grammars/ (built by us)"
      : parts.slice(1, parts[1]!.startsWith("@") ? 3 : 2).join("/");
    const row = bySource.get(source) ?? { source, files: 0, bytes: 0 };
    row.files++;
    row.bytes += Deno.statSync(posix.join(ROOT, path)).size;
    bySource.set(source, row);
  }
  return [...bySource.values()].sort((a, b) => b.bytes - a.bytes);
}

/** Extensions some language claims by content (`.m`: MATLAB or Objective-C; `.yaml`: OpenAPI). */
const _BY_CONTENT = new Set(LANGUAGES.flatMap((l) => l.detect?.extensions ?? []));

/** A file's language as the indexer decides it: by path, and by content where that decides. */
async function _languageOf(file: string): Promise<string | undefined> {
  const dot = file.lastIndexOf(".");
  const ext = dot === -1 ? "" : file.slice(dot).toLowerCase();
  if (!_BY_CONTENT.has(ext)) return languageForPath(file)?.id;
  const head = await Deno.open(file).then(async (f) => {
    const buf = new Uint8Array(4096);
    const n = await f.read(buf);
    f.close();
    return buf.subarray(0, n ?? 0);
  });
  return languageForSource(file, head)?.id;
}

/** ctags definitions of the counted kinds, as `path\tname\tkind`. */
async function _ctags(
  language: string,
  kinds: string[],
  files: string[],
  localScopes: string[] = [],
  extra: string[] = [],
): Promise<string[]> {
  if (files.length === 0) return [];
  const out = await new Deno.Command("ctags", {
    args: [
      "--output-format=json",
      "--fields=+nK",
      `--languages=${language}`,
      ...extra,
      "-f",
      "-",
      ...files,
    ],
    stdout: "piped",
    stderr: "null",
  }).output();
  const found: string[] = [];
  // ctags cuts a long line's pattern (`/^  A_very_long_name_.../`): the quirks read the whole line.
  const sources = new Map<string, string[]>();
  const sourceLine = (path: string, line: number | undefined, pattern: string | undefined) => {
    if (line === undefined) return pattern;
    if (!sources.has(path)) sources.set(path, Deno.readTextFileSync(path).split("\n"));
    const text = sources.get(path)![line - 1];
    return text === undefined ? pattern : `/^${text.replace(/\r$/, "")}$/`;
  };
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    if (line.trim() === "") continue;
    const tag = JSON.parse(line) as {
      path?: string;
      name?: string;
      kind?: string;
      pattern?: string;
      scopeKind?: string;
      line?: number;
    };
    if (tag.path === undefined || tag.name === undefined || !kinds.includes(tag.kind ?? "")) {
      continue;
    }
    if (tag.scopeKind !== undefined && localScopes.includes(tag.scopeKind)) continue;
    const name = ctagsName(
      language,
      tag.name,
      sourceLine(tag.path, tag.line, tag.pattern),
      tag.kind,
    );
    if (name !== null) found.push(`${tag.path}\t${name}\t${tag.kind}`);
  }
  return found;
}

export async function main(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  const only = flags.get("lang")?.split(",");
  const perLang = Number(flags.get("per-lang") ?? 150);
  const showMisses = Number(flags.get("misses") ?? 8);
  // `--corpora languages,gostd`: only these folders of `corpora/` (default: all of it).
  const corpora = flags.get("corpora")?.split(",").map((c) => posix.join(ROOT, "corpora", c)) ??
    [posix.join(ROOT, "corpora")];
  const roots = [...corpora, ...(flags.get("roots")?.split(",") ?? [])];
  const byLanguage = new Map<string, string[]>();
  for (const root of roots) {
    const files: string[] = [];
    await _walk(root, files);
    for (const f of files) {
      const id = await _languageOf(f);
      if (id === undefined) continue;
      const list = byLanguage.get(id) ?? [];
      if (list.length < perLang) list.push(f);
      byLanguage.set(id, list);
    }
  }
  const rows: Row[] = [];
  for (const spec of LANGUAGES) {
    if (only !== undefined && !only.includes(spec.id)) continue;
    if (isGrammarSpec(spec)) await loadLanguage(spec);
    const fixture: string[] = [];
    await _walk(posix.join(ROOT, "fixtures/languages", spec.id), fixture);
    const real = byLanguage.get(spec.id) ?? [];
    const ids = await Promise.all(fixture.map(_languageOf));
    const files = [...fixture.filter((_, i) => ids[i] === spec.id), ...real];
    const row: Row = {
      language: spec.id,
      files: files.length,
      realFiles: real.length,
      bytes: 0,
      symbols: 0,
      partial: 0,
      skipped: 0,
      textOnly: 0,
      ms: 0,
      ctagsDefinitions: null,
      matched: null,
      missed: [],
    };
    const ours = new Map<string, string[]>();
    for (const f of files) {
      const bytes = await Deno.readFile(f);
      row.bytes += bytes.length;
      const t = performance.now();
      const r = await parseSource(f, bytes);
      row.ms += performance.now() - t;
      row.symbols += r.symbols.length;
      if (r.status === "partial") row.partial++;
      // Skipped files (minified, too large) and data files (indexed as text only) are left out
      // of the recall: we never extract their symbols, by design.
      if (r.status === "skipped") row.skipped++;
      else if (r.reason?.startsWith("data file") === true) row.textOnly++;
      else if (CTAGS[spec.id]?.skip?.(new TextDecoder().decode(bytes)) !== true) {
        ours.set(f, r.symbols.map((s) => normalize(CTAGS[spec.id]?.ours?.(s.name) ?? s.name)));
      }
    }
    const peer = CTAGS[spec.id];
    if (peer !== undefined) {
      const defs = await _ctags(
        peer.language,
        peer.kinds,
        [...ours.keys()],
        peer.localScopes,
        peer.args,
      );
      row.ctagsDefinitions = defs.length;
      row.matched = 0;
      for (const d of defs) {
        const [path, name, kind] = d.split("\t") as [string, string, string];
        const names = ours.get(path) ?? [];
        const hit = peer.contains
          ? names.some((n) => n === name || _inSelectors(n, name))
          : names.includes(name);
        if (hit) row.matched++;
        else if (row.missed.length < showMisses) {
          row.missed.push(`${posix.basename(path)}:${name} (${kind})`);
        }
      }
    }
    rows.push(row);
  }
  console.log(`load average: ${loadAverages()}`);
  console.log(markdownTable(
    [
      "language",
      "files (real)",
      "KB",
      "symbols",
      "partial",
      "skipped",
      "text only",
      "MB/s",
      "ctags defs",
      "recall",
    ],
    rows.map((r) => [
      r.language,
      `${r.files} (${r.realFiles})`,
      r.bytes / 1024,
      r.symbols,
      r.partial,
      r.skipped,
      r.textOnly,
      r.ms > 0 ? r.bytes / 1e6 / (r.ms / 1000) : null,
      r.ctagsDefinitions,
      r.ctagsDefinitions ? `${((100 * r.matched!) / r.ctagsDefinitions).toFixed(1)}%` : null,
    ]),
  ));
  const embedded = embeddedGrammarBytes();
  const total = embedded.reduce((a, e) => a + e.bytes, 0);
  console.log(
    `\nembedded grammars (deno compile): ${embedded.reduce((a, e) => a + e.files, 0)} files, ` +
      `${(total / 1e6).toFixed(2)} MB, loaded lazily (a language the first time a file of it is ` +
      `parsed)`,
  );
  console.log(markdownTable(
    ["source", "files", "MB"],
    embedded.map((e) => [e.source, e.files, e.bytes / 1e6]),
  ));
  for (const r of rows) {
    if (r.missed.length > 0) {
      console.log(`${r.language} misses (first ${showMisses}): ${r.missed.join(", ")}`);
    }
  }
  await writeJson(flags, { rows, embedded });
}

if (import.meta.main) await main(Deno.args);
