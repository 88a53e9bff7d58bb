import { DEFAULT_SEMANTICS, type LanguageSemantics } from "../language_spec.ts";

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
};

/** Kotlin: as Java; in a `:` base list the base's kind tells a superclass from an interface. */
export const KOTLIN_SEMANTICS: LanguageSemantics = { ...JVM_SEMANTICS, colonBasesByKind: true };

/** Scala: as Java; `extends A with B with C` extends every name of the chain. */
export const SCALA_SEMANTICS: LanguageSemantics = { ...JVM_SEMANTICS, bases: "keyword_chains" };

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
export const DART_SEMANTICS: LanguageSemantics = { ...JVM_SEMANTICS, family: "dart" };

/** Swift: as Java, its own family; `self`/`Self`; a `:` list's base kind tells class or protocol. */
export const SWIFT_SEMANTICS: LanguageSemantics = {
  ...JVM_SEMANTICS,
  family: "swift",
  selfNames: ["self", "Self"],
  colonBasesByKind: true,
};

/** C++: as Java, its own family; `this`; a `:` base list extends. */
export const CPP_SEMANTICS: LanguageSemantics = { ...JVM_SEMANTICS, family: "cpp" };
