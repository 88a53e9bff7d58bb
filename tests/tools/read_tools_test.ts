import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { decode } from "../../mod.ts";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";

/** A workspace with a small indexed project and a runner over it (real parser, real SQLite). */
async function indexed(files: Record<string, string>) {
  const ws = tempWorkspace("codemunch-tools-");
  writeTree(ws.root, files);
  const runner = workspaceRunner(ws);
  const r = await runner.call("index_folder", { path: ws.root, format: "json" });
  equal(r.isError, false, r.text);
  const repo = (JSON.parse(r.text) as { repo: string }).repo;
  const call = async (tool: string, args: Record<string, unknown>) => {
    const out = await runner.call(tool, { repo, format: "json", ...args });
    return { ...out, body: decode(out.text) as Record<string, unknown> };
  };
  return { ws, runner, repo, call, dispose: () => ws.dispose() };
}

const PY = [
  "import os",
  "",
  "class Greeter:",
  '    """Greets people."""',
  "",
  "    def greet(self, name):",
  '        return "hello " + name',
  "",
  "def greet(name):",
  "    return Greeter().greet(name)",
  "",
  "def Greet():",
  "    pass",
  "",
  "@cache",
  "def greeting_table():",
  "    return {}",
  "",
].join("\n");

Deno.test("get_file_content: line ranges as Python's splitlines", async (t) => {
  const w = await indexed({
    "a.py": "x = 1\r\ny = 2\r\nz = 3\r\n",
    "empty.py": "",
    "b.py": PY,
  });
  try {
    await t.step("whole file is verbatim", async () => {
      const r = await w.call("get_file_content", { file_path: "a.py" });
      equal(r.body.content, "x = 1\r\ny = 2\r\nz = 3\r\n");
      equal(r.body.line_count, 3);
      equal(r.body.end_line, 3);
    });
    await t.step("ranges are clamped and joined with \\n", async () => {
      const r = await w.call("get_file_content", {
        file_path: "a.py",
        start_line: 2,
        end_line: 99,
      });
      equal(r.body.content, "y = 2\nz = 3");
      deepStrictEqual([r.body.start_line, r.body.end_line], [2, 3]);
      const rev = await w.call("get_file_content", {
        file_path: "a.py",
        start_line: 3,
        end_line: 1,
      });
      equal(rev.body.content, "z = 3");
    });
    await t.step("an empty file has lines 0..0", async () => {
      const r = await w.call("get_file_content", { file_path: "empty.py" });
      deepStrictEqual([r.body.start_line, r.body.end_line, r.body.content], [0, 0, ""]);
    });
  } finally {
    w.dispose();
  }
});

Deno.test("search_text: lines, context, regex, case and limits", async (t) => {
  const w = await indexed({
    "a.py": "alpha = 1\nbeta = 2\n# Alpha again\ngamma = alpha + beta\n",
    "b/c.py": "x = 'a.b('\ny = 'axb('\n",
    "d.go": "package d\n\nfunc Alpha() {}\n",
  });
  try {
    await t.step("case-insensitive literal, line numbers in order", async () => {
      const r = await w.call("search_text", { query: "alpha" });
      // One row per line, files by relevance; each match names its enclosing symbol (null for
      // a top-level line outside one).
      deepStrictEqual(r.body.results, [
        { file: "a.py", line: 1, text: "alpha = 1", symbol: null },
        { file: "a.py", line: 3, text: "# Alpha again", symbol: null },
        { file: "a.py", line: 4, text: "gamma = alpha + beta", symbol: null },
        { file: "d.go", line: 3, text: "func Alpha() {}", symbol: "d.go::Alpha#function" },
      ]);
      equal(r.body.result_count, 4);
      equal((r.body._meta as Record<string, unknown>).truncated, false);
    });
    await t.step("case_sensitive", async () => {
      const r = await w.call("search_text", { query: "Alpha", case_sensitive: true });
      equal(r.body.result_count, 2);
    });
    await t.step("a literal with regex characters is literal", async () => {
      const r = await w.call("search_text", { query: "a.b(" });
      deepStrictEqual(r.body.results, [
        { file: "b/c.py", line: 1, text: "x = 'a.b('", symbol: null },
      ]);
    });
    await t.step("a regex is matched per line, never across a line break", async () => {
      const r = await w.call("search_text", { query: "1\\s+beta", is_regex: true });
      equal(r.body.result_count, 0);
      const ok2 = await w.call("search_text", { query: "^g\\w+ = ", is_regex: true });
      equal(ok2.body.result_count, 1);
    });
    await t.step("context lines are rows of their own, and stop at the file's ends", async () => {
      type Row = { line: number; kind: string; text: string };
      const brief = (rows: unknown) => (rows as Row[]).map((r) => [r.line, r.kind, r.text]);
      const r = await w.call("search_text", { query: "alpha = 1", context_lines: 2 });
      deepStrictEqual(brief(r.body.results), [
        [1, "match", "alpha = 1"],
        [2, "context", "beta = 2"],
        [3, "context", "# Alpha again"],
      ]);
      equal(r.body.result_count, 1);
      const end = await w.call("search_text", { query: "gamma", context_lines: 3 });
      deepStrictEqual(brief(end.body.results), [
        [1, "context", "alpha = 1"],
        [2, "context", "beta = 2"],
        [3, "context", "# Alpha again"],
        [4, "match", "gamma = alpha + beta"],
      ]);
      // Windows that overlap are merged, as grep -C does: each line once, in order.
      const both = await w.call("search_text", { query: "alpha", context_lines: 1 });
      deepStrictEqual(brief(both.body.results), [
        [1, "match", "alpha = 1"],
        [2, "context", "beta = 2"],
        [3, "match", "# Alpha again"],
        [4, "match", "gamma = alpha + beta"],
        [2, "context", ""],
        [3, "match", "func Alpha() {}"],
      ]);
      const rows = both.body.results as Record<string, unknown>[];
      deepStrictEqual(rows.map((x) => x.file), ["a.py", "a.py", "a.py", "a.py", "d.go", "d.go"]);
      // Context rows carry no symbol; every row has the same keys (one table).
      deepStrictEqual(rows[4], { file: "d.go", line: 2, kind: "context", text: "", symbol: null });
      equal(both.body.result_count, 4);
    });
    await t.step("file_pattern and max_results", async () => {
      const r = await w.call("search_text", { query: "alpha", file_pattern: "*.go" });
      equal(r.body.result_count, 1);
      const cut = await w.call("search_text", { query: "a", max_results: 2 });
      equal(cut.body.result_count, 2);
      const meta = cut.body._meta as Record<string, unknown>;
      equal(meta.truncated, true);
      match(String(meta.hint), /raise max_results/);
    });
  } finally {
    w.dispose();
  }
});

