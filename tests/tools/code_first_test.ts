/**
 * Issue 33's "code first" and "concept words" and issue 27's fuzzy fallback, through the real
 * server on real files: documents and configuration below code unless asked for, translated
 * copies of a document collapsed, vendored packages found by their layout, the project's own name
 * and generic words outweighed by the rare words of a question, and fuzzy hits that score below
 * every match and are similar for real.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";

async function indexed(files: Record<string, string>, name = "proj") {
  const ws = tempWorkspace("codemunch-code-first-");
  const root = `${ws.root}/${name}`;
  writeTree(root, files);
  const runner = workspaceRunner(ws);
  const r = await runner.call("index_folder", { path: root, format: "json" });
  equal(r.isError, false, r.text);
  const repo = (JSON.parse(r.text) as { repo: string }).repo;
  const call = async (tool: string, args: Record<string, unknown>) => {
    const out = await runner.call(tool, { repo, format: "json", ...args });
    equal(out.isError, false, out.text);
    return decode(out.text) as Record<string, unknown> & { _meta: Record<string, unknown> };
  };
  const ids = async (args: Record<string, unknown>) =>
    ((await call("search_symbols", args)).results as { id: string }[]).map((x) => x.id);
  return { call, ids, dispose: async () => (await runner.close(), ws.dispose()) };
}

const PY = (name: string, doc: string) =>
  `def ${name}(request):\n    """${doc}"""\n    return request\n`;

Deno.test("search_symbols: code before documents and configuration, which stay searchable", async () => {
  const locales = ["en", "es", "zh", "ja", "ko", "pt"];
  const files: Record<string, string> = {
    "app/openapi/utils.py": PY("get_openapi", "Generate the OpenAPI schema of the application."),
    "pyproject.toml": '[project]\nname = "app"\ndependencies = ["starlette"]\n',
    "app/dependencies/utils.py": PY("solve_dependencies", "Solve the dependencies of a route."),
  };
  for (const l of locales) {
    files[`docs/${l}/docs/openapi.md`] =
      "# OpenAPI schema\n\nHow the OpenAPI schema is generated.\n";
  }
  const w = await indexed(files);
  try {
    // A question about code gets code first, and one copy of the translated heading at most.
    const openapi = await w.ids({ query: "where is the OpenAPI schema generated" });
    equal(openapi[0], "app/openapi/utils.py::get_openapi#function");
    equal(openapi.filter((id) => id.endsWith("openapi.md::OpenAPI schema#type")).length, 1);
    const deps = await w.ids({ query: "dependencies" });
    equal(deps[0], "app/dependencies/utils.py::solve_dependencies#function");
    // Asked for: by a language filter, or by the question's words.
    const toml = await w.ids({ query: "dependencies", language: "toml" });
    equal(toml[0], "pyproject.toml::project.dependencies#constant");
    const docs = await w.ids({ query: "OpenAPI schema section of the docs" });
    ok(docs[0]!.endsWith("openapi.md::OpenAPI schema#type"), docs.join(" "));
  } finally {
    await w.dispose();
  }
});

Deno.test("search_symbols: a vendored package is found by its layout and ranks below the project's code", async () => {
  const w = await indexed({
    "requests/__init__.py": "",
    "requests/adapters.py": PY("send", "Send a prepared request through the pool manager."),
    "requests/packages/urllib3/__init__.py": "",
    "requests/packages/urllib3/poolmanager.py": PY(
      "urlopen",
      "Send a request through the pool manager.",
    ),
    "lib/__init__.py": "",
    "lib/tinyqueue/LICENSE": "ISC License\n",
    "lib/tinyqueue/queue.py": PY("manager_queue", "A pool manager queue request."),
  });
  try {
    const r = await w.call("search_symbols", {
      query: "send a request through the pool manager",
      debug: true,
    });
    const hits = r.results as { id: string; score_role: number }[];
    equal(hits[0]!.id, "requests/adapters.py::send#function");
    for (const h of hits.slice(1)) ok(h.score_role <= 0.4, `${h.id} ${h.score_role}`);
  } finally {
    await w.dispose();
  }
});

Deno.test("search_symbols: the rare words of a question outweigh the project's name and generic words", async () => {
  // Many routing methods of the class named after the project share the generic words.
  const methods = ["get", "post", "put", "delete", "patch", "api_route", "add_api_route"].map((m) =>
    `    def ${m}(self, path, handler):\n        """Add a route for a path."""\n        return handler\n`
  ).join("\n");
  // The rest of the project: words of no question here.
  const rest = Array.from({ length: 30 }, (_, i) => PY(`helper_${i}`, `Format value number ${i}.`))
    .join("\n");
  const w = await indexed({
    "proj/applications.py": `class Proj:\n    """The application."""\n${methods}`,
    "proj/dependencies/utils.py":
      PY("solve_dependencies", "Solve the dependency injection of a call.") +
      "\n" + PY("get_dependant", "Read the dependencies a call declares for injection."),
    "proj/params.py": PY("Depends", "Declare a dependency to inject."),
    "proj/frontend.py": PY("_resolve_frontend_check_dir", "Resolve the directory."),
    "proj/helpers.py": rest,
  });
  try {
    const top = await w.ids({
      query: "How does Proj resolve dependency injection for route handlers?",
    });
    const concept = new Set([
      "proj/dependencies/utils.py::solve_dependencies#function",
      "proj/dependencies/utils.py::get_dependant#function",
      "proj/params.py::Depends#function",
    ]);
    deepStrictEqual(new Set(top.slice(0, 3)), concept, top.join(" "));
  } finally {
    await w.dispose();
  }
});

Deno.test("search_symbols: a fuzzy fallback scores by similarity, says so, and leaves out what is not alike", async () => {
  const w = await indexed({
    "a.go": "package a\n\nfunc POST() {}\n\nfunc TOML() {}\n\nfunc Pool() {}\n\nfunc Handle() {}\n",
  });
  try {
    // Nothing matches `pol`'s words; `Pool` is one edit away, `POST` and `TOML` are not alike.
    const r = await w.call("search_symbols", { query: "pol" });
    const hits = r.results as { id: string; score: number; match_type: string }[];
    deepStrictEqual(hits.map((h) => h.id), ["a.go::Pool#function"]);
    ok(hits[0]!.score > 0 && hits[0]!.score <= 1, String(hits[0]!.score));
    equal(r._meta.fuzzy_fallback, true);
    // Asked for alongside real matches: every fuzzy hit below the last real one.
    const both = await w.call("search_symbols", { query: "handle", fuzzy: true });
    const rows = both.results as { score: number; match_type?: string | null }[];
    const real = rows.filter((x) => x.match_type !== "fuzzy");
    const fuzzy = rows.filter((x) => x.match_type === "fuzzy");
    ok(real.length > 0);
    for (const f of fuzzy) ok(f.score < Math.min(...real.map((x) => x.score)));
    equal(both._meta.fuzzy_fallback, undefined);
  } finally {
    await w.dispose();
  }
});
