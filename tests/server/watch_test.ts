/**
 * Watch mode on a real folder: real `Deno.watchFs` events, the real parser and SQLite. Every
 * change must reach `search_symbols` within a bound, a burst ends in one batch, and a removed
 * folder ends its watch with a warning.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { ToolRunner } from "../../src/server/runner.ts";
import { DEFAULT_WATCH_SETTINGS, watchSettingsFromEnv } from "../../src/server/watch.ts";
import { inThreadParser, tempWorkspace, testConfig, writeTree } from "../ingest/_helpers.ts";
import { BOUND_MS, eventually, watched } from "./_watch.ts";
import { FakeProvider } from "../summarize/_fake_provider.ts";
import { summarizerSettingsFromEnv } from "../../src/summarize/config.ts";

Deno.test("watch: edits, new files, deletions and renames reach search_symbols", async () => {
  const w = await watched({
    "app/a.py": "def first_name():\n    pass\n",
    "app/b.py": "def stays():\n    pass\n",
  });
  try {
    const root = w.ws.root;
    deepStrictEqual(w.runner.watcher!.folders, [root]);
    writeTree(root, { "app/a.py": "def second_name():\n    pass\n" });
    await w.until("second_name", ["app/a.py"]);
    await w.until("first_name", []);

    writeTree(root, { "app/new.py": "def brand_new():\n    pass\n" });
    await w.until("brand_new", ["app/new.py"]);

    Deno.removeSync(join(root, "app/new.py"));
    await w.until("brand_new", []);

    Deno.renameSync(join(root, "app/b.py"), join(root, "app/c.py"));
    await w.until("stays", ["app/c.py"]);

    // A whole directory moved in: no event names its files.
    const outside = join(root, "..", "incoming");
    writeTree(outside, { "deep/d.py": "def moved_in():\n    pass\n" });
    Deno.renameSync(outside, join(root, "app/incoming"));
    await w.until("moved_in", ["app/incoming/deep/d.py"]);
    Deno.renameSync(join(root, "app/incoming"), join(root, "..", "gone"));
    await w.until("moved_in", []);

    // Filters apply: a file a .gitignore excludes is dropped when the rule appears.
    writeTree(root, { ".gitignore": "app/c.py\n" });
    await w.until("stays", []);
    await w.runner.watcher!.settled();
    ok(w.batches.every((b) => b.error === undefined), JSON.stringify(w.batches));
    ok(w.batches.some((b) => b.mode === "folder" && b.reason === "gitignore"));
    ok(w.batches.every((b) => b.mode === "files" || b.reason === "gitignore"));
  } finally {
    await w.dispose();
  }
});

Deno.test("watch: a query right after an edit, before its debounce ends, sees the edit", async () => {
  // A long debounce: the batch would not run before the query on its own.
  const w = await watched({ "a.py": "def edited_soon():\n    pass\n" }, { debounceMs: 5000 });
  try {
    const fresh = await w.runner.call("search_symbols", {
      repo: w.repo,
      query: "edited_soon",
      format: "json",
    });
    equal((JSON.parse(fresh.text).results[0] as { _freshness: string })._freshness, "fresh");
    writeTree(w.ws.root, { "a.py": "def edited_soon(now_with_args):\n    pass\n" });
    const between = await w.runner.call("search_symbols", {
      repo: w.repo,
      query: "edited_soon",
      format: "json",
    });
    const hit = JSON.parse(between.text).results[0] as { _freshness: string; signature: string };
    equal(hit._freshness, "fresh");
    match(hit.signature, /now_with_args/);
  } finally {
    await w.dispose();
  }
});

Deno.test("watch: a burst of 2,000 writes ends in one batch", async () => {
  // The default debounce; a long longest-delay so that a slow machine delivering the events
  // over more than 2 s does not cut the burst (that bound is for endless streams of events).
  const w = await watched({ "seed.py": "def seed():\n    pass\n" }, {
    debounceMs: DEFAULT_WATCH_SETTINGS.debounceMs,
    maxDelayMs: 30_000,
  });
  try {
    const files: Record<string, string> = {};
    for (let i = 0; i < 2000; i++) {
      files[`gen/m${Math.floor(i / 100)}/f${i}.py`] = `def burst_${i}():\n    pass\n`;
    }
    writeTree(w.ws.root, files);
    await w.until("burst_1999", ["gen/m19/f1999.py"]);
    await w.runner.watcher!.settled();
    // Late events of the burst must not start a second batch.
    await new Promise((r) => setTimeout(r, 300));
    await w.runner.watcher!.settled();
    equal(w.batches.length, 1, JSON.stringify(w.batches));
    const b = w.batches[0]!;
    // Too many paths for a file batch, or more events than the watcher could queue (rescan):
    // either way one incremental folder index.
    deepStrictEqual([b.mode, b.added, b.error], ["folder", 2000, undefined]);
    ok(b.reason === "mass_change" || b.reason === "rescan", b.reason);
    deepStrictEqual(await w.search("burst_0"), ["gen/m0/f0.py"]);
  } finally {
    await w.dispose();
  }
});

Deno.test("watch: a removed folder ends its watch with a warning", async () => {
  const w = await watched({ "a.py": "def a():\n    pass\n" });
  try {
    Deno.removeSync(w.ws.root, { recursive: true });
    const t0 = performance.now();
    while (w.runner.watcher!.folders.length > 0 && performance.now() - t0 < BOUND_MS) {
      await new Promise((r) => setTimeout(r, 20));
    }
    deepStrictEqual(w.runner.watcher!.folders, []);
    match(w.logs.join("\n"), /warning: stopped watching .*: the folder was removed/);
  } finally {
    await w.dispose();
  }
});

Deno.test("watch: settings from the environment; CODEMUNCH_WATCH=0 turns it off", async () => {
  deepStrictEqual(watchSettingsFromEnv(() => undefined), DEFAULT_WATCH_SETTINGS);
  equal(watchSettingsFromEnv((n) => (n === "CODEMUNCH_WATCH" ? "0" : undefined)).enabled, false);
  equal(
    watchSettingsFromEnv((n) => (n === "CODEMUNCH_WATCH_BATCH_FILES" ? "50" : undefined))
      .maxBatchFiles,
    50,
  );
  const ws = tempWorkspace("codemunch-watch-off-");
  writeTree(ws.root, { "a.py": "def a():\n    pass\n" });
  const runner = new ToolRunner({
    store: ws.store,
    ingest: testConfig(),
    parser: inThreadParser,
    cwd: ws.root,
    watch: { ...DEFAULT_WATCH_SETTINGS, enabled: false },
  });
  try {
    await runner.call("index_folder", { path: ws.root });
    equal(runner.watcher, null);
  } finally {
    await runner.close();
    ws.dispose();
  }
});

Deno.test("watch: at most maxFolders folders are watched", async () => {
  const ws = tempWorkspace("codemunch-watch-max-");
  writeTree(ws.root, { "one/a.py": "def a():\n    pass\n", "two/b.py": "def b():\n    pass\n" });
  const runner = new ToolRunner({
    store: ws.store,
    ingest: testConfig(),
    parser: inThreadParser,
    cwd: ws.root,
    watch: { ...DEFAULT_WATCH_SETTINGS, maxFolders: 1 },
    log: () => {},
  });
  try {
    await runner.call("index_folder", { path: join(ws.root, "one") });
    const r = await runner.call("index_folder", { path: join(ws.root, "two"), format: "json" });
    match(
      JSON.stringify(JSON.parse(r.text).warnings),
      /Not watching .*CODEMUNCH_WATCH_MAX_FOLDERS/,
    );
    deepStrictEqual(runner.watcher!.folders, [join(ws.root, "one")]);
  } finally {
    await runner.close();
    ws.dispose();
  }
});

Deno.test("watch: a moved git HEAD (branch switch, commit) is one incremental folder index", async () => {
  const sha1 = "1".repeat(40), sha2 = "2".repeat(40);
  const w = await watched({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".git/refs/heads/main": sha1 + "\n",
    ".git/refs/heads/feature": sha2 + "\n",
    "a.py": "def on_main():\n    pass\n",
  });
  try {
    equal(w.ws.store.repo(w.repo).meta().git_head, sha1);
    // A checkout: the work tree changes and HEAD names another branch.
    writeTree(w.ws.root, {
      "a.py": "def on_feature():\n    pass\n",
      ".git/HEAD": "ref: refs/heads/feature\n",
    });
    await w.until("on_feature", ["a.py"]);
    const t0 = performance.now();
    while (w.ws.store.repo(w.repo).meta().git_head !== sha2 && performance.now() - t0 < BOUND_MS) {
      await new Promise((r) => setTimeout(r, 20));
    }
    equal(w.ws.store.repo(w.repo).meta().git_head, sha2);
    await w.runner.watcher!.settled();
    ok(
      w.batches.some((b) => b.mode === "folder" && b.reason === "git_head"),
      JSON.stringify(w.batches),
    );
    // Objects and the index file of .git are not code: no batch for them.
    const before = w.batches.length;
    writeTree(w.ws.root, { ".git/objects/ab/cdef": "blob", ".git/index": "idx" });
    await new Promise((r) => setTimeout(r, 300));
    await w.runner.watcher!.settled();
    equal(w.batches.length, before);
  } finally {
    await w.dispose();
  }
});

Deno.test("watch: batches keep AI summaries for the symbols they re-parse", async () => {
  const provider = new FakeProvider();
  const ws = tempWorkspace("codemunch-watch-ai-");
  writeTree(ws.root, { "m.py": "def first(a):\n    return a\n" });
  const summarizer = summarizerSettingsFromEnv((n) =>
    ({ OPENAI_API_BASE: provider.url + "/v1", OPENAI_API_KEY: "k" })[n]
  );
  const runner = new ToolRunner({
    store: ws.store,
    ingest: testConfig(),
    parser: inThreadParser,
    cwd: ws.root,
    watch: { ...DEFAULT_WATCH_SETTINGS, debounceMs: 50 },
    summarizer,
    log: () => {},
  });
  try {
    const r = await runner.call("index_folder", { path: ws.root, format: "json" });
    const repo = JSON.parse(r.text).repo as string;
    const summaryOf = (name: string) =>
      ws.store.repo(repo).allSymbols().find((s) => s.name === name)?.summary;
    equal(summaryOf("first"), "AI: function first");
    writeTree(ws.root, { "m.py": "def first(a):\n    return a\n\ndef second(b):\n    return b\n" });
    await eventually(() => summaryOf("second") !== undefined, "the batch stored the new symbol");
    equal(summaryOf("second"), "AI: function second");
  } finally {
    await runner.close();
    await provider.close();
    ws.dispose();
  }
});
