/**
 * The list-shaped answers are row-shaped (docs/answers.md, "Row-shaped responses"): every list
 * is a list of flat records, so strict MUNCH v1 carries it as a real table — no `__json.` blob
 * in the payload but `_meta` — and `format: "auto"` sends MUNCH for it. Each payload reads back
 * with the three spec-only decoders as exactly the JSON answer. (A list with an empty string in a
 * row is the exception: see the search_text step.) The code has what used to force blobs: a
 * decorated method, a multi-line decorator, a multi-line signature, a form feed in a line.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { decode, encodeResponse } from "../../mod.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";
import { decodeNestMetaOnly, decodeSchemaFree } from "./_v1_decoders.ts";
import { decodeReferenceGen1 } from "./_reference_gen1_decoder.ts";

type Body = Record<string, unknown>;

const MODELS = `import functools


def cached(fn):
    """Cache a method's result."""
    return functools.lru_cache()(fn)


class Model:
    """A stored record."""

    def __init__(self, name,
                 fields=None,
                 meta=None):
        self.name = name
        self.fields = fields or []

    @property
    def label(self):
        """The model's label."""
        return self.name.title()

    @cached
    @functools.wraps(
        print,
    )
    def describe(self):
        return self.label + "\\f" + str(len(self.fields))

    def save(self, force=False):
        """Write the record."""
        return self.describe()


class Field:
    def __init__(self, column):
        self.column = column

    def clean(self, value):
        return value
`;

/** `_meta` fields that differ between two calls (time, running totals, the encoding). */
function stable(body: Body): Body {
  const out = structuredClone(body);
  const meta = out._meta as Body | undefined;
  if (meta) {
    for (const k of Object.keys(meta)) {
      if (/timing|total_|encoding|cache_hit/.test(k)) delete meta[k];
    }
  }
  return out;
}

