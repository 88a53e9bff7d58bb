import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import * as indexFolder from "../../src/tools/index_folder.ts";
import * as listRepos from "../../src/tools/list_repos.ts";
import * as invalidateCache from "../../src/tools/invalidate_cache.ts";
import { ToolError } from "../../src/errors.ts";
import { localRepoId } from "../../src/store/mod.ts";
import {
  inThreadParser,
  pyModule,
  tempWorkspace,
  testConfig,
  writeTree,
} from "../ingest/_helpers.ts";

const isToolError = (code: string) => (e: unknown) => e instanceof ToolError && e.code === code;

Deno.test("index_folder: full, incremental add/change/delete, unchanged, rebuild", async (t) => {
  const ws = tempWorkspace();
  const ctx = { store: ws.store, parser: inThreadParser, ingest: testConfig() };
  try {
    writeTree(ws.root, {
      "app/main.py": pyModule("start", "stop"),
      "app/util.py": pyModule("helper"),
      "lib/gone.py": pyModule("obsolete"),
      // No language claims it (docs such as README.md are indexed now, as text and headings).
      "assets/data.dat": "readme\n",
    });
    const repo = localRepoId(ws.root);

    await t.step("a first index is full and reports the API fields", async () => {
      const progress: [number, number, string][] = [];
      const r = await indexFolder.handler(
        { ...ctx, onProgress: (d, n, p) => progress.push([d, n, p]) },
        { path: ws.root },
      );
      equal(r.success, true);
      equal(r.repo, repo);
      equal(r.folder_path, ws.root);
      equal(r.file_count, 3);
      equal(r.symbol_count, 4);
      deepEqual(r.languages, { python: 3 });
      deepEqual(r.files, ["app/main.py", "app/util.py", "lib/gone.py"]);
      equal((r.discovery_skip_counts as Record<string, number>).wrong_extension, 1);
      equal(r.no_symbols_count, 0);
      // One step per file, then what the final write is doing (the CLI's bar shows it).
      deepEqual(progress.slice(0, 3).map(([d, n]) => [d, n]), [[1, 3], [2, 3], [3, 3]]);
      deepEqual(progress.slice(3), [
        [3, 3, "removing deleted files"],
        [3, 3, "resolving imports"],
        [3, 3, "writing the search indexes"],
        [3, 3, "saving the index"],
      ]);
    });

    await t.step("nothing changed → No changes detected", async () => {
      const r = await indexFolder.handler(ctx, { path: ws.root });
      equal(r.message, "No changes detected");
      deepEqual([r.changed, r.new, r.deleted], [0, 0, 0]);
    });

    await t.step("add, change and delete are applied incrementally", async () => {
      writeTree(ws.root, {
        "app/main.py": pyModule("start", "restart"),
        "app/new.py": pyModule("fresh"),
      });
      Deno.removeSync(join(ws.root, "lib/gone.py"));
      const r = await indexFolder.handler(ctx, { path: ws.root });
      equal(r.incremental, true);
      deepEqual([r.changed, r.new, r.deleted], [1, 1, 1]);
      equal(r.symbol_count, 4);
      const index = ws.store.repo(repo);
      deepEqual(index.symbolsOfFile("app/main.py").map((s) => s.name), ["start", "restart"]);
      deepEqual(index.symbolsOfFile("lib/gone.py"), []);
      equal(index.file("lib/gone.py"), undefined);
      deepEqual(index.searchSymbols("obsolete"), []);
      deepEqual(index.searchSymbols("stop"), []);
      equal(index.searchSymbols("restart")[0]!.symbol.id, "app/main.py::restart#function");
      deepEqual(index.textCandidates(["obsolete"]), []);
      deepEqual(index.textCandidates(["Doc of fresh"]), ["app/new.py"]);
    });

    await t.step("an unchanged file with a new mtime is hashed, not re-parsed", async () => {
      const p = join(ws.root, "app/util.py");
      Deno.utimeSync(p, new Date(), new Date(Date.now() + 5000));
      const r = await indexFolder.handler(ctx, { path: ws.root });
      equal(r.message, "No changes detected");
    });

    await t.step("incremental=false rebuilds everything", async () => {
      const r = await indexFolder.handler(ctx, { path: ws.root, incremental: false });
      equal(r.file_count, 3);
      equal(r.incremental, undefined);
      equal(ws.store.repo(repo).searchSymbols("helper")[0]!.symbol.name, "helper");
    });

    await t.step("served source is the indexed copy even after the disk changed", () => {
      writeTree(ws.root, { "app/util.py": "# rewritten on disk, not re-indexed\n" });
      const index = ws.store.repo(repo);
      equal(index.symbolSource("app/util.py::helper#function")!.startsWith("def helper(x):"), true);
    });

    await t.step("list_repos and invalidate_cache", async () => {
      const listed = listRepos.handler({ store: ws.store });
      equal(listed.count, 1);
      const entry = (listed.repos as Record<string, unknown>[])[0]!;
      equal(entry.repo, repo);
      equal(entry.display_name, "project");
      equal(entry.source_root, ws.root);
      equal(entry.file_count, 3);
      const gone = await invalidateCache.handler({ store: ws.store }, { repo: "project" });
      deepEqual(gone, {
        success: true,
        repo,
        message: `Index and cached files deleted for ${repo}`,
      });
      equal(listRepos.handler({ store: ws.store }).count, 0);
      await rejects(
        invalidateCache.handler({ store: ws.store }, { repo }),
        isToolError("repo_not_found"),
      );
      await rejects(
        invalidateCache.handler({ store: ws.store }, { repo: "project" }),
        isToolError("repo_not_found"),
      );
      const again = await indexFolder.handler(ctx, { path: ws.root });
      equal(again.file_count, 3); // a full index again
      // The store's cached read connection follows the new database file.
      equal(ws.store.repo(repo).symbolsByName("restart").length, 1);
    });
  } finally {
    ws.dispose();
  }
});

