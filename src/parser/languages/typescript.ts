import type { GrammarSpec } from "../language_spec.ts";
import { ECMASCRIPT_SEMANTICS } from "../semantics/ecmascript.ts";
import { TYPESCRIPT_COMPLEXITY } from "../complexity/ecmascript.ts";
import {
  ECMASCRIPT_CALLS,
  ECMASCRIPT_DEFINITIONS,
  ECMASCRIPT_DOC_COMMENTS,
  ECMASCRIPT_IMPORTS,
  TYPESCRIPT_DEFINITIONS,
  TYPESCRIPT_FACTORIES,
} from "./ecmascript_queries.ts";

/**
 * TypeScript: everything of JavaScript, plus `interface`, `type` aliases and `enum` → type;
 * `abstract class` → class; overload and ambient `function` signatures → function (overloads get
 * `~N`); interface method signatures and abstract methods → method; `namespace X {}` qualifies
 * the names inside it (`X.f`) without being a symbol; class fields that are no function and
 * interface properties → field, enum members → constant, `declare var`/`declare const` → variable,
 * constant.
 */
export const typescript: GrammarSpec = {
  id: "typescript",
  extensions: [".ts", ".mts", ".cts", ".d.ts"],
  grammar: "typescript",
  definitions: ECMASCRIPT_DEFINITIONS + TYPESCRIPT_DEFINITIONS + TYPESCRIPT_FACTORIES,
  imports: ECMASCRIPT_IMPORTS,
  calls: ECMASCRIPT_CALLS,
  docComments: ECMASCRIPT_DOC_COMMENTS,
  resolver: "javascript",
  semantics: ECMASCRIPT_SEMANTICS,
  complexity: TYPESCRIPT_COMPLEXITY,
};
