import { DEFAULT_SEMANTICS, type LanguageSemantics } from "../language_spec.ts";

/**
 * Go: a package is a folder (every file of it is in scope, an import names the folder); a name in
 * lower case is visible only inside its package, and a name of another package is always written
 * `pkg.Name`; no classes: a method's receiver variable (from its signature) means its type;
 * `name Type` parameters; bases are the embedded fields and interfaces of a struct or interface;
 * an import binds the last segment of its path. A name not found in the package or its imports is
 * a builtin or a library's, and a call through an unknown receiver guesses across the repo only
 * when one definition has the name.
 */
export const GO_SEMANTICS: LanguageSemantics = {
  ...DEFAULT_SEMANTICS,
  family: "go",
  unit: "package_folder",
  closedScope: true,
  privacy: "capitalized",
  qualifiedImports: true,
  selfNames: [],
  superNames: [],
  receiverParameter: /^func\s*\(\s*([\w]+)\s/,
  classReceivers: false,
  parameterTypes: "name_type",
  bases: "embedding",
  bodyBaseWords: ["struct", "interface"],
  moduleBinding: "path_tail",
  byNameReach: 1,
};
