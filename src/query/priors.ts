/**
 * Ranking priors by file role (API.md Part A §12): library source ranks above tests, docs,
 * examples, fixtures, benchmarks, vendored and generated code. A role comes from the path alone,
 * so it is the same for every tool and costs nothing at query time.
 *
 * | role      | paths (any folder level, case-insensitive)                                      | weight |
 * |-----------|---------------------------------------------------------------------------------|--------|
 * | source    | everything else                                                                 | 1.00   |
 * | test      | `test/`, `tests/`, `__tests__/`, `spec/`, `testing/`; `test_*.py`, `*_test.go`, `*.test.ts`, `*.spec.js`, `conftest.py`, `*Test.java` | 0.55 |
 * | example   | `example/`, `examples/`, `sample(s)/`, `demo(s)/`, `tutorial/`, `docs_src/`      | 0.60   |
 * | docs      | `doc/`, `docs/`, `documentation/`; `.md`, `.rst`, `.txt`, `.adoc` files           | 0.60   |
 * | bench     | `bench/`, `benches/`, `benchmark(s)/`                                            | 0.65   |
 * | fixture   | `fixture(s)/`, `testdata/`, `test_data/`, `__fixtures__/`, `__mocks__/`, `mocks/` | 0.50   |
 * | vendor    | `vendor/`, `third_party/`, `thirdparty/`, `external/`, `node_modules/`           | 0.40   |
 * | generated | `generated/`, `gen/`; `*.pb.go`, `*_pb2.py`, `*.generated.*`, `*.min.js`, `*_gen.go`, Go's `zsyscall_*.go`-style `z*` files | 0.40 |
 *
 * A private name (`_helper`, `#field`, Go's unexported lower-case names) is weighted
 * {@linkcode PRIVATE_WEIGHT} on top of its file's role: an agent asking how to do something wants
 * the API first, the helper behind it second.
 */

/** What a file is for, as far as ranking is concerned. */
export type FileRole =
  | "source"
  | "test"
  | "example"
  | "docs"
  | "bench"
  | "fixture"
  | "vendor"
  | "generated";

/** The multiplier of each role's scores (source is 1). */
export const ROLE_WEIGHT: Readonly<Record<FileRole, number>> = {
  source: 1,
  test: 0.55,
  example: 0.6,
  docs: 0.6,
  bench: 0.65,
  fixture: 0.5,
  vendor: 0.4,
  generated: 0.4,
};

const _DIRS: readonly [FileRole, RegExp][] = [
  ["vendor", /^(?:vendor|third_party|thirdparty|external|node_modules)$/],
  ["generated", /^(?:generated|gen|__generated__)$/],
  ["fixture", /^(?:fixtures?|testdata|test_data|__fixtures__|__mocks__|mocks)$/],
  ["test", /^(?:tests?|__tests__|spec|specs|testing|test_utils|testutils)$/],
  ["example", /^(?:examples?|samples?|demos?|tutorials?|docs_src)$/],
  ["docs", /^(?:docs?|documentation)$/],
  ["bench", /^(?:bench|benches|benchmarks?)$/],
];

const _FILES: readonly [FileRole, RegExp][] = [
  [
    "generated",
    /(?:\.pb\.go|_pb2\.pyi?|_pb2_grpc\.py|\.generated\.\w+|\.min\.js|_gen\.go|\.g\.dart|^z(?:syscall|errors|types|sysnum|signal|goos|goarch|version|asm|tables)\w*\.go)$/,
  ],
  [
    "test",
    /(?:^test_.*\.py|_tests?\.py|^conftest\.py|_test\.go|\.(?:test|spec)\.[cm]?[jt]sx?|_spec\.rb|_test\.rb|Tests?\.(?:java|kt|cs|swift|scala)|_test\.(?:exs?|dart|c|cc|cpp|rs|zig|lua))$/,
  ],
  ["docs", /\.(?:md|mdx|rst|txt|adoc)$/],
];

/**
 * The role of a repo-relative path. The first matching folder (from the root down) decides, then
 * the file name.
 *
 * @example Usage
 * ```ts
 * import { equal } from "node:assert/strict";
 * import { fileRole } from "./priors.ts";
 * equal(fileRole("django/http/request.py"), "source");
 * equal(fileRole("tests/http/test_request.py"), "test");
 * equal(fileRole("src/net/http/server_test.go"), "test");
 * equal(fileRole("docs_src/tutorial/main.py"), "example");
 * equal(fileRole("vendor/golang.org/x/net/http2.go"), "vendor");
 * ```
 */
export function fileRole(path: string): FileRole {
  const parts = path.toLowerCase().split("/");
  const base = path.slice(path.lastIndexOf("/") + 1);
  for (let i = 0; i < parts.length - 1; i++) {
    for (const [role, re] of _DIRS) if (re.test(parts[i]!)) return role;
  }
  for (const [role, re] of _FILES) if (re.test(base)) return role;
  return "source";
}

/** The score multiplier of a path's role. */
export function roleWeight(path: string): number {
  return ROLE_WEIGHT[fileRole(path)];
}

/** The score multiplier of a private name (see {@linkcode isPrivateName}). */
export const PRIVATE_WEIGHT = 0.85;

/**
 * Whether a symbol name reads as private (`_helper`, `#field`, Go's lower-case names are not
 * private to the package's users but are to other packages): ranks below a public one on a tie.
 */
export function isPrivateName(name: string, language: string): boolean {
  if (name.startsWith("_") || name.startsWith("#")) return true;
  if (language === "go") {
    const c = name.charCodeAt(0);
    return c >= 97 && c <= 122; // a-z
  }
  return false;
}
