import type { GrammarSpec } from "../language_spec.ts";
import { ECMASCRIPT_SEMANTICS } from "../semantics/ecmascript.ts";
import { ECMASCRIPT_COMPLEXITY } from "../complexity/ecmascript.ts";
import {
  ECMASCRIPT_CALLS,
  ECMASCRIPT_DEFINITIONS,
  ECMASCRIPT_DOC_COMMENTS,
  ECMASCRIPT_IMPORTS,
  JAVASCRIPT_DEFINITIONS,
  JAVASCRIPT_FACTORIES,
} from "./ecmascript_queries.ts";

/**
 * JavaScript (ES modules and CommonJS, JSX). `function`/generator declarations and functions bound
 * to `const`/`let`/`var` → function; `class` → class; class methods and function-valued class
 * fields → method; `a.b = function () {}` (`res.send = ...`, `Foo.prototype.bar = ...`) → method
 * qualified by the receiver, both names of `a.b = a.c = function () {}`, and `f(a, "b", function
 * () {})` (Express's `defineGetter(req, "ip", ...)`) → `a.b`; top-level UPPER_CASE `const` →
 * constant. Imports: `import`,
 * `export ... from`, `require("x")`, `import("x")`.
 */
export const javascript: GrammarSpec = {
  id: "javascript",
  extensions: [".js", ".jsx", ".mjs", ".cjs"],
  grammar: "javascript",
  definitions: ECMASCRIPT_DEFINITIONS + JAVASCRIPT_DEFINITIONS + JAVASCRIPT_FACTORIES,
  imports: ECMASCRIPT_IMPORTS,
  calls: ECMASCRIPT_CALLS,
  docComments: ECMASCRIPT_DOC_COMMENTS,
  resolver: "javascript",
  semantics: ECMASCRIPT_SEMANTICS,
  complexity: ECMASCRIPT_COMPLEXITY,
};
