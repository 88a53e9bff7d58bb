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

/** Functions (through pointer/reference declarators), typedefs, `#define` constants. */
export function cFamilyDefinitions(
  typeParents: readonly string[],
  specifiers: readonly [string, string][],
  functionNames: readonly string[],
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
    `(translation_unit (declaration (type_qualifier) @_const
  declarator: (init_declarator declarator: (identifier) @name)) @definition.constant
  (#eq? @_const "const"))`,
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
