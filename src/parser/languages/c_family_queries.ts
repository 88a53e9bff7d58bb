/**
 * Query text shared by the C and C++ entries (the C++ grammar extends the C one). Not a language
 * entry itself.
 */

/** Parents where a `struct`/`union`/`enum` with a body is a definition of its own (not a typedef's). */
const _TYPE_PARENTS = [
  "translation_unit",
  "preproc_if",
  "preproc_ifdef",
  "preproc_else",
  "preproc_elif",
];

function _taggedTypes(parents: readonly string[], specifiers: readonly [string, string][]): string {
  return parents.flatMap((parent) =>
    specifiers.map(([node, kind]) =>
      `(${parent} (${node} name: (_) @name body: (_) @body) @definition.${kind})`
    )
  ).join("\n") + "\n" + specifiers.flatMap(([node, kind]) => [
    `(declaration type: (${node} name: (_) @name body: (_) @body) @definition.${kind})`,
    `(field_declaration type: (${node} name: (_) @name body: (_) @body) @definition.${kind})`,
  ]).join("\n");
}

/**
 * A declarator naming `name` (a node type): the name itself, through one or two pointers, an
 * array, an initializer (`= 1`, for `identifier`) or a function pointer (`(*cb)(int)`).
 */
function _declarators(name: string): string {
  const bare = `(${name}) @name`;
  const shapes = [
    bare,
    `(pointer_declarator declarator: ${bare})`,
    `(pointer_declarator declarator: (pointer_declarator declarator: ${bare}))`,
    `(array_declarator declarator: ${bare})`,
    `(array_declarator declarator: (array_declarator declarator: ${bare}))`,
    `(function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: ${bare})))`,
  ];
  const all = name === "identifier"
    ? [...shapes, ...shapes.map((d) => `(init_declarator declarator: ${d})`)]
    : shapes;
  return `[${all.join(" ")}]`;
}

/**
 * Data members of a `struct`/`union`/`class` body → field, each name of `int a, *b;` its own
 * symbol (the declaration is the symbol of a single name; one of several, its declarator).
 * Member function prototypes (`void f();`) are not data members.
 */
function _fields(): string {
  const d = _declarators("field_identifier");
  return [
    `(field_declaration_list (field_declaration type: (_) . declarator: ${d} .) @definition.field)`,
    `(field_declaration_list (field_declaration type: (_) . declarator: ${d} .
  [(bitfield_clause) (initializer_list)]) @definition.field)`,
    `(field_declaration_list (field_declaration declarator: ${d} @definition.field .
  declarator: (_)))`,
    `(field_declaration_list (field_declaration declarator: (_) .
  declarator: ${d} @definition.field))`,
  ].join("\n");
}

/**
 * C++'s data members with a default value (`int x = 0;`, `Mutex mu_{};`) → field; a `const` or
 * `constexpr` one (`static constexpr int kMax = 8;`) → constant. (C has no `default_value`.)
 */
export function cppMemberDefaults(): string {
  const d = _declarators("field_identifier");
  const decl = (kind: string) =>
    `(field_declaration_list (field_declaration type: (_) . declarator: ${d} .
  default_value: (_)) @definition.${kind} @_d`;
  const constant = '"^(static\\\\s+|inline\\\\s+)*(const|constexpr)\\\\b"';
  return [
    `${decl("constant")} (#match? @_d ${constant}))`,
    `${decl("field")} (#not-match? @_d ${constant}))`,
  ].join("\n");
}

/**
 * File-level (and `parents`-level) declarations of data: `const` ones → constant, others →
 * variable; `extern` declarations and prototypes are not definitions. A `#if` branch at those
 * levels counts as the level.
 */
function _variables(parents: readonly string[]): string {
  const d = _declarators("identifier");
  const at = (decl: string) =>
    parents.flatMap((p) => [
      `(${p} ${decl})`,
      ...["preproc_if", "preproc_ifdef"].flatMap((b) => [
        `(${p} (${b} ${decl}))`,
        `(${p} (${b} (preproc_else ${decl})))`,
        `(${p} (${b} (preproc_elif ${decl})))`,
      ]),
    ]);
  const pattern = (kind: string, test: string) => [
    ...at(`(declaration type: (_) . declarator: ${d} .) @definition.${kind} @_d`)
      .map((q) => `(${q} ${test})`),
    ...at(`(declaration declarator: ${d} @definition.${kind} . declarator: (_)) @_d`)
      .map((q) => `(${q} ${test})`),
    ...at(`(declaration declarator: (_) . declarator: ${d} @definition.${kind}) @_d`)
      .map((q) => `(${q} ${test})`),
  ];
  const notExtern = '(#not-match? @_d "^[^=]*\\\\bextern\\\\b")';
  return [
    ...pattern("constant", `(#match? @_d "^[^=]*\\\\bconst\\\\b") ${notExtern}`),
    ...pattern("variable", `(#not-match? @_d "^[^=]*\\\\bconst\\\\b") ${notExtern}`),
  ].join("\n");
}

/**
 * Functions (through pointer/reference declarators), typedefs, `#define` constants and
 * function-like macros, enumerators, data members, file-level variables and constants
 * (`variableParents`: where else a declaration is file-level, C++ namespace bodies).
 */
export function cFamilyDefinitions(
  typeParents: readonly string[],
  specifiers: readonly [string, string][],
  functionNames: readonly string[],
  variableParents: readonly string[] = [],
): string {
  const _FUNCTION_NAMES = `[${functionNames.map((n) => `(${n})`).join(" ")}]`;
  const declarators = [
    `(function_declarator declarator: ${_FUNCTION_NAMES} @name)`,
    `(pointer_declarator declarator: (function_declarator declarator: ${_FUNCTION_NAMES} @name))`,
    `(pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: ${_FUNCTION_NAMES} @name)))`,
  ];
  if (functionNames.includes("destructor_name")) {
    declarators.push(
      `(reference_declarator (function_declarator declarator: ${_FUNCTION_NAMES} @name))`,
    );
  }
  return [
    ...declarators.map((d) => `(function_definition declarator: ${d}) @definition.function`),
    "(function_definition body: (_) @body) @definition.function",
    _taggedTypes([..._TYPE_PARENTS, ...typeParents], specifiers),
    "(type_definition declarator: [(type_identifier) (primitive_type)] @name) @definition.type",
    "(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name)) @definition.type",
    "(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @definition.type",
    "(preproc_def name: (identifier) @name value: (_)) @definition.constant",
    "(preproc_function_def name: (identifier) @name) @definition.function",
    "(enumerator_list (enumerator name: (identifier) @name) @definition.constant)",
    _fields(),
    _variables(["translation_unit", ...variableParents]),
  ].join("\n");
}

export const C_FAMILY_IMPORTS = `
(preproc_include path: [(string_literal) (system_lib_string)] @import.source) @import
`;

export const C_FAMILY_CALLS = `
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression argument: (_) @receiver
  field: (field_identifier) @name)) @reference.call
`;

export const C_FAMILY_DOC_COMMENTS = { nodeTypes: ["comment"] };
