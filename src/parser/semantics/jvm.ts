import { DEFAULT_SEMANTICS, type LanguageSemantics, type LivenessRules } from "../language_spec.ts";

/**
 * Java's liveness conventions (and C#'s, Dart's, Swift's, C++'s, which share the class model):
 * `main` starts a program; `toString`, `equals`, `hashCode`, `compareTo`, `run`, `call`, `close`
 * and the serialization hooks are called by the runtime; annotations other than the compiler's
 * own (`@Override` included: a call through the base reaches it) register the symbol; `public`
 * and `protected` members are the API; reflection reaches names written in strings.
 */
export const JVM_LIVENESS: LivenessRules = {
  entryNames: /^main$/,
  hookMethods:
    /^(?:toString|equals|hashCode|compareTo|compare|clone|finalize|run|call|close|iterator|hasNext|next|get|apply|accept|test|readObject|writeObject|readResolve|writeReplace|readObjectNoData|ToString|Equals|GetHashCode|Dispose|CompareTo)$/,
  testNames: /^(?:test|Test)|Tests?$/,
  registeringDecorators: /^@(?!(?:SuppressWarnings|SafeVarargs|FunctionalInterface|Deprecated)\b)/,
  exports: "keyword",
  exportKeyword: /\b(?:public|protected)\b/,
  dynamicAccess:
    /\b(?:getMethod|getDeclaredMethod|getField|getDeclaredField|forName|newInstance)\s*\(/,
};

/** Kotlin's and Scala's: as Java's, with members public unless declared otherwise. */
export const KOTLIN_LIVENESS: LivenessRules = {
  ...JVM_LIVENESS,
  exportKeyword: /^(?![^(]*\b(?:private|internal|protected\[this\])\b)/,
};

/**
 * Java, Kotlin and Scala (one family: they call each other): class members are in scope
 * unqualified (implicit `this`), the classes of the file's package (its folder) without an import,
 * and a name found nowhere of those is a library's; `Type name` (or `name: Type`) parameters.
 */
export const JVM_SEMANTICS: LanguageSemantics = {
  ...DEFAULT_SEMANTICS,
  family: "jvm",
  classScope: true,
  folderClasses: true,
  closedScope: true,
  selfNames: ["this"],
  superNames: ["super"],
  parameterTypes: "type_name",
  liveness: JVM_LIVENESS,
};

/** Kotlin: as Java; in a `:` base list the base's kind tells a superclass from an interface. */
export const KOTLIN_SEMANTICS: LanguageSemantics = {
  ...JVM_SEMANTICS,
  colonBasesByKind: true,
  liveness: KOTLIN_LIVENESS,
};

/** Scala: as Java; `extends A with B with C` extends every name of the chain. */
export const SCALA_SEMANTICS: LanguageSemantics = {
  ...JVM_SEMANTICS,
  bases: "keyword_chains",
  liveness: KOTLIN_LIVENESS,
};

/**
 * C#: as Java (namespaces are folders by convention), its own family; `base.` calls the base
 * class; in a `:` base list the base's kind tells a class from an interface.
 */
export const CSHARP_SEMANTICS: LanguageSemantics = {
  ...JVM_SEMANTICS,
  family: "csharp",
  superNames: ["base", "super"],
  colonBasesByKind: true,
};

/** Dart: as Java, its own family (`extends`, `with` mixins, `implements`). */
export const DART_SEMANTICS: LanguageSemantics = {
  ...JVM_SEMANTICS,
  family: "dart",
  // Dart's privacy is the name: `_private`, everything else public.
  liveness: { ...JVM_LIVENESS, exports: "public_name" },
};

/** Swift: as Java, its own family; `self`/`Self`; a `:` list's base kind tells class or protocol. */
export const SWIFT_SEMANTICS: LanguageSemantics = {
  ...JVM_SEMANTICS,
  family: "swift",
  selfNames: ["self", "Self"],
  colonBasesByKind: true,
};

/** C++: as Java, its own family; `this`; a `:` base list extends. */
export const CPP_SEMANTICS: LanguageSemantics = {
  ...JVM_SEMANTICS,
  family: "cpp",
  // Linkage, headers and templates decide what another translation unit uses: every definition
  // counts as shared.
  liveness: { ...JVM_LIVENESS, exports: "none" },
};