Deno.test("row-shaped answers are MUNCH v1 tables that spec-only decoders read back", async (t) => {
  const ws = tempWorkspace("codemunch-row-shapes-");
  const files: Record<string, string> = { "app/models.py": MODELS };
  // More files and matches, so that `auto` has rows enough to save its 15%.
  for (let i = 0; i < 6; i++) {
    files[`app/views_${i}.py`] = `from app.models import Model\n\n\n` +
      `class View${i}:\n    model = Model\n\n    def get(self, request):\n` +
      `        return self.model("v${i}").save()\n\n    def post(self, request):\n` +
      `        return self.get(request)\n`;
  }
  // A form feed inside a line: some v1 readers split lines there.
  files["app/legacy.py"] = "def old():\n    return 1  \f# page break\n";
  writeTree(ws.root, files);
  const runner = workspaceRunner(ws);
  try {
    const indexed = await runner.call("index_folder", { path: ws.root, format: "json" });
    equal(indexed.isError, false, indexed.text);
    const repo = JSON.parse(indexed.text).repo as string;

    /** The call in JSON, compact and auto; checks the payloads and returns the JSON body. */
    const rows = async (tool: string, args: Body, tables: string[]): Promise<Body> => {
      const json = await runner.call(tool, { repo, ...args, format: "json" });
      equal(json.isError, false, json.text);
      const expected = stable(JSON.parse(json.text));
      // `auto` may still send JSON for a small answer (it saves too little), never for blobs.
      const auto = encodeResponse(tool, JSON.parse(json.text));
      ok(auto.fallback === undefined || auto.fallback === "threshold", JSON.stringify(auto));
      for (const format of ["compact", "auto"]) {
        const r = await runner.call(tool, { repo, ...args, format });
        if (format === "auto" && auto.fallback === "threshold") continue;
        const where = `${tool} ${format} ${JSON.stringify(args)}:\n${r.text}`;
        ok(r.text.startsWith("#MUNCH/1 tool="), `not MUNCH v1: ${where}`);
        // `_meta` is one `__json._meta` blob (as the reference's gen1 encoder writes it); no other.
        ok(!r.text.replace(/ __json\._meta="(?:[^"]|"")*"/, "").includes("__json."), where);
        const defs = /__tables=("[^"]*"|\S*)/.exec(r.text)![1]!;
        for (const key of tables) ok(defs.includes(`:${key}:`), `no table ${key}: ${where}`);
        deepStrictEqual(stable(decodeReferenceGen1(r.text)), expected, `reference gen1, ${where}`);
        deepStrictEqual(stable(decodeNestMetaOnly(r.text)), expected, `_meta-only, ${where}`);
        deepStrictEqual(stable(decodeSchemaFree(r.text)), expected, `schema-free, ${where}`);
        deepStrictEqual(stable(decode(r.text) as Body), expected, `ours, ${where}`);
      }
      return expected;
    };

    await t.step("search_symbols: a decorated method is a row like the others", async () => {
      const body = await rows("search_symbols", { query: "describe label save" }, ["results"]);
      const hits = body.results as Body[];
      const describe = hits.find((h) => h.name === "describe")!;
      equal(describe.decorators, "@cached @functools.wraps( print, )");
      equal(hits.find((h) => h.name === "label")!.decorators, "@property");
      equal(hits.find((h) => h.name === "save")!.decorators, null);
      // Every hit has the same keys: one table.
      for (const h of hits) deepStrictEqual(Object.keys(h).sort(), Object.keys(hits[0]!).sort());
    });

    await t.step("search_text with context: one row per line, context lines as rows", async () => {
      const calls = await rows("search_text", { query: "self.get(request)", context_lines: 1 }, [
        "results",
      ]);
      deepStrictEqual((calls.results as Body[]).map((l) => [l.line, l.kind]).slice(0, 2), [
        [10, "context"],
        [11, "match"],
      ]);
      // A blank context line is the empty string, which no spelling carries through every v1
      // decoder in a cell (the spec reads an empty field as null): that list is a JSON blob, so
      // `compact` sends it inside MUNCH and `auto` sends JSON.
      const json = await runner.call("search_text", {
        repo,
        query: "self.model",
        context_lines: 1,
        format: "json",
      });
      const body = stable(JSON.parse(json.text));
      equal(encodeResponse("search_text", JSON.parse(json.text)).fallback, "json_blobs");
      const compact = await runner.call("search_text", {
        repo,
        query: "self.model",
        context_lines: 1,
        format: "compact",
      });
      ok(compact.text.includes(" __json.results="), compact.text);
      for (const read of [decodeReferenceGen1, decodeNestMetaOnly, decodeSchemaFree, decode]) {
        deepStrictEqual(stable(read(compact.text) as Body), body, compact.text);
      }
      const lines = body.results as Body[];
      equal(lines.find((l) => l.line === 9)!.text, "");
      equal(body.result_count, 6);
      equal(lines.filter((l) => l.kind === "match").length, 6);
      for (const l of lines) {
        deepStrictEqual(Object.keys(l), ["file", "line", "kind", "text", "symbol"]);
        ok(String(l.file).startsWith("app/views_"));
        if (l.kind === "match") ok(String(l.symbol).endsWith(".get#method"), JSON.stringify(l));
        else equal(l.symbol, null);
      }
      const paged = await rows("search_text", { query: "page break" }, ["results"]);
      deepStrictEqual(paged.results, [{
        file: "app/legacy.py",
        line: 2,
        text: "    return 1 # page break",
        symbol: "app/legacy.py::old#function",
      }]);
    });

    await t.step("get_file_outline: symbol rows with a parent column", async () => {
      const body = await rows("get_file_outline", { file_path: "app/models.py" }, ["symbols"]);
      const symbols = body.symbols as Body[];
      const byName = (n: string) => symbols.find((s) => s.name === n)!;
      equal(byName("Model").parent, null);
      equal(byName("describe").parent, "app/models.py::Model#class");
      equal(byName("clean").parent, "app/models.py::Field#class");
      equal(byName("__init__").signature, "def __init__(self, name, fields=None, meta=None)");
      equal(byName("describe").decorators, "@cached @functools.wraps( print, )");
      // Source order, each symbol after its parent.
      const lines = symbols.map((s) => s.line as number);
      deepStrictEqual(lines, [...lines].sort((a, b) => a - b));
    });

    await t.step("get_file_outline batch: one symbols table with a file column", async () => {
      const paths = ["app/models.py", "app/views_0.py", "app/views_1.py"];
      const body = await rows("get_file_outline", { file_paths: paths }, ["files", "symbols"]);
      deepStrictEqual((body.files as Body[]).map((f) => [f.file, f.language]), [
        ["app/models.py", "python"],
        ["app/views_0.py", "python"],
        ["app/views_1.py", "python"],
      ]);
      const symbols = body.symbols as Body[];
      deepStrictEqual([...new Set(symbols.map((s) => s.file))], paths);
      for (const s of symbols) ok(String(s.id).startsWith(`${s.file}::`), JSON.stringify(s));
      equal((body.files as Body[])[1]!.symbol_count, 3);
    });

    await t.step("find_references and find_importers batches: two tables each", async () => {
      const refs = await rows("find_references", { identifiers: ["Model", "save"] }, [
        "identifiers",
        "references",
      ]);
      deepStrictEqual(
        (refs.identifiers as Body[]).map((r) => r.identifier),
        ["Model", "save"],
      );
      const byId = Map.groupBy(refs.references as Body[], (r) => String(r.identifier));
      for (const r of refs.identifiers as Body[]) {
        equal(byId.get(String(r.identifier))?.length, r.reference_count);
      }
      const imps = await rows("find_importers", { file_paths: ["app/models.py", "nope.py"] }, [
        "files",
        "importers",
      ]);
      const [models, nope] = imps.files as Body[];
      deepStrictEqual([models!.file_path, models!.importer_count, models!.error], [
        "app/models.py",
        6,
        null,
      ]);
      ok(String(nope!.error).includes("nope.py"), JSON.stringify(nope));
      ok((imps.importers as Body[]).every((r) => r.file_path === "app/models.py"));
      equal((imps.importers as Body[]).length, 6);
    });

    await t.step("get_file_tree and list_repos: flat rows", async () => {
      const tree = await rows("get_file_tree", {}, ["files"]);
      deepStrictEqual((tree.files as Body[]).map((f) => f.path), Object.keys(files).sort());
      const repos = JSON.parse((await runner.call("list_repos", { format: "json" })).text);
      equal(repos.repos[0].languages, "python:8");
      const compact = await runner.call("list_repos", { format: "compact" });
      // Not a git checkout: `git_head` is "" (as in the reference), so this list is a blob.
      equal(repos.repos[0].git_head, "");
      ok(compact.text.includes(" __json.repos="), compact.text);
      deepStrictEqual(stable(decodeReferenceGen1(compact.text)), stable(repos));
      deepStrictEqual(stable(decodeSchemaFree(compact.text)), stable(repos));
      deepStrictEqual(stable(decodeNestMetaOnly(compact.text)), stable(repos));
    });
  } finally {
    await runner.close();
    ws.dispose();
  }
});
