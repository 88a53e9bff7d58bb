import { DEFAULT_SEMANTICS, type LanguageSemantics } from "../language_spec.ts";

/**
 * JavaScript, TypeScript and the component formats that embed them (one family: a `.ts` file
 * calls `.js` functions): a module per file; `this` (and `self`, the `var self = this` idiom);
 * `name: Type` parameters; `extends`/`implements`; `* as ns` and bare `require("./x")` bind module
 * names; an `index.*` barrel and any `export … from` line pass on what they import; objects built
 * by assignment (`res.render = function`) own their methods, `exports.f` is the module's `f`.
 */
export const ECMASCRIPT_SEMANTICS: LanguageSemantics = {
  ...DEFAULT_SEMANTICS,
  family: "ecmascript",
  selfNames: ["this", "self"],
  superNames: ["super"],
  moduleBinding: "ecmascript",
  reexportFile: /(?:^|\/)index\.(?:[cm]?[jt]sx?|vue)$/,
  reexportLine: /^\s*export\b/,
  prototypeObjects: true,
  exportObjects: ["exports", "module.exports"],
};
