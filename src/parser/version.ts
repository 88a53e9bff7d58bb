/**
 * The version of what the parser extracts from a file's bytes. Bump it whenever a change to the
 * queries, the extractor or the import resolvers changes the records of a file whose bytes did not
 * change: an index written by another version is then rebuilt in full on its next index, instead
 * of keeping the old records of every unchanged file (incremental indexing re-parses only files
 * whose content hash changed).
 *
 * History: 1 before this existed (indexes without the key); 2 keeps blank lines between
 * line-comment doc paragraphs, qualifies C++ `a::B::C::f` fully, and resolves Lua, Dart, Zig,
 * Solidity and Bash imports; 3 adds 22 languages (docs, configuration, Vue/Svelte/HTML `<style>`),
 * text-only files, JavaScript object-literal methods and Haddock/Elm doc comments; 4 resolves a
 * Go import of a module's root package (`import "github.com/gin-gonic/gin"` inside gin); 5 parses
 * SQL, Perl with the maintained grammar, SCSS with tree-sitter-grammars' grammar, names
 * PowerShell's `function global:f` `f`, reads a Haskell binding after a pragma, splits Perl's
 * `qw(...)` import lists, writes a name over several lines on one line (CSS selector lists), and
 * adds 11 languages (Emacs Lisp, XML and DTD, `.properties` — XML and `.properties` were text only —
 * ReScript, TLA+, SPARQL, SystemRDL, Talon, ERB, EJS) with `<!-- -->` and TLA+ `\*` doc comments;
 * 6 names both members of a chained JavaScript assignment (`res.set = res.header = function
 * header() {}` → `res.set` and `res.header`, siblings) and a function defined by a call
 * `f(obj, "name", function () {})` (`defineGetter(req, "ip", …)` → `req.ip`);
 * 7 adds the `field`, `property` and `variable` kinds and the languages of issue 31 (GraphQL,
 * Protocol Buffers, Dockerfile, OpenAPI and Ansible through their npm parsers; Erlang, F#, Luau,
 * Apex, Common Lisp, Pascal, Blade, Arduino... through tree-sitter);
 * 8 adds D (tree-sitter) and 14 languages read by our own scanners (Fortran, Ada, VHDL, Tcl, Nim,
 * assembly, AutoHotkey, AL, MATLAB, Less, Sass, Stylus, Verse, Razor), which were text only;
 * 9 attaches a doc comment separated from its definition by blank lines where the language's
 * tools do (JSDoc/TSDoc and Javadoc `/**`, Rust `///`);
 * 10 reads Rust items inside item-level macro bodies (`cfg_rt! { ... }`), JavaScript/TypeScript
 * module-level bindings (constant, variable) and assigned properties, TypeScript schema factories
 * (type), Go struct fields (field) and top-level `var`s (variable);
 * 11 measures the complexity of functions and methods (cyclomatic, nesting, parameters:
 * `src/parser/complexity/`);
 * 12 reads VHDL package instances (`package p is new g ...;`) and operator aliases (`alias "and"`),
 * and in assembly `.Lname:` local labels, glibc/Linux `ENTRY (f)` and `SYM_FUNC_START(f)`
 * functions, `#define` and `#include` lines (no longer `#` comments), and no `.set macro` or C
 * `typedef struct` as a MASM macro or struct;
 * 13 reads COBOL (our scanner: programs, sections, paragraphs, data items; text only before), and
 * JavaScript/TypeScript class fields that are no function (field), TypeScript interface
 * properties (field), enum members (constant) and `declare var`/`declare const` (variable,
 * constant); in Go every name of a multi-name `var`, `const` or struct field declaration;
 * 14 binds Python's `import a.b as d` to `d` (names `* as d`, as an ECMAScript namespace import)
 * and resolves a checkout that is itself a Python package by its folder's name (`django.db` →
 * `db/` in a folder `django`; `email.utils` stays external instead of the repo's `utils/`);
 * 15 reads what a grammar leaves in `ERROR` nodes with the spec's `errorScanner` (SCSS: rules,
 * mixins, functions, variables, imports and `@include` calls tree-sitter-scss loses to `-$x`,
 * `> .a,` selector lists and `@if $a or $b`), names a JavaScript/TypeScript binding through a
 * chained assignment by its variable (`var app = module.exports = express()`: `app`), and reads
 * Make variables assigned in either branch of a top-level conditional;
 * 16 measures a curried JavaScript/TypeScript arrow (`const f = (a) => (b) => …`) on its outer
 * function, as ESLint does (it measured the inner one), and counts a TypeScript optional call
 * `f?.()` as a path;
 * 17 gives a decorator's call (`@app.get("/x")`) to the symbol around the decorated definition
 * (or the file), where it runs, instead of to the decorated definition (Solidity's modifier
 * invocations, which run with the body, stay the function's: `decoratorsRunWithBody`);
 * 18 reads the members of issue 31 in C, C++, Objective-C, Java, Rust, Ruby and Protocol Buffers:
 * C-family struct/union/class data members (field), enumerators (constant), file-level and
 * namespace-level variables (variable; `const` ones constant, in `#if` branches too) and
 * function-like macros (function); Java fields that are not `static final` (field), enum and
 * interface constants (constant); Rust struct and union fields (field) and enum variants
 * (constant); Ruby `attr_*` names (field) and `alias`/`alias_method` (method); the `.proto`
 * `package` (class).
 *
 * 19: C++ files are parsed with their export/attribute macros, namespace-opening macro lines and
 * one-line block-opening `#else` branches blanked (`parseBlanks`); C++ members with a default value
 * (field; `const`/`constexpr` ones constant).
 *
 * 20: Markdown is read by our CommonMark block scanner (`extractors/markdown.ts`) instead of the
 * tree-sitter block grammar: the same symbol records, but a file the grammar reported `partial`
 * (its "syntax errors" in tables and HTML: Markdown has none) is `ok`.
 */
export const EXTRACTOR_VERSION = 20;
