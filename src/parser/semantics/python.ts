import { DEFAULT_SEMANTICS, type LanguageSemantics } from "../language_spec.ts";

/**
 * Python: a module per file; `self`/`cls` and `super()`; parameter hints `name: Type`; bases in
 * parentheses; `import a.b` binds `a.b` and `from a import b` binds `b`; `__init__.py` passes on
 * what it imports; `from pkg import c` imports the module `pkg/c.py` when there is one.
 */
export const PYTHON_SEMANTICS: LanguageSemantics = {
  ...DEFAULT_SEMANTICS,
  family: "python",
  selfNames: ["self", "cls"],
  superNames: ["super", "super()"],
  bases: "parenthesized",
  moduleBinding: "python",
  reexportFile: /(?:^|\/)__init__\.pyi?$/,
  attributeUses: true,
  submodules: ["{}.py", "{}/__init__.py", "{}.pyi", "{}/__init__.pyi"],
};
