import type { GrammarSpec } from "../language_spec.ts";
import { C_FAMILY_CALLS, C_FAMILY_IMPORTS, cFamilyDefinitions } from "./c_family_queries.ts";
import { OBJC_COMPLEXITY } from "../complexity/c_family.ts";

/** Method definitions and declarations, named by the first selector keyword. */
function _methods(node: string, kind: string, extra = "", parents: string[] = []): string {
  const wrap = (p: string) => parents.reduceRight((inner, parent) => `(${parent} ${inner})`, p);
  return `
${wrap(`(${node} . (method_type) . (identifier) @name ${extra}) @definition.${kind}`)}
${wrap(`(${node} . (identifier) @name ${extra}) @definition.${kind}`)}
`;
}

/**
 * Objective-C (`.m`; `.h` headers go to C++, as in the reference). A class's `@interface` (with a
 * superclass) and its `@implementation` are classes (both in one file: `~1`, `~2`); class
 * extensions `@interface C ()`, categories `@interface C (Cat)` and category implementations
 * scope their methods under `C` without being symbols. `@protocol`s are types, with their method
 * declarations as methods; `@interface` method declarations are prototypes and not symbols.
 * Methods are named by their first selector keyword (`greet:style:` is `greet`). C functions,
 * `struct`/`union`/`enum`/`typedef` types, `#define` and top-level `const` constants are as in C.
 * `__attribute__((...))` on a method is a decorator. Imports: `#import`, `#include`,
 * `@import Module;`. Calls: C calls and messages `[receiver selector:...]` (callee: the first
 * selector keyword). Doc comments: comments directly above.
 */
export const objc: GrammarSpec = {
  id: "objc",
  extensions: [".m"],
  grammar: "objc",
  definitions: cFamilyDefinitions([], [
    ["struct_specifier", "type"],
    ["union_specifier", "type"],
    ["enum_specifier", "type"],
  ], ["identifier"]) + `
(translation_unit (declaration declarator: (init_declarator declarator: (pointer_declarator
  (type_qualifier) @_const declarator: (identifier) @name))) @definition.constant
  (#eq? @_const "const"))
(class_interface . (identifier) @name superclass: (_)) @definition.class
(class_interface . (identifier) @name !superclass) @container
(class_implementation . (identifier) @name !category) @definition.class
(class_implementation . (identifier) @name category: (_)) @container
(protocol_declaration . (identifier) @name) @definition.type
` + _methods("method_definition", "method", "(compound_statement) @body") + `
(method_definition (attribute_specifier) @decorator) @definition.method
` + _methods("method_declaration", "method", "", ["protocol_declaration"]) +
    _methods("method_declaration", "method", "", [
      "protocol_declaration",
      "qualified_protocol_interface_declaration",
    ]),
  imports: C_FAMILY_IMPORTS + `
(module_import path: (_) @import.source) @import
`,
  calls: C_FAMILY_CALLS + `
(message_expression receiver: (_) @receiver . method: (identifier) @name) @reference.call
`,
  docComments: { nodeTypes: ["comment"], wrapperTypes: ["implementation_definition"] },
  resolver: "c",
  complexity: OBJC_COMPLEXITY,
};
