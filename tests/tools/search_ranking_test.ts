/**
 * search_symbols ranking (API.md Part A §12): file-role priors, public before private on ties,
 * centrality from the import and call graph, names spelled as words, sort_by, token_budget, and
 * the reference options accepted but ignored (named in `_meta.warnings`).
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";

async function indexed(files: Record<string, string>) {
  const ws = tempWorkspace("codemunch-rank-");
  writeTree(ws.root, files);
  const runner = workspaceRunner(ws);
  const r = await runner.call("index_folder", { path: ws.root, format: "json" });
  equal(r.isError, false, r.text);
  const repo = (JSON.parse(r.text) as { repo: string }).repo;
  const search = async (args: Record<string, unknown>) => {
    const out = await runner.call("search_symbols", { repo, format: "json", ...args });
    equal(out.isError, false, out.text);
    return decode(out.text) as {
      results: { id: string; score: number; signature?: string; summary?: string }[];
      _meta: Record<string, unknown>;
    };
  };
  return { search, dispose: async () => (await runner.close(), ws.dispose()) };
}

const DEF = (name: string, doc = "Parse the request body.") =>
  `def ${name}(request):\n    """${doc}"""\n    return request\n`;

Deno.test("search_symbols: library source ranks above tests, docs, examples, fixtures, vendored and generated code", async () => {
  const w = await indexed({
    "tests/test_body.py": DEF("parse_body"),
    "docs/conf_body.py": DEF("parse_body"),
    "examples/body.py": DEF("parse_body"),
    "fixtures/body.py": DEF("parse_body"),
    "third_party/lib/body.py": DEF("parse_body"), // vendor/ is not indexed by default
    "gen/body_pb2.py": DEF("parse_body"),
    "app/http/body.py": DEF("parse_body"),
  });
  try {
    const r = await w.search({ query: "parse_body", max_results: 10 });
    equal(r.results[0]!.id, "app/http/body.py::parse_body#function");
    const words = await w.search({ query: "parse request body" });
    equal(words.results[0]!.id, "app/http/body.py::parse_body#function");
    // Tests (0.55) above vendored and generated code (0.4).
    const order = r.results.map((x) => x.id.split("/")[0]);
    ok(order.indexOf("tests") < order.indexOf("third_party"), order.join(" "));
    ok(order.indexOf("tests") < order.indexOf("gen"), order.join(" "));
  } finally {
    await w.dispose();
  }
});

Deno.test("search_symbols: a public name ranks above a private one with the same score", async () => {
  const w = await indexed({ "a.py": DEF("_load_items") + "\n" + DEF("load_items") });
  try {
    const r = await w.search({ query: "load items" });
    deepStrictEqual(r.results.slice(0, 2).map((x) => x.id), [
      "a.py::load_items#function",
      "a.py::_load_items#function",
    ]);
  } finally {
    await w.dispose();
  }
});

Deno.test("search_symbols: symbols that many files import or call rank higher", async () => {
  const users = Object.fromEntries(
    [1, 2, 3, 4].map((
      i,
    ) => [`pkg/use${i}.py`, "from pkg.core import render\n\ndef f():\n    render()\n"]),
  );
  const w = await indexed({
    "pkg/__init__.py": "",
    "pkg/core.py": DEF("render", "Render a page."),
    "pkg/other.py": DEF("render", "Render a page."),
    ...users,
  });
  try {
    const r = await w.search({ query: "render", debug: true });
    equal(r.results[0]!.id, "pkg/core.py::render#function");
    ok(r.results[0]!.score > r.results[1]!.score);
    const central = await w.search({ query: "render", sort_by: "centrality" });
    equal(central.results[0]!.id, "pkg/core.py::render#function");
  } finally {
    await w.dispose();
  }
});

Deno.test("search_symbols: a query whose words spell a name finds that name first", async () => {
  const w = await indexed({
    "deps/utils.py": [
      DEF("solve_dependencies", "Solve the dependencies of a dependant."),
      DEF(
        "get_dependencies",
        "Solve and get dependencies, solve dependencies again, dependencies.",
      ),
      DEF("solve", "Solve dependencies: solve dependencies of dependencies."),
    ].join("\n"),
    "routing.ts": [
      "export class APIRouter {",
      "  /** Add an API route: add the route to the api routes. */",
      "  addRoute(path: string) { return path; }",
      "  addApiRoute(path: string) { return path; }",
      "}",
      "/** add api route helpers: add, api, route */",
      "export function addApiRouteHelpers() {}",
      "",
    ].join("\n"),
  });
  try {
    equal(
      (await w.search({ query: "solve dependencies" })).results[0]!.id,
      "deps/utils.py::solve_dependencies#function",
    );
    equal(
      (await w.search({ query: "add api route" })).results[0]!.id,
      "routing.ts::APIRouter.addApiRoute#method",
    );
  } finally {
    await w.dispose();
  }
});

