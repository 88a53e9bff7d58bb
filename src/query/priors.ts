/**
 * Ranking priors (API.md Part A §12): what a file is for and what it holds, each a multiplier of
 * its symbols' scores, so that a question about code gets the project's own library source first.
 *
 * **Role** (what the file is for), from its path, at any folder depth, case-insensitive:
 *
 * | role      | paths                                                                            | weight |
 * |-----------|----------------------------------------------------------------------------------|--------|
 * | source    | everything else                                                                  | 1.00   |
 * | test      | `test/`, `tests/`, `__tests__/`, `spec/`, `testing/`; `test_*.py`, `*_test.go`, `*.test.ts`, `*.spec.js`, `conftest.py`, `*Test.java` | 0.55 |
 * | example   | `example(s)/`, `_example(s)/`, `sample(s)/`, `demo(s)/`, `tutorial(s)/`, `docs_src/` | 0.60 |
 * | docs      | `doc/`, `docs/`, `documentation/`; a file whose language holds prose (Markdown)  | 0.60   |
 * | bench     | `bench/`, `benches/`, `benchmark(s)/`                                            | 0.65   |
 * | fixture   | `fixture(s)/`, `testdata/`, `test_data/`, `__fixtures__/`, `__mocks__/`, `mocks/` | 0.50   |
 * | vendor    | `vendor/`, `_vendor/`, `vendored/`, `third_party/`, `external/`, `node_modules/`; a copied package (`vendored.ts`) | 0.40 |
 * | generated | `generated/`, `gen/`; `*.pb.go`, `*_pb2.py`, `*.generated.*`, `*.min.js`, `*_gen.go`, Go's `zsyscall_*.go`-style `z*` files | 0.40 |
 *
 * **Content** (what the file holds), from its language (`LanguageSpec.content`): code 1,
 * documents (Markdown headings, LaTeX sections) {@linkcode CONTENT_WEIGHT}`.document`,
 * configuration and data (`pyproject.toml` keys, JSON, YAML, XML) {@linkcode CONTENT_WEIGHT}`.data`.
 * A document must match about four times as well as code to rank above it. Both stay searchable:
 * a question that asks for them (`asksForContent`) or a `language` filter naming their language
 * lifts the content weight to 1, and `search_text` ranks files by role alone.
 *
 * A private name (`_helper`, `#field`, Go's unexported lower-case names) is weighted
 * {@linkcode PRIVATE_WEIGHT} on top: an agent asking how to do something wants the API first, the
 * helper behind it second.
 */
import type { ContentKind, LanguageSemantics } from "../parser/language_spec.ts";
import { languageById } from "../parser/registry.ts";

export type { ContentKind } from "../parser/language_spec.ts";

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

/**
 * The multiplier of each content kind's scores in a symbol search that did not ask for it: a
 * heading or a configuration key must match about four times as well as code to rank above it.
 */
export const CONTENT_WEIGHT: Readonly<Record<ContentKind, number>> = {
  code: 1,
  document: 0.25,
  data: 0.25,
};

/** Folder names of vendored code (any depth). */
export const VENDOR_DIR =
  /^(?:vendor|vendors|vendored|_vendor|third[_-]?party|3rdparty|external|externals|node_modules|bower_components)$/;

const _DIRS: readonly [FileRole, RegExp][] = [
  ["vendor", VENDOR_DIR],
  ["generated", /^(?:generated|gen|__generated__)$/],
  ["fixture", /^(?:fixtures?|testdata|test_data|__fixtures__|__mocks__|mocks)$/],
  ["test", /^(?:tests?|__tests__|spec|specs|testing|test_utils|testutils)$/],
  ["example", /^_?(?:examples?|samples?|demos?|tutorials?|docs_src)$/],
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
  // Prose without a language of ours (reStructuredText, AsciiDoc, text) is a document too.
  ["docs", /\.(?:md|mdx|rst|txt|adoc)$/],
];

/**
 * The role of a repo-relative path. The first matching folder (from the root down) decides, then
 * the file name, then the content of its language (a document is `docs`).
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
 * equal(fileRole("pip/_vendor/urllib3/poolmanager.py"), "vendor");
 * ```
 */
export function fileRole(path: string, content: ContentKind = "code"): FileRole {
  const parts = path.toLowerCase().split("/");
  const base = path.slice(path.lastIndexOf("/") + 1);
  for (let i = 0; i < parts.length - 1; i++) {
    for (const [role, re] of _DIRS) if (re.test(parts[i]!)) return role;
  }
  for (const [role, re] of _FILES) if (re.test(base)) return role;
  return content === "document" ? "docs" : "source";
}

/** The score multiplier of a path's role. */
export function roleWeight(path: string): number {
  return ROLE_WEIGHT[fileRole(path)];
}

/** What the files of a language hold (`code` for an unknown or text-only language of code). */
export function contentOf(language: string): ContentKind {
  return languageById(language)?.content ?? "code";
}

/** Words of a question that ask for documents: their content weight is then 1. */
const _DOCUMENT_WORDS =
  /^(?:docs?|documentation|documented|readme|guide|tutorial|heading|headings|section|sections|changelog|manual)$/;
/** Words of a question that ask for configuration or data: their content weight is then 1. */
const _DATA_WORDS =
  /^(?:config|configs|configuration|settings|toml|yaml|yml|json|xml|ini|manifest|pyproject)$/;

/**
 * The content kinds a query asks for by its words ("where is the changelog section on
 * upgrading" asks for documents; "which json key sets the port" for data) or by a `language`
 * filter naming a language of that content.
 *
 * @example Usage
 * ```ts
 * import { deepEqual } from "node:assert/strict";
 * import { asksForContent } from "./priors.ts";
 * deepEqual([...asksForContent("installation section of the docs")], ["document"]);
 * deepEqual([...asksForContent("resolve dependencies", "toml")], ["data"]);
 * deepEqual([...asksForContent("resolve dependencies")], []);
 * ```
 */
export function asksForContent(query: string, language?: string): Set<ContentKind> {
  const out = new Set<ContentKind>();
  for (const word of query.toLowerCase().split(/[^\p{L}\p{N}_.]+/u)) {
    if (_DOCUMENT_WORDS.test(word)) out.add("document");
    if (_DATA_WORDS.test(word)) out.add("data");
  }
  if (language !== undefined) {
    const kind = contentOf(language);
    if (kind !== "code") out.add(kind);
  }
  return out;
}

/** The content weight of a kind for a query that asks for `asked` (1 when asked or code). */
export function contentWeight(kind: ContentKind, asked: ReadonlySet<ContentKind>): number {
  return asked.has(kind) ? 1 : CONTENT_WEIGHT[kind];
}

/** The score multiplier of a private name (see {@linkcode isPrivateName}). */
export const PRIVATE_WEIGHT = 0.85;

/**
 * Whether a symbol name reads as private (`_helper`, `#field`; under the language's `capitalized`
 * privacy rule, Go's, a lower-case name, which other packages cannot use): ranks below a public
 * one on a tie.
 */
export function isPrivateName(name: string, privacy: LanguageSemantics["privacy"]): boolean {
  if (name.startsWith("_") || name.startsWith("#")) return true;
  if (privacy === "capitalized") {
    const c = name.charCodeAt(0);
    return c >= 97 && c <= 122; // a-z
  }
  return false;
}
