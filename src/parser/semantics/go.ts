import { DEFAULT_SEMANTICS, type LanguageSemantics, type LivenessRules } from "../language_spec.ts";
import { GO_IMPORTS } from "../import_writers/go.ts";

/**
 * Go's liveness conventions: `main` and `init` are run by the runtime; the methods of the standard
 * interfaces (`String`, `Error`, `ServeHTTP`, `MarshalJSON`, …) are called through them; `Test*`,
 * `Benchmark*`, `Fuzz*` and `Example*` functions are run by `go test`; a `ServeHTTP` method makes
 * its type an HTTP handler; capitalized names of
 * packages outside `internal/` and outside `package main` are the package's API; `reflect`
 * reaches methods and fields by name.
 */
export const GO_LIVENESS: LivenessRules = {
  entryNames: /^(?:main|init)$/,
  hookMethods:
    /^(?:String|GoString|Error|Format|Unwrap|Is|As|ServeHTTP|Read|Write|Close|ReadFrom|WriteTo|Seek|Len|Less|Swap|Push|Pop|MarshalJSON|UnmarshalJSON|MarshalText|UnmarshalText|MarshalBinary|UnmarshalBinary|MarshalXML|UnmarshalXML|Scan|Value|Timeout|Temporary)$/,
  httpHandlerMethods: /^ServeHTTP$/,
  testNames: /^(?:Test|Benchmark|Fuzz|Example)/,
  exports: "capitalized",
  internalPath: /(?:^|\/)internal(?:\/|$)|(?:^|\/)testdata\//,
  entryText: /^package\s+main\b/m,
  dynamicAccess: /\breflect\.|\.MethodByName\(|\.FieldByName\(/,
};

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
  liveness: GO_LIVENESS,
  importWriter: GO_IMPORTS,
  reservedWords:
    /^(?:break|case|chan|const|continue|default|defer|else|fallthrough|for|func|go|goto|if|import|interface|map|package|range|return|select|struct|switch|type|var)$/,
};
