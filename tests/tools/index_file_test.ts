/** `index_file` and `resolve_repo` through the tool runner (real parser, real SQLite). */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { indexLocalFolder } from "../../src/ingest/index_local.ts";
import { indexLocalFiles } from "../../src/ingest/index_files.ts";
import { Store } from "../../src/store/mod.ts";
import {
  indexedWorkspace,
  inThreadParser,
  tempWorkspace,
  testConfig,
  workspaceRunner,
  writeTree,
} from "../ingest/_helpers.ts";

async function indexed(files: Record<string, string>) {
  const w = await indexedWorkspace(files, "codemunch-index-file-");
  const names = async (query: string) => {
    const r = await w.call("search_symbols", { query, max_results: 50 });
    return (r.body.results as { name: string; file: string }[]).filter((h) => h.name === query)
      .map((h) => `${h.file}:${h.name}`);
  };
  return { ...w, names };
}

Deno.test("index_file: changed, added, unchanged, deleted and excluded files", async () => {
  const w = await indexed({
    ".gitignore": "ignored/\n",
    "pkg/a.py": "def alpha_one():\n    pass\n",
    "pkg/b.py": "from pkg.a import alpha_one\n\ndef beta():\n    return alpha_one()\n",
  });
  try {
    const root = w.ws.root;
    writeTree(root, { "pkg/a.py": "def alpha_two():\n    pass\n" });
    let r = await w.call("index_file", { path: join(root, "pkg/a.py") });
    equal(r.isError, false, r.text);
    deepStrictEqual([r.body.repo, r.body.file, r.body.change, r.body.symbol_count], [
      w.repo,
      "pkg/a.py",
      "changed",
      1,
    ]);
    deepStrictEqual(await w.names("alpha_two"), ["pkg/a.py:alpha_two"]);
    deepStrictEqual(await w.names("alpha_one"), []);

    r = await w.call("index_file", { path: join(root, "pkg/a.py") });
    equal(r.body.change, "unchanged");

    writeTree(root, { "pkg/c.py": "def gamma():\n    pass\n" });
    r = await w.call("index_file", { path: join(root, "pkg/c.py") });
    equal(r.body.change, "added");
    deepStrictEqual(await w.names("gamma"), ["pkg/c.py:gamma"]);

    Deno.removeSync(join(root, "pkg/c.py"));
    r = await w.call("index_file", { path: join(root, "pkg/c.py") });
    equal(r.body.change, "deleted");
    deepStrictEqual(await w.names("gamma"), []);

    // The same filters as index_folder: a gitignored file is not indexed.
    writeTree(root, { "ignored/d.py": "def delta():\n    pass\n" });
    r = await w.call("index_file", { path: join(root, "ignored/d.py") });
    deepStrictEqual([r.body.change, r.body.message], ["skipped", "File not indexed (gitignore)"]);
    deepStrictEqual(await w.names("delta"), []);

    r = await w.call("index_file", { path: join(root, "pkg/nope.py") });
    deepStrictEqual([r.isError, r.body.code], [true, "file_not_found"]);
    r = await w.call("index_file", { path: "/definitely/not/indexed.py" });
    deepStrictEqual([r.isError, r.body.code], [true, "repo_not_found"]);
    match(String(r.body.error), /index_folder/);
  } finally {
    await w.dispose();
  }
});

Deno.test("index_file: the index after single-file updates equals a fresh full index", async () => {
  const w = await indexed({
    "m/go.mod": "module example.com/m\n",
    "m/x/x.go": 'package x\n\nimport "example.com/m/y"\n\nfunc X() { y.Y() }\n',
    "m/y/y.go": "package y\n\nfunc Y() {}\n",
  });
  try {
    const root = w.ws.root;
    writeTree(root, {
      "m/z/z.go": 'package z\n\nimport "example.com/m/y"\n\nfunc Z() { y.Y() }\n',
      "m/y/y.go": "package y\n\nfunc Y() {}\n\nfunc Y2() {}\n",
    });
    Deno.removeSync(join(root, "m/x/x.go"));
    const batch = await indexLocalFiles(w.ws.store, testConfig(), inThreadParser, {
      root,
      paths: ["m/z/z.go", join(root, "m/y/y.go"), "m/x/x.go"],
    });
    deepStrictEqual([batch.added, batch.changed, batch.deleted], [1, 1, 1]);
    const dump = () => {
      const index = w.ws.store.repo(w.repo);
      return {
        files: index.listFiles().map((f) => [f.path, f.language, f.size]),
        symbols: index.allSymbols().map((s) => s.id),
        imports: index.listFiles().map((f) =>
          index.importsOf(f.path).map((i) => [f.path, i.specifier, i.resolved])
        ),
        calls: index.listFiles().map((f) => index.callsInFile(f.path).length),
      };
    };
    const afterBatch = dump();
    await indexLocalFolder(w.ws.store, testConfig(), inThreadParser, {
      path: root,
      incremental: false,
    });
    deepStrictEqual(afterBatch, dump());
    // The new file's import resolved to the package that exists now.
    // The new file's import resolved against the files of the folder (go.mod included).
    deepStrictEqual(afterBatch.imports, [[], [["m/z/z.go", "example.com/m/y", "m/y/y.go"]]]);
  } finally {
    await w.dispose();
  }
});