Deno.test("search_symbols: scores, identity bonuses, filters, cache", async (t) => {
  const w = await indexed({ "b.py": PY, "c.py": "def regreet():\n    pass\n" });
  try {
    await t.step("exact name (case) first, then the other case, prefix, substring", async () => {
      const r = await w.call("search_symbols", { query: "greet", max_results: 20 });
      const results = r.body.results as { name: string; score: number; id: string }[];
      equal(results[0]!.name, "greet");
      const greetIdx = results.findIndex((x) => x.name === "Greet");
      const prefixIdx = results.findIndex((x) => x.name === "greeting_table");
      ok(greetIdx > 0 && prefixIdx > greetIdx, JSON.stringify(results.map((x) => x.name)));
      for (let i = 1; i < results.length; i++) ok(results[i - 1]!.score >= results[i]!.score);
    });
    await t.step("kind, decorator and file_pattern filters", async () => {
      const k = await w.call("search_symbols", { query: "greet", kind: "method" });
      deepStrictEqual((k.body.results as { id: string }[]).map((x) => x.id), [
        "b.py::Greeter.greet#method",
      ]);
      const d = await w.call("search_symbols", { query: "greet", decorator: "CACHE" });
      deepStrictEqual((d.body.results as { name: string }[]).map((x) => x.name), [
        "greeting_table",
      ]);
      const f = await w.call("search_symbols", { query: "greet", file_pattern: "c.py" });
      ok((f.body.results as { file: string }[]).every((x) => x.file === "c.py"));
    });
    await t.step(
      "fuzzy finds typos and never returns more than max_results fuzzy hits",
      async () => {
        const r = await w.call("search_symbols", { query: "greeet", fuzzy: true, max_results: 2 });
        const fuzzy = (r.body.results as Record<string, unknown>[]).filter((x) =>
          x.match_type === "fuzzy"
        );
        ok(fuzzy.length >= 1 && fuzzy.length <= 2, JSON.stringify(r.body));
        ok(fuzzy.every((x) => typeof x.edit_distance === "number"));
      },
    );
    await t.step("the second identical call is served from the cache", async () => {
      const a = await w.call("search_symbols", { query: "Greeter", debug: true });
      const b = await w.call("search_symbols", { query: "Greeter", debug: true });
      equal((a.body._meta as Record<string, unknown>).cache_hit, undefined);
      equal((b.body._meta as Record<string, unknown>).cache_hit, true);
      deepStrictEqual(a.body.results, b.body.results);
      // Without debug a hit is not announced (issue 28: `_meta` says only what matters).
      await w.call("search_symbols", { query: "Greeter" });
      const c = await w.call("search_symbols", { query: "Greeter" });
      equal((c.body._meta as Record<string, unknown>).cache_hit, undefined);
    });
  } finally {
    w.dispose();
  }
});

