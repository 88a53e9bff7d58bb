import type { GrammarSpec } from "../language_spec.ts";
import {
  C_FAMILY_CALLS,
  C_FAMILY_DOC_COMMENTS,
  C_FAMILY_IMPORTS,
  cFamilyDefinitions,
} from "./c_family_queries.ts";
import { C_COMPLEXITY } from "../complexity/c_family.ts";

/**
 * C (`.c`; headers `.h` go to C++, as in the reference). Function definitions → function;
 * `struct`, `union`, `enum` with a body and `typedef`s → type (a struct defined inside a typedef
 * is the typedef's symbol); a struct's or union's data members → field and an enum's enumerators
 * → constant, qualified by their type; `#define NAME value` and file-level `const` variables →
 * constant, other file-level variables → variable (`extern` declarations are not definitions);
 * function-like macros (`#define SQUARE(x) ...`) → function. A `#define NAME` without a value is
 * a flag, not a symbol. Prototypes are not definitions. Imports are `#include`s.
 */
export const c: GrammarSpec = {
  id: "c",
  extensions: [".c"],
  grammar: "c",
  definitions: cFamilyDefinitions([], [
    ["struct_specifier", "type"],
    ["union_specifier", "type"],
    ["enum_specifier", "type"],
  ], ["identifier"]),
  imports: C_FAMILY_IMPORTS,
  calls: C_FAMILY_CALLS,
  docComments: C_FAMILY_DOC_COMMENTS,
  resolver: "c",
  complexity: C_COMPLEXITY,
};
