import { DEFAULT_SEMANTICS, type LanguageSemantics, type LivenessRules } from "../language_spec.ts";
import { PYTHON_IMPORTS } from "../import_writers/python.ts";

/**
 * Python's liveness conventions: dunder methods and unittest/pytest hooks are called by the
 * runtime; `test*` functions, `Test*` classes and their `test*` methods are discovered; a decorator
 * other than the wrapping ones (`@property`, `@staticmethod`, `@functools.wraps`, …) registers
 * the function (a route, a fixture, a command, a receiver); public names (no leading `_`, or those
 * of `__all__`) of modules outside `_private` paths are the package's API; `__main__.py`,
 * `manage.py`, `setup.py`, `conftest.py` and files testing `__name__ == "__main__"` are entry
 * points; `getattr`/`import_module` reach names written in strings.
 */
export const PYTHON_LIVENESS: LivenessRules = {
  hookMethods:
    /^(?:__\w+__|setUp|tearDown|setUpClass|tearDownClass|setUpModule|tearDownModule|setUpTestData|asyncSetUp|asyncTearDown|setup_method|teardown_method|setup_class|teardown_class|setup_module|teardown_module|setup_function|teardown_function|pytest_\w+)$/,
  testNames: /^(?:test|Test)/,
  registeringDecorators:
    /^@(?!(?:staticmethod|classmethod|property|abc\.abstractmethod|abstractmethod|abc\.abstractproperty|functools\.\w+|wraps|lru_cache|cache|cached_property|typing\.overload|overload|typing\.final|final|override|dataclasses?\.dataclass|dataclass|contextlib\.\w+|contextmanager|asynccontextmanager|total_ordering)\b(?!\.))/,
  exports: "public_name",
  exportList: /^__all__\s*(?::[^=\n]*)?\+?=\s*[\[(]([^\])]*)[\])]/m,
  internalPath: /(?:^|\/)_(?!_)[^/]*(?:\/|$)/,
  entryFiles: /(?:^|\/)(?:__main__|manage|setup|conftest|wsgi|asgi|noxfile|fabfile)\.py$/,
  entryText: /^if\s+__name__\s*==\s*["']__main__["']/m,
  declarationFiles: /\.pyi$/,
  dynamicAccess:
    /\b(?:getattr|hasattr|setattr|delattr|__import__|import_module|import_string)\s*\(/,
};

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
  moduleBinding: "dotted_path_or_names",
  reexportFile: /(?:^|\/)__init__\.pyi?$/,
  attributeUses: true,
  codeRunners: ["exec"],
  submodules: ["{}.py", "{}/__init__.py", "{}.pyi", "{}/__init__.pyi"],
  liveness: PYTHON_LIVENESS,
  importWriter: PYTHON_IMPORTS,
  reservedWords:
    /^(?:False|None|True|and|as|assert|async|await|break|class|continue|def|del|elif|else|except|finally|for|from|global|if|import|in|is|lambda|nonlocal|not|or|pass|raise|return|try|while|with|yield)$/,
};