Deno.test("search_symbols: token_budget packs hits, long signatures are cut, repeated summaries left out", async () => {
  const params = Array.from({ length: 60 }, (_, i) => `parameter_number_${i}`).join(", ");
  const w = await indexed({
    "a.py": `def wide(${params}):\n    return 1\n\n` + DEF("parse_one") + "\n" + DEF("parse_two"),
  });
  try {
    const wide = await w.search({ query: "wide" });
    const sig = wide.results[0]!.signature!;
    ok(sig.endsWith(" …") && sig.length < 260, sig);
    equal(wide.results[0]!.summary, undefined, "the summary only repeated the signature");
    match(String(wide._meta.hint), /get_symbol_source/);
    const parsed = await w.search({ query: "parse", token_budget: 100 });
    equal(parsed._meta.token_budget, 100);
    ok(typeof parsed._meta.tokens_used === "number");
    ok(parsed.results.length >= 1);
  } finally {
    await w.dispose();
  }
});

Deno.test("search_symbols: reference options we do not implement are accepted and named in _meta.warnings", async () => {
  const w = await indexed({ "a.py": DEF("parse_body") });
  try {
    // Semantic search is tests/tools/semantic_search_test.ts; without semantic, fusion is ignored.
    const r = await w.search({ query: "parse", fqn: "App\\X", fusion: true, max_results: 900 });
    const warnings = String(r._meta.warnings);
    match(warnings, /fqn is not supported/);
    match(warnings, /fusion and semantic_weight apply with semantic=true/);
    match(warnings, /max_results=900 is out of range and was clamped to 500/);
    equal(r.results[0]!.id, "a.py::parse_body#function");
  } finally {
    await w.dispose();
  }
});

Deno.test("search_symbols: natural-language questions find symbols through docstrings, signatures and parameter names", async () => {
  const w = await indexed({
    "fastapi/dependencies/utils.py": [
      "def solve_dependencies(request, dependant, dependency_cache=None):",
      '    """Resolve the sub-dependencies of a request, caching each result."""',
      "    return None",
      "",
      "def get_body_field(dependant, name):",
      '    """Build the body field of a route."""',
      "    return None",
      "",
    ].join("\n"),
    "fastapi/routing.py": [
      "class APIRoute:",
      '    """A route of the API."""',
      "    def __init__(self, path, endpoint):",
      "        self.path = path",
      "",
    ].join("\n"),
    "tests/test_dependencies.py": [
      "def test_dependencies_are_resolved_for_requests(client):",
      '    """Request dependencies are resolved."""',
      "    pass",
      "",
    ].join("\n"),
  });
  try {
    const r = await w.search({ query: "where are request dependencies resolved" });
    equal(r.results[0]!.id, "fastapi/dependencies/utils.py::solve_dependencies#function");
    // A parameter name (in the signature) is enough.
    const p = await w.search({ query: "dependency cache" });
    equal(p.results[0]!.id, "fastapi/dependencies/utils.py::solve_dependencies#function");
  } finally {
    await w.dispose();
  }
});

Deno.test("search_symbols: a word of the question in the file's path counts as matched", async () => {
  // Both are named `filter`; only one lives in a module named after "template" (without the
  // path, the two tie and the id decides: db/ first).
  const w = await indexed({
    "db/query.py": "class Query:\n    def filter(self, q):\n        return q\n",
    "template/library.py": "class Library:\n    def filter(self, q):\n        return q\n",
  });
  try {
    const r = await w.search({ query: "template filter" });
    equal(r.results[0]!.id, "template/library.py::Library.filter#method");
  } finally {
    await w.dispose();
  }
});

Deno.test("search_symbols: a description lifts the file where its best matches concentrate", async () => {
  const w = await indexed({
    "forms/forms.py": [
      "class BaseForm:",
      "    def is_valid(self):",
      '        """Return True if the form has no errors."""',
      "        return not self.errors",
      "    def full_clean(self):",
      '        """Clean all of self.data and populate the errors."""',
      "        return self._clean_fields()",
      "    def _clean_fields(self):",
      "        return None",
      "",
    ].join("\n"),
    "models/base.py":
      "class Model:\n    def clean_fields(self, exclude=None):\n        return None\n",
  });
  try {
    const r = await w.search({
      query: "how does a form validate and clean its fields",
      debug: true,
    });
    const focus = (id: string) =>
      (r.results.find((x) => x.id === id) as { score_focus?: number } | undefined)?.score_focus;
    const full = focus("forms/forms.py::BaseForm.full_clean#method") ?? 0;
    ok(full > 0, JSON.stringify(r.results));
    ok((focus("models/base.py::Model.clean_fields#method") ?? 0) < full, JSON.stringify(r.results));
    // A name or two words get no focus.
    const two = await w.search({ query: "clean fields", debug: true });
    for (const x of two.results as unknown as Record<string, number>[]) equal(x.score_focus, 0);
  } finally {
    await w.dispose();
  }
});