Deno.test("arguments: coercion, null as absent, the file alias, unknown keys", async () => {
  const w = await indexed({ "b.py": PY });
  try {
    const r = await w.call("get_file_outline", { file: "b.py", extra: 1, file_paths: null });
    equal(r.isError, false, r.text);
    equal(r.body.file, "b.py");
    const c = await w.call("search_text", { query: "greet", max_results: "1", is_regex: "no" });
    equal(c.body.result_count, 1);
    // Out of range: clamped and named in _meta.warnings (Part A §10); a wrong type still fails.
    const clamped = await w.call("search_text", { query: "greet", context_lines: 11 });
    equal(clamped.isError, false, clamped.text);
    match(String((clamped.body._meta as Record<string, unknown>).warnings), /context_lines=11/);
    const extra = (r.body._meta as Record<string, unknown>).warnings;
    match(String(extra), /extra is not an argument of get_file_outline/);
    const bad = await w.call("search_text", { query: "greet", context_lines: "many" });
    equal(bad.isError, true);
    match(String(bad.body.error), /context_lines/);
    equal(bad.code, "invalid_argument");
  } finally {
    w.dispose();
  }
});

Deno.test("get_file_tree: file rows sorted by path, raw prefixes, truncation", async () => {
  const w = await indexed({
    "src/b.py": "def b():\n    pass\n",
    "src/a/x.py": "def x():\n    pass\n",
    "srcx/c.py": "def c():\n    pass\n",
    "z.py": "def z():\n    pass\n",
  });
  try {
    const all = await w.call("get_file_tree", {});
    // One row per file, sorted by path: the folders are the paths' leading segments.
    deepStrictEqual(all.body.files, [
      { path: "src/a/x.py", language: "python", symbol_count: 1 },
      { path: "src/b.py", language: "python", symbol_count: 1 },
      { path: "srcx/c.py", language: "python", symbol_count: 1 },
      { path: "z.py", language: "python", symbol_count: 1 },
    ]);
    const raw = await w.call("get_file_tree", { path_prefix: "src" });
    // A raw prefix: "src" also matches srcx/.
    deepStrictEqual((raw.body.files as { path: string }[]).map((f) => f.path), [
      "src/a/x.py",
      "src/b.py",
      "srcx/c.py",
    ]);
    const cut = await w.call("get_file_tree", { max_files: 1 });
    const meta = cut.body._meta as Record<string, unknown>;
    deepStrictEqual([meta.truncated, meta.total_file_count, meta.file_count], [true, 4, 1]);
    const none = await w.call("get_file_tree", { path_prefix: "nope/" });
    deepStrictEqual(none.body.files, []);
    match(String((none.body._meta as Record<string, unknown>).hint), /No indexed path starts/);
  } finally {
    w.dispose();
  }
});

Deno.test("freshness: fresh, then touched on disk after indexing (checked, stat recorded)", async () => {
  const w = await indexed({ "b.py": PY, "c.py": "def regreet():\n    pass\n" });
  try {
    const before = await w.call("get_symbol_source", { symbol_id: "c.py::regreet#function" });
    equal(before.body._freshness, "fresh");
    // Every row fresh: `_meta` carries no freshness counts (issue 28); `_freshness` says it.
    const meta = before.body._meta as Record<string, unknown>;
    deepStrictEqual(
      [meta.freshness_fresh, meta.freshness_edited_uncommitted, meta.freshness_stale_index],
      [undefined, undefined, undefined],
    );
    const later = new Date(Date.now() + 60_000);
    Deno.utimeSync(`${w.ws.root}/c.py`, later, later);
    // The answer's file changed on disk: it is read again before the answer (same content: only
    // its new stat is recorded), so the answer is fresh.
    const after = await w.call("search_symbols", { query: "regreet" });
    const hit = (after.body.results as Record<string, unknown>[])[0]!;
    deepStrictEqual([hit.file, hit._freshness], ["c.py", "fresh"]);
    equal((after.body._meta as Record<string, unknown>).reindexed_files, 1);
    equal(w.ws.store.repo(w.repo).file("c.py")!.mtime_ms, later.getTime());
    const again = await w.call("search_symbols", { query: "regreet" });
    equal((again.body.results as Record<string, unknown>[])[0]!._freshness, "fresh");
    equal((again.body._meta as Record<string, unknown>).reindexed_files, undefined);
  } finally {
    w.dispose();
  }
});

Deno.test("search_symbols: a re-index between calls is seen (cached values follow the index)", async () => {
  const w = await indexed({ "c.py": "def regreet():\n    pass\n" });
  try {
    const first = await w.call("search_symbols", { query: "regreet" });
    equal(first.body.result_count, 1);
    // Several cached values (results, counts, file map) are read within one call: a re-index
    // that lands between two calls must invalidate all of them.
    writeTree(w.ws.root, { "d.py": "def regreet_twice():\n    pass\n" });
    const r = await w.runner.call("index_folder", { path: w.ws.root, format: "json" });
    equal(r.isError, false, r.text);
    const second = await w.call("search_symbols", { query: "regreet" });
    equal(second.body.result_count, 2);
    equal((second.body._meta as Record<string, unknown>).cache_hit, undefined);
    equal((second.body._meta as Record<string, unknown>).total_symbols, 2);
  } finally {
    w.dispose();
  }
});
