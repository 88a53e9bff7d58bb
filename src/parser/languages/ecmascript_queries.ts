/**
 * Query text shared by the JavaScript, TypeScript and TSX entries (the TypeScript grammars extend
 * the JavaScript one). Not a language entry itself.
 */

/** A function-valued member of an object literal: `index(req, res) {}`, `show: function () {}`. */
const _OBJECT_MEMBER = `[(method_definition name: (_) @name body: (_) @body)
  (pair key: (_) @name value: [(function_expression !name body: (_) @body)
    (arrow_function body: (_) @body)])] @definition.method`;

/** An object literal holding at least one function. */
const _OBJECT_WITH_FUNCTIONS = `(object [(method_definition)
  (pair value: [(function_expression) (arrow_function)])])`;

/**
 * Object literals used as modules or controllers: a top-level binding of one (`const User =
 * {...}`, also `let`/`var`, exported or not) is a constant, and the function-valued members of an
 * object bound to a variable or assigned (`module.exports = {...}`, `X.prototype = {...}`) are
 * methods (`User.index`; of no parent when the object has no name).
 */
const _OBJECT_LITERAL_FUNCTIONS = `
(program [(lexical_declaration . (variable_declarator name: (identifier) @name
    value: ${_OBJECT_WITH_FUNCTIONS} @body))
  (variable_declaration . (variable_declarator name: (identifier) @name
    value: ${_OBJECT_WITH_FUNCTIONS} @body))] @definition.constant)
(export_statement (lexical_declaration . (variable_declarator name: (identifier) @name
    value: ${_OBJECT_WITH_FUNCTIONS} @body)) @definition.constant)
(variable_declarator value: (object ${_OBJECT_MEMBER}))
(assignment_expression right: (object ${_OBJECT_MEMBER}))
`;

/** A value that is no function, class or assignment (those are other definitions). */
const _PLAIN_VALUE = `[(string) (number) (template_string) (object) (array) (identifier)
  (member_expression) (subscript_expression) (new_expression) (true) (false) (null) (undefined)
  (binary_expression) (ternary_expression) (unary_expression) (regex) (await_expression)]`;

/** A class field's value that is data (a function-valued field is a method). */
const _FIELD_VALUE = _PLAIN_VALUE.replace("]", " (call_expression)]");
const _TS_FIELD_VALUE = _FIELD_VALUE.replace("]", " (as_expression) (satisfies_expression)]");

/** A `let`/`var` value that is a variable: a plain value but an object literal, or a call. */
const _LET_VALUE = _PLAIN_VALUE.replace("(object) ", "").replace("]", " (call_expression)]");

/**
 * Module-level bindings and assigned properties that are no functions: a top-level `const` →
 * constant (`const registry = new WeakMap()`, a config object; a call's result too, except
 * `require(...)`, which is an import), `let`/`var` → variable (not an object literal: one holding
 * functions is a constant above), also through a chained assignment (`var app = module.exports =
 * express()`: `app`), `x.y = value` at the top level → property (`exports.version = "1"`,
 * `app.mountpath = "/"`; not `module.exports = ...` or `X.prototype = ...`). Only the first
 * declarator of a declaration counts.
 */
const _MODULE_BINDINGS = `
(program (lexical_declaration "const"
  . (variable_declarator name: (identifier) @name value: ${_PLAIN_VALUE})) @definition.constant)
(export_statement (lexical_declaration "const"
  . (variable_declarator name: (identifier) @name value: ${_PLAIN_VALUE})) @definition.constant)
(program (lexical_declaration "const"
  . (variable_declarator name: (identifier) @name value: (call_expression) @_value)) @definition.constant
  (#not-match? @_value "^require[ ]*[(]")
  (#not-match? @name "^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$"))
(export_statement (lexical_declaration "const"
  . (variable_declarator name: (identifier) @name value: (call_expression) @_value)) @definition.constant
  (#not-match? @_value "^require[ ]*[(]")
  (#not-match? @name "^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$"))
(program [(lexical_declaration "let" . (variable_declarator name: (identifier) @name
    value: ${_LET_VALUE} @_value))
  (variable_declaration . (variable_declarator name: (identifier) @name value: ${_LET_VALUE} @_value))]
  @definition.variable
  (#not-match? @_value "^require[ ]*[(]"))
(program [(lexical_declaration "let" . (variable_declarator name: (identifier) @name
    value: (assignment_expression right: ${_LET_VALUE} @_value)))
  (variable_declaration . (variable_declarator name: (identifier) @name
    value: (assignment_expression right: ${_LET_VALUE} @_value)))] @definition.variable
  (#not-match? @_value "^require[ ]*[(]"))
(program (lexical_declaration "const" . (variable_declarator name: (identifier) @name
    value: (assignment_expression right: [${_PLAIN_VALUE.slice(1, -1)} (call_expression)] @_value)))
  @definition.constant
  (#not-match? @_value "^require[ ]*[(]"))
(program [(lexical_declaration "let" . (variable_declarator name: (identifier) @name !value))
  (variable_declaration . (variable_declarator name: (identifier) @name !value))] @definition.variable)
(program (expression_statement (assignment_expression
  left: (member_expression object: [(identifier) (member_expression)] @scope
    property: (property_identifier) @name)
  right: [${_PLAIN_VALUE.slice(1, -1)} (call_expression)])) @definition.property
  (#not-eq? @name "exports") (#not-eq? @name "prototype"))
`;