Deno.test("resolve_repo: root, subdirectory, file, worktree, and not indexed", async () => {
  const w = await indexed({ "src/app.py": "def app():\n    pass\n" });
  try {
    const root = w.ws.root;
    for (
      const [path, rel] of [[root, undefined], [join(root, "src"), "src"], [
        join(root, "src/app.py"),
        "src/app.py",
      ], [join(root, "src/new_file.py"), "src/new_file.py"]] as const
    ) {
      const r = await w.call("resolve_repo", { path });
      equal(r.isError, false, r.text);
      deepStrictEqual([r.body.indexed, r.body.repo, r.body.source_root, r.body.relative_path], [
        true,
        w.repo,
        root,
        rel,
      ]);
      ok(typeof r.body.indexed_at === "string");
    }
    // A linked git worktree of the indexed checkout (the layout `git worktree add` makes).
    Deno.mkdirSync(join(root, ".git/worktrees/feature"), { recursive: true });
    const wt = join(root, "..", "feature-wt");
    Deno.mkdirSync(join(wt, "src"), { recursive: true });
    Deno.writeTextFileSync(join(wt, ".git"), `gitdir: ${join(root, ".git/worktrees/feature")}\n`);
    Deno.writeTextFileSync(join(root, ".git/worktrees/feature/commondir"), "../..\n");
    let r = await w.call("resolve_repo", { path: join(wt, "src/app.py") });
    deepStrictEqual([r.body.indexed, r.body.repo, r.body.worktree, r.body.relative_path], [
      true,
      w.repo,
      wt,
      "src/app.py",
    ]);
    r = await w.call("resolve_repo", { path: "/tmp" });
    deepStrictEqual([r.isError, r.body.indexed], [false, false]);
    match(String(r.body.message), /Not indexed.*index_folder/);
    r = await w.call("resolve_repo", { path: "" });
    deepStrictEqual([r.isError, r.body.code], [true, "invalid_argument"]);
  } finally {
    await w.dispose();
  }
});

Deno.test("index_file: imports keep their targets when unchanged and are resolved when changed", async () => {
  const w = await indexed({
    "m/go.mod": "module example.com/m\n",
    "m/x/x.go": "package x\n\nfunc X() {}\n",
    "m/y/y.go": "package y\n\nfunc Y() {}\n",
    "m/z/z.go": 'package z\n\nimport "example.com/m/y"\n\nfunc Z() { y.Y() }\n',
  });
  try {
    const root = w.ws.root;
    const targets = () =>
      w.ws.store.repo(w.repo).importsOf("m/z/z.go").map((i) => [i.specifier, i.resolved]);
    deepStrictEqual(targets(), [["example.com/m/y", "m/y/y.go"]]);
    writeTree(root, {
      "m/z/z.go": 'package z\n\nimport "example.com/m/y"\n\nfunc Z() { y.Y(); y.Y() }\n',
    });
    let batch = await indexLocalFiles(w.ws.store, testConfig(), inThreadParser, {
      root,
      paths: ["m/z/z.go"],
    });
    deepStrictEqual([batch.changed, batch.resolved_imports], [1, false]);
    deepStrictEqual(targets(), [["example.com/m/y", "m/y/y.go"]]);
    writeTree(root, {
      "m/z/z.go": 'package z\n\nimport "example.com/m/x"\n\nfunc Z() { x.X() }\n',
    });
    batch = await indexLocalFiles(w.ws.store, testConfig(), inThreadParser, {
      root,
      paths: ["m/z/z.go"],
    });
    deepStrictEqual([batch.changed, batch.resolved_imports], [1, true]);
    deepStrictEqual(targets(), [["example.com/m/x", "m/x/x.go"]]);
  } finally {
    await w.dispose();
  }
});

Deno.test("index_file: a new server re-indexes a file with the options the folder was indexed with", async () => {
  const ws = tempWorkspace("codemunch-index-file-options-");
  try {
    writeTree(ws.root, {
      "app.py": "def app():\n    pass\n",
      "gen/out.py": "def gen():\n    pass\n",
    });
    const first = workspaceRunner(ws);
    const r = await first.call("index_folder", {
      path: ws.root,
      extra_ignore_patterns: ["gen/"],
      format: "json",
    });
    equal(r.isError, false, r.text);
    await first.close();
    // Another server (as after a client restart) knows nothing of the first one's calls.
    const store = new Store(ws.indexDir);
    const second = workspaceRunner({ root: ws.root, store });
    try {
      writeTree(ws.root, { "gen/out.py": "def gen_two():\n    pass\n" });
      const out = await second.call("index_file", {
        path: join(ws.root, "gen/out.py"),
        format: "json",
      });
      const body = JSON.parse(out.text) as Record<string, unknown>;
      deepStrictEqual([body.change, body.message], [
        "skipped",
        "File not indexed (extra_ignore)",
      ]);
    } finally {
      await second.close();
    }
  } finally {
    ws.dispose();
  }
});
