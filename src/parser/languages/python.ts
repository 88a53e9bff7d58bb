import type { GrammarSpec } from "../language_spec.ts";
import { PYTHON_SEMANTICS } from "../semantics/python.ts";
import { PYTHON_COMPLEXITY } from "../complexity/scripting.ts";

/**
 * Python: functions (methods inside classes), classes, UPPER_CASE constants at module and class
 * level. Docstrings are the first string statement of a body; decorators extend the symbol range.
 */
export const python: GrammarSpec = {
  id: "python",
  extensions: [".py", ".pyi", ".pyw"],
  grammar: "python",
  definitions: `
(function_definition name: (identifier) @name body: (block) @body) @definition.function
(function_definition
  body: (block . (expression_statement . (string) @doc))) @definition.function
(class_definition name: (identifier) @name body: (block) @body) @definition.class
(class_definition
  body: (block . (expression_statement . (string) @doc))) @definition.class
(decorated_definition (decorator) @decorator definition: (function_definition) @definition.function)
(decorated_definition (decorator) @decorator definition: (class_definition) @definition.class)
(module (expression_statement
  (assignment left: (identifier) @name) @definition.constant)
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))
(class_definition body: (block (expression_statement
  (assignment left: (identifier) @name) @definition.constant))
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))
`,
  imports: `
(import_statement name: (dotted_name) @import.source) @import
(import_statement name: (aliased_import name: (dotted_name) @import.source
  alias: (identifier) @import.alias)) @import
(import_from_statement module_name: (_) @import.source
  name: (dotted_name) @import.name) @import
(import_from_statement module_name: (_) @import.source
  name: (aliased_import name: (dotted_name) @import.name)) @import
(import_from_statement module_name: (_) @import.source (wildcard_import) @import.name) @import
`,
  calls: `
(call function: (identifier) @name) @reference.call
(call function: (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.call
`,
  resolver: "python",
  semantics: PYTHON_SEMANTICS,
  complexity: PYTHON_COMPLEXITY,
};