/**
 * TypeScript's schema factories: a PascalCase `const` bound to a method call with arguments
 * (`const User = z.object({...})`, `t.type(...)`, `Schema.Struct(...)`) is the public name of a
 * type (`express.Router()`, with none, stays a constant); `as const` and `satisfies` values are
 * constants. (In
 * JavaScript, where no type can be declared beside it, it stays a constant.)
 */
export const TYPESCRIPT_FACTORIES = `
(program (lexical_declaration "const"
  . (variable_declarator name: (identifier) @name value: (call_expression function: (member_expression) arguments: (arguments (_)))))
  @definition.type (#match? @name "^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$"))
(export_statement (lexical_declaration "const"
  . (variable_declarator name: (identifier) @name value: (call_expression function: (member_expression) arguments: (arguments (_))))) @definition.type
  (#match? @name "^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$"))
(program (lexical_declaration "const"
  . (variable_declarator name: (identifier) @name value: (call_expression function: (identifier)) @_value))
  @definition.constant (#not-match? @_value "^require[ ]*[(]")
  (#match? @name "^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$"))
(program (lexical_declaration "const"
  . (variable_declarator name: (identifier) @name
    value: (call_expression function: (member_expression) arguments: (arguments . ")"))))
  @definition.constant (#match? @name "^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$"))
(program (lexical_declaration "const"
  . (variable_declarator name: (identifier) @name value: [(as_expression) (satisfies_expression)])) @definition.constant)
(export_statement (lexical_declaration "const"
  . (variable_declarator name: (identifier) @name value: [(as_expression) (satisfies_expression)])) @definition.constant)
`;

/** JavaScript's PascalCase `const`s bound to a call: constants (see `TYPESCRIPT_FACTORIES`). */
export const JAVASCRIPT_FACTORIES = `
(program (lexical_declaration "const"
  . (variable_declarator name: (identifier) @name value: (call_expression) @_value)) @definition.constant
  (#not-match? @_value "^require[ ]*[(]")
  (#match? @name "^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$"))
(export_statement (lexical_declaration "const"
  . (variable_declarator name: (identifier) @name value: (call_expression) @_value)) @definition.constant
  (#not-match? @_value "^require[ ]*[(]")
  (#match? @name "^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$"))
`;

/** Definitions common to JavaScript and TypeScript. */
export const ECMASCRIPT_DEFINITIONS = `
(function_declaration name: (identifier) @name body: (_) @body) @definition.function
(generator_function_declaration name: (identifier) @name body: (_) @body) @definition.function
(class_declaration name: (_) @name body: (_) @body) @definition.class
(class_declaration decorator: (decorator) @decorator) @definition.class
(export_statement decorator: (decorator) @decorator declaration: (_) @definition.class)
(class_body (method_definition name: (_) @name body: (_) @body) @definition.method)
(lexical_declaration
  . (variable_declarator name: (identifier) @name
    value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)
      (generator_function body: (_) @body)])) @definition.function
(variable_declaration
  . (variable_declarator name: (identifier) @name
    value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)
      (generator_function body: (_) @body)])) @definition.function
(variable_declaration
  . (variable_declarator name: (identifier) @name
    value: (assignment_expression
      right: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]))) @definition.function
(lexical_declaration
  . (variable_declarator name: (identifier) @name
    value: (assignment_expression
      right: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]))) @definition.function
(expression_statement (call_expression arguments: (arguments . (identifier) @scope
  . (string (string_fragment) @name)
  . [(function_expression body: (_) @body) (arrow_function body: (_) @body)] .))) @definition.function
(arguments (function_expression name: (identifier) @name body: (_) @body) @definition.function)
(return_statement (function_expression name: (identifier) @name body: (_) @body) @definition.function)
(pair value: (function_expression name: (identifier) @name body: (_) @body) @definition.function)
(expression_statement (assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: (function_expression name: (identifier) @name body: (_) @body))
  (#eq? @_module "module") (#eq? @_exports "exports")) @definition.function
${_OBJECT_LITERAL_FUNCTIONS}
(expression_statement (assignment_expression
  left: (member_expression object: [(identifier) (member_expression)] @scope
    property: (property_identifier) @name)
  right: [(function_expression body: (_) @body) (arrow_function body: (_) @body)])
  (#not-eq? @name "exports")) @definition.function
(expression_statement (assignment_expression
  left: (member_expression object: [(identifier) (member_expression)] @scope
    property: (property_identifier) @name)
  right: (assignment_expression
    right: [(function_expression body: (_) @body) (arrow_function body: (_) @body)]))
  (#not-eq? @name "exports")) @definition.function
(expression_statement (assignment_expression
  right: (assignment_expression
    left: (member_expression object: [(identifier) (member_expression)] @scope
      property: (property_identifier) @name)
    right: [(function_expression body: (_) @body) (arrow_function body: (_) @body)])
    @definition.function)
  (#not-eq? @name "exports"))
(program
  (lexical_declaration "const"
    . (variable_declarator name: (identifier) @name value: (_) @_value)) @definition.constant
  (#match? @name "^[A-Z][A-Z0-9_]*$")
  (#not-match? @_value "^(async[ ]*)?(function|[(]|[A-Za-z_$][A-Za-z0-9_$]*[ ]*=>)"))
(export_statement
  (lexical_declaration "const"
    . (variable_declarator name: (identifier) @name value: (_) @_value)) @definition.constant
  (#match? @name "^[A-Z][A-Z0-9_]*$")
  (#not-match? @_value "^(async[ ]*)?(function|[(]|[A-Za-z_$][A-Za-z0-9_$]*[ ]*=>)"))
${_MODULE_BINDINGS}
`;

