import type { GrammarSpec } from "../language_spec.ts";
import { CPP_SEMANTICS } from "../semantics/jvm.ts";
import {
  C_FAMILY_CALLS,
  C_FAMILY_DOC_COMMENTS,
  C_FAMILY_IMPORTS,
  cFamilyDefinitions,
  cppMemberDefaults,
} from "./c_family_queries.ts";
import { CPP_COMPLEXITY } from "../complexity/c_family.ts";

/** An all-caps macro word with a `_` (`PROTOBUF_EXPORT`), and its `(...)` arguments. */
const _MACRO = String.raw`[A-Z][A-Z0-9]*_[A-Z0-9_]*(?:\([^()\n]*\))?`;
/** The attribute-like macro words: export, inline, `[[nodiscard]]`, thread-safety annotations. */
const _ATTRIBUTE_MACRO =
  String.raw`[A-Z][A-Z0-9_]*_(?:EXPORT\w*|NODISCARD|\w*INLINE|ATTRIBUTE_\w+|` +
  String.raw`CONSTEXPR|DEPRECATED|THREAD_LOCAL|COLD|RETURNS_NONNULL|FUTURE_FINAL|\w*CAPABILITY|` +
  String.raw`ACQUIRE|RELEASE|\w*LOCKS_REQUIRED|ALIGNAS)\b(?:\([^()\n]*\))?`;
/** An `#else` branch of one line that opens a block, and its `#endif`. */
const _ELSE_OPENS_BLOCK = String
  .raw`^[ \t]*#[ \t]*else\b[^\n]*\n[^\n#]*\{[ \t]*\n[ \t]*#[ \t]*endif\b[^\n]*`;
/**
 * Macros the grammar cannot parse, blanked (`parseBlanks`): any macro word between
 * `class`/`struct`/`union` and the name (`class PROTOBUF_EXPORT Foo`) or between the name and its
 * bases or body (`Foo PROTOBUF_FUTURE_FINAL : public Bar`), attribute-like macros outside
 * preprocessor lines (`PROTOBUF_NODISCARD bool Parse();`), and a line of only a namespace-opening
 * or -closing macro (`PROTOBUF_NAMESPACE_OPEN`). Also an `#else` branch of one line opening a block
 * (`#ifdef A` / `if (a && b) {` / `#else` / `if (a) {` / `#endif`): the grammar reads both
 * branches, one `{` too many, and loses the rest of the file: the directives and the `#else`
 * branch are blanked, the first branch is read as plain code.
 */
const _MACRO_BLANKS = new RegExp(
  [
    String.raw`(?<=\b(?:class|struct|union)\s+)${_MACRO}(?=\s+(?!final\b)[A-Za-z_])`,
    String
      .raw`(?<=\b(?:class|struct|union)\s+(?:${_MACRO}\s+)?[A-Za-z_]\w*\s+)${_MACRO}(?=\s*[:{])`,
    String.raw`\b${_ATTRIBUTE_MACRO}(?<!^[ \t]*#[^\n]*)`,
    String.raw`^[A-Z][A-Z0-9_]*_(?:OPEN|CLOSE|BEGIN|END)(?=[ \t]*$)`,
    String.raw`^[ \t]*#[ \t]*if(?:n?def)?\b[^\n]*(?=\n(?:[^\n#]*\n)+?${_ELSE_OPENS_BLOCK})`,
    _ELSE_OPENS_BLOCK,
  ].join("|"),
  "gm",
);

/**
 * C++ (and `.h` headers). Everything of C, plus `class` → class (struct, union, enum → type, as
 * in the reference); functions defined in a class body, and out-of-line `Class::method`
 * definitions, → method qualified by the full scope chain (`geo.Shape.area`); `namespace`
 * qualifies names without being a symbol, and its variables are file-level ones (variable, or
 * constant when `const`); data members → field; `using X = ...` → type; templates document and wrap
 * their definition. Calls include `ns::f()` and `obj.f()`.
 */
export const cpp: GrammarSpec = {
  id: "cpp",
  extensions: [".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".h", ".ipp", ".tpp"],
  grammar: "cpp",
  definitions: cFamilyDefinitions(
    ["declaration_list", "template_declaration"],
    [
      ["class_specifier", "class"],
      ["struct_specifier", "type"],
      ["union_specifier", "type"],
      ["enum_specifier", "type"],
    ],
    ["identifier", "field_identifier", "destructor_name", "operator_name"],
    ["declaration_list"],
  ) + cppMemberDefaults() + `
(function_definition declarator: (function_declarator declarator: (qualified_identifier
  scope: (_) @scope name: [(identifier) (destructor_name) (operator_name)] @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator
  declarator: (qualified_identifier scope: (_) @scope
    name: [(identifier) (destructor_name) (operator_name)] @name)))) @definition.function
(function_definition declarator: (reference_declarator (function_declarator
  declarator: (qualified_identifier scope: (_) @scope
    name: [(identifier) (destructor_name) (operator_name)] @name)))) @definition.function
(function_definition declarator: (function_declarator declarator: (qualified_identifier
  name: (qualified_identifier
    name: [(identifier) (destructor_name) (operator_name)] @name)) @scope)) @definition.function
(function_definition declarator: (function_declarator declarator: (qualified_identifier
  name: (qualified_identifier name: (qualified_identifier
    name: [(identifier) (destructor_name) (operator_name)] @name))) @scope)) @definition.function
(function_definition declarator: (function_declarator declarator: (qualified_identifier
  name: (qualified_identifier name: (qualified_identifier name: (qualified_identifier
    name: [(identifier) (destructor_name) (operator_name)] @name)))) @scope)) @definition.function
(alias_declaration name: (type_identifier) @name) @definition.type
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @namespace
`,
  parseBlanks: _MACRO_BLANKS,
  imports: C_FAMILY_IMPORTS,
  calls: C_FAMILY_CALLS + `
(call_expression function: (qualified_identifier scope: (_) @receiver
  name: (identifier) @name)) @reference.call
(call_expression function: (template_function name: (identifier) @name)) @reference.call
(call_expression function: (qualified_identifier scope: (_) @receiver
  name: (template_function name: (identifier) @name))) @reference.call
(call_expression function: (qualified_identifier
  name: (qualified_identifier scope: (_) @receiver name: (identifier) @name))) @reference.call
`,
  docComments: { ...C_FAMILY_DOC_COMMENTS, wrapperTypes: ["template_declaration"] },
  resolver: "c",
  semantics: CPP_SEMANTICS,
  complexity: CPP_COMPLEXITY,
};
