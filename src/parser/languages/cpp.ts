import type { GrammarSpec } from "../language_spec.ts";
import { CPP_SEMANTICS } from "../semantics/jvm.ts";
import {
  C_FAMILY_CALLS,
  C_FAMILY_DOC_COMMENTS,
  C_FAMILY_IMPORTS,
  cFamilyDefinitions,
} from "./c_family_queries.ts";
import { CPP_COMPLEXITY } from "../complexity/c_family.ts";

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
  ) + `
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