/** TypeScript-only definitions (types, signatures, namespaces). */
export const TYPESCRIPT_DEFINITIONS = `
(abstract_class_declaration name: (_) @name body: (_) @body) @definition.class
(abstract_class_declaration decorator: (decorator) @decorator) @definition.class
(class_body (decorator) @decorator . (method_definition) @definition.method)
(class_body (decorator) @decorator . (decorator) . (method_definition) @definition.method)
(interface_declaration name: (_) @name body: (_) @body) @definition.type
(type_alias_declaration name: (_) @name) @definition.type
(enum_declaration name: (_) @name body: (_) @body) @definition.type
(function_signature name: (identifier) @name) @definition.function
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
(construct_signature "new" @name) @definition.method
(public_field_definition name: (_) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @definition.method
(class_body (decorator) @decorator . (public_field_definition value: [(arrow_function) (function_expression)]) @definition.method)
(internal_module name: [(identifier) (nested_identifier)] @name) @namespace
(public_field_definition name: (_) @name value: ${_TS_FIELD_VALUE}) @definition.field
(public_field_definition name: (_) @name !value) @definition.field
(interface_body (property_signature name: (_) @name) @definition.field)
(ambient_declaration (variable_declaration . (variable_declarator name: (identifier) @name)))
  @definition.variable
(ambient_declaration (lexical_declaration "const" . (variable_declarator name: (identifier) @name)))
  @definition.constant
(enum_body (property_identifier) @name @definition.constant)
(enum_body (enum_assignment name: (_) @name) @definition.constant)
`;

/** JavaScript-only class fields: `handler = () => {}` → method, `count = 0`, `#cache;` → field. */
export const JAVASCRIPT_DEFINITIONS = `
(field_definition property: (property_identifier) @name
  value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)]) @definition.method
(field_definition property: [(property_identifier) (private_property_identifier)] @name
  value: ${_FIELD_VALUE}) @definition.field
(field_definition property: [(property_identifier) (private_property_identifier)] @name !value)
  @definition.field
`;

export const ECMASCRIPT_IMPORTS = `
(import_statement source: (string) @import.source) @import
(import_statement (import_clause (identifier) @import.name) source: (string) @import.source) @import
(import_statement (import_clause (named_imports (import_specifier name: (_) @import.name)))
  source: (string) @import.source) @import
(import_statement (import_clause (namespace_import) @import.name) source: (string) @import.source) @import
(export_statement source: (string) @import.source) @import
(export_statement (export_clause (export_specifier name: (_) @import.name))
  source: (string) @import.source) @import
(call_expression function: (identifier) @_require arguments: (arguments . (string) @import.source .)
  (#eq? @_require "require")) @import
(call_expression function: (import) arguments: (arguments . (string) @import.source)) @import
`;

export const ECMASCRIPT_CALLS = `
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (member_expression object: (_) @receiver
  property: (property_identifier) @name)) @reference.call
(new_expression constructor: (identifier) @name) @reference.call
(new_expression constructor: (member_expression object: (_) @receiver
  property: (property_identifier) @name)) @reference.call
`;

/** Doc comments: any comment directly above, also above `export`. */
export const ECMASCRIPT_DOC_COMMENTS = {
  nodeTypes: ["comment"],
  wrapperTypes: ["export_statement"],
  detachedPrefixes: ["/**"],
};