Deno.test("index_folder: content filters, lossless bytes, nested .gitignore", async () => {
  const ws = tempWorkspace();
  try {
    const png = new Uint8Array([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      0,
      0,
      0,
      13,
      73,
      72,
      68,
      82,
    ]);
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode("# caf"),
      0xe9,
      ...new TextEncoder().encode("\ndef f():\n    return 1\n"),
    ]);
    writeTree(ws.root, {
      "image.py": png,
      "latin.py": latin1,
      "ok.py": pyModule("ok"),
      "sub/.gitignore": "ignored.py\n",
      "sub/ignored.py": pyModule("nope"),
      ".env": "KEY=1\n",
      "huge.py": "x = 1\n".repeat(400_000),
    });
    const r = await indexFolder.handler({
      store: ws.store,
      parser: inThreadParser,
      ingest: testConfig(),
    }, { path: ws.root });
    deepEqual(r.files, ["latin.py", "ok.py"]);
    const skips = r.discovery_skip_counts as Record<string, number>;
    deepEqual([skips.binary, skips.secret, skips.gitignore, skips.too_large], [1, 1, 1, 1]);
    ok((r.warnings as string[]).includes("Skipped binary file: image.py"));
    const index = ws.store.repo(r.repo as string);
    deepEqual(index.fileBytes("latin.py"), latin1);
    const f = index.symbolsOfFile("latin.py")[0]!;
    deepEqual(
      index.symbolBytes(f.id),
      latin1.subarray(f.byte_offset, f.byte_offset + f.byte_length),
    );
  } finally {
    ws.dispose();
  }
});

Deno.test("index_folder: argument and path errors", async (t) => {
  const ws = tempWorkspace();
  const ctx = { store: ws.store, parser: inThreadParser, ingest: testConfig() };
  try {
    await t.step("missing folder", async () => {
      await rejects(
        indexFolder.handler(ctx, { path: join(ws.root, "nope") }),
        isToolError("folder_not_found"),
      );
    });
    await t.step("a file, not a folder", async () => {
      writeTree(ws.root, { "a.py": "x = 1\n" });
      await rejects(
        indexFolder.handler(ctx, { path: join(ws.root, "a.py") }),
        isToolError("invalid_argument"),
      );
    });
    await t.step("no source files", async () => {
      Deno.mkdirSync(join(ws.root, "empty"));
      await rejects(
        indexFolder.handler(ctx, { path: join(ws.root, "empty") }),
        isToolError("no_source_files"),
      );
      // A failed first index leaves no database behind.
      deepEqual([...Deno.readDirSync(ws.indexDir)].filter((e) => e.name.endsWith(".db")), []);
    });
    await t.step("the file system root is too broad", async () => {
      await rejects(indexFolder.handler(ctx, { path: "/" }), isToolError("path_too_broad"));
    });
    await t.step("outside the allowed roots: refused before the disk is touched", async () => {
      const confined = { ...ctx, ingest: testConfig({ allowedRoots: [join(ws.root, "allowed")] }) };
      // The folder does not even exist: the refusal comes first, not "folder not found".
      await rejects(
        indexFolder.handler(confined, { path: join(ws.root, "elsewhere") }),
        isToolError("path_outside_allowed_roots"),
      );
      await rejects(
        indexFolder.handler(confined, { path: join(ws.root, "allowed", "..", "a.py") }),
        isToolError("path_outside_allowed_roots"),
      );
    });
    await t.step("a symlinked folder that leads outside the allowed roots", async () => {
      Deno.mkdirSync(join(ws.root, "allowed"));
      Deno.symlinkSync(join(ws.root, "empty"), join(ws.root, "allowed", "escape"));
      const confined = { ...ctx, ingest: testConfig({ allowedRoots: [join(ws.root, "allowed")] }) };
      await rejects(
        indexFolder.handler(confined, { path: join(ws.root, "allowed", "escape") }),
        isToolError("path_outside_allowed_roots"),
      );
    });
    await t.step("invalid arguments name the argument", async () => {
      await rejects(
        indexFolder.handler(ctx, { path: 42 } as unknown as indexFolder.IndexFolderArgs),
        (e) => isToolError("invalid_argument")(e) && /path/.test((e as Error).message),
      );
    });
  } finally {
    ws.dispose();
  }
});
