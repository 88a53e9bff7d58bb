/**
 * index_repo against a fake GitHub API on 127.0.0.1 that answers from a real git repository:
 * the same commit indexed through index_repo and index_folder gives the same files, symbols and
 * imports; re-indexing fetches nothing when nothing changed and only the changed blob when one
 * file changed; private repositories need the token, which goes with every API request; rate
 * limits, 5xx, hanging requests and a failure mid-fetch behave as a user expects.
 */
import { deepEqual, equal, match, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import * as indexRepo from "../../src/tools/index_repo.ts";
import * as indexFolder from "../../src/tools/index_folder.ts";
import * as listRepos from "../../src/tools/list_repos.ts";
import { ToolError } from "../../src/errors.ts";
import { DEFAULT_GITHUB_SETTINGS, type GitHubSettings } from "../../src/ingest/github_config.ts";
import type { Store } from "../../src/store/store.ts";
import { inThreadParser, tempWorkspace, testConfig } from "./_helpers.ts";
import { commitAll, FakeGitHub, initRepo } from "./_fake_github.ts";

const BINARY = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 0, 255]);

/** A small repository: nested .gitignore files, secrets, binaries, a symlink, Go modules. */
const FILES = {
  ".gitignore": "*.log.py\nbuild_out/\n",
  // Left out of the tarball: index_repo must fetch it as a blob, not drop it.
  ".gitattributes": "web/index.ts export-ignore\n",
  "debug.log.py": "def noise():\n    pass\n",
  "build_out/gen.py": "def generated():\n    pass\n",
  "src/app.py": [
    "class Greeter:",
    '    """Greets people."""',
    "",
    "    def greet(self, name):",
    '        return "hi " + name',
    "",
    "def helper(x, y):",
    "    return x + y",
    "",
  ].join("\n"),
  "web/index.ts": "export function render(el: string): string {\n  return el;\n}\n",
  "go.mod": "module example.com/demo\n\ngo 1.22\n",
  "pkg/lib/lib.go": "package lib\n\n// Sum adds.\nfunc Sum(a, b int) int { return a + b }\n",
  "cmd/main.go":
    'package main\n\nimport "example.com/demo/pkg/lib"\n\nfunc main() { lib.Sum(1, 2) }\n',
  "pkg/.gitignore": "generated_*.go\n",
  "pkg/generated_x.go": "package pkg\n",
  ".env": "API_KEY=abc\n",
  "config/secrets.json": '{"k": 1}\n',
  "assets/logo.png": BINARY,
  "data/blob.py": BINARY,
  "link.py": { symlink: "src/app.py" },
};

function settings(api: FakeGitHub, overrides: Partial<GitHubSettings> = {}): GitHubSettings {
  return {
    ...DEFAULT_GITHUB_SETTINGS,
    apiUrl: api.apiUrl,
    timeoutMs: 2_000,
    retries: 2,
    backoffMs: 5,
    ...overrides,
  };
}

const isToolError = (code: string, message?: RegExp) => (e: unknown) => {
  ok(e instanceof ToolError, String(e));
  equal(e.code, code, e.message);
  if (message !== undefined) match(e.message, message);
  return true;
};

/** Everything an index holds about its files, symbols and imports (comparable across repos). */
function snapshot(store: Store, repo: string) {
  const index = store.repo(repo);
  return {
    files: index.listFiles().map((f) => ({ ...f, mtime_ms: 0 })),
    symbols: index.allSymbols(),
    imports: index.allImports().map((i) => ({ ...i })),
    contents: index.listFiles().map((f) => new TextDecoder().decode(index.fileBytes(f.path))),
  };
}

function setup(files: Record<string, string | Uint8Array | { symlink: string }> = FILES) {
  const ws = tempWorkspace("codemunch-github-");
  const api = new FakeGitHub();
  const checkout = join(ws.root, "checkout");
  const commit = initRepo(checkout, files);
  api.repos.set("acme/demo", { dir: checkout });
  return { ws, api, checkout, commit };
}

Deno.test("index_repo: the same commit gives the same files, symbols and imports as index_folder", async () => {
  const { ws, api, checkout, commit } = setup();
  try {
    const ctx = { store: ws.store, parser: inThreadParser, ingest: testConfig() };
    const remote = await indexRepo.handler({ ...ctx, github: settings(api) }, {
      url: "https://github.com/acme/demo",
    });
    equal(remote.success, true);
    equal(remote.repo, "acme/demo");
    equal(remote.git_head, commit);
    deepEqual((remote.fetched as { method: string }).method, "tarball+blobs");
    equal(api.requests(/\/git\/blobs\//).length, 1, "the export-ignored file, as a blob");
    const local = await indexFolder.handler(ctx, { path: checkout });
    equal(remote.file_count, local.file_count);
    equal(remote.symbol_count, local.symbol_count);
    deepEqual(remote.files, local.files);
    deepEqual(remote.languages, local.languages);
    // The checkout's .git folder is the only difference in what was skipped.
    const localSkips = { ...(local.discovery_skip_counts as Record<string, number>) };
    localSkips.skip_dir!--;
    deepEqual(remote.discovery_skip_counts, localSkips);
    const skips = remote.discovery_skip_counts as Record<string, number>;
    equal(skips.gitignore, 3, "root and nested .gitignore");
    equal(skips.secret, 2);
    equal(skips.symlink, 1);
    equal(skips.binary, 2, "one by extension, one by content");
    deepEqual(snapshot(ws.store, "acme/demo"), snapshot(ws.store, local.repo as string));
    const resolved = ws.store.repo("acme/demo").importsOf("cmd/main.go")[0]?.resolved;
    equal(resolved, "pkg/lib/lib.go", "go.mod was read for import resolution");

    const listed = listRepos.handler({ store: ws.store }).repos as Record<string, unknown>[];
    const entry = listed.find((r) => r.repo === "acme/demo")!;
    equal(entry.git_head, commit);
    equal(entry.source_root, "");
  } finally {
    await api.close();
    ws.dispose();
  }
});

Deno.test("index_repo: re-indexing fetches nothing when unchanged, only the changed blob otherwise", async (t) => {
  const { ws, api, checkout } = setup();
  const ctx = {
    store: ws.store,
    parser: inThreadParser,
    ingest: testConfig(),
    github: settings(api),
  };
  try {
    await indexRepo.handler(ctx, { url: "acme/demo" });

    await t.step("an unchanged repository downloads no file", async () => {
      api.log.length = 0;
      const r = await indexRepo.handler(ctx, { url: "acme/demo" });
      equal(r.message, "No changes detected");
      deepEqual(api.log.map((l) => l.path.replace(/[0-9a-f]{40}/, "SHA")), [
        "/repos/acme/demo/commits/HEAD",
      ]);
    });

    await t.step("one changed file: one blob, no tarball", async () => {
      const commit2 = commitAll(checkout, {
        "src/app.py": "def helper(x, y, z):\n    return x + y + z\n",
      });
      api.log.length = 0;
      const r = await indexRepo.handler(ctx, { url: "acme/demo" });
      equal(r.incremental, true);
      equal(r.changed, 1);
      equal(r.new, 0);
      equal(r.deleted, 0);
      equal(r.git_head, commit2);
      equal(api.requests(/tarball|_codeload/).length, 0);
      const blobs = api.requests(/\/git\/blobs\//);
      equal(blobs.length, 1);
      const index = ws.store.repo("acme/demo");
      equal(index.symbol("src/app.py::helper#function")?.signature, "def helper(x, y, z)");
      equal(index.symbol("src/app.py::Greeter#class"), undefined);
    });

    await t.step("many changed files: the tarball instead of blobs", async () => {
      commitAll(checkout, {
        "src/app.py": "def helper(x):\n    return x\n",
        "pkg/lib/lib.go": "package lib\n\nfunc Sum(a int) int { return a }\n",
      });
      api.log.length = 0;
      const r = await indexRepo.handler({ ...ctx, github: { ...ctx.github, blobLimit: 1 } }, {
        url: "acme/demo",
      });
      equal(r.changed, 2);
      equal((r.fetched as { method: string }).method, "tarball");
      equal(api.requests(/\/git\/blobs\//).length, 0);
      equal(api.requests(/\/tarball\//).length, 1);
    });

    await t.step("a truncated tree listing: listed one folder at a time", async () => {
      const before = snapshot(ws.store, "acme/demo");
      api.faults = [
        (path) =>
          path.includes("/git/trees/") && path.includes("recursive=1")
            ? Response.json({ sha: "x", tree: [], truncated: true })
            : undefined,
      ];
      const r = await indexRepo.handler(ctx, { url: "acme/demo", incremental: false });
      api.faults = [];
      match((r.warnings as string[]).join("\n"), /truncated the recursive tree listing/);
      deepEqual(snapshot(ws.store, "acme/demo").symbols, before.symbols);
    });

    await t.step("a failure mid-fetch leaves the previous index untouched", async () => {
      const before = snapshot(ws.store, "acme/demo");
      const head = ws.store.repo("acme/demo").meta().git_head;
      commitAll(checkout, {
        "src/app.py": "def helper2():\n    pass\n",
        "web/index.ts": "export function paint(): void {}\n",
      });
      const failing = new Set<string>();
      api.faults = [(path) => {
        if (!/\/git\/blobs\//.test(path)) return undefined;
        // The first blob asked for succeeds, every later one fails.
        if (failing.size === 0) {
          failing.add(path);
          return undefined;
        }
        return failing.has(path) ? undefined : new Response("boom", { status: 500 });
      }];
      await rejects(
        indexRepo.handler(ctx, { url: "acme/demo" }),
        isToolError("github_unavailable"),
      );
      api.faults = [];
      deepEqual(snapshot(ws.store, "acme/demo"), before);
      equal(ws.store.repo("acme/demo").meta().git_head, head);
      const r = await indexRepo.handler(ctx, { url: "acme/demo" });
      equal(r.changed, 2);
    });
  } finally {
    await api.close();
    ws.dispose();
  }
});

Deno.test("index_repo: a private repository needs GITHUB_TOKEN, sent on every API request", async () => {
  const { ws, api } = setup({ "a.py": "def f():\n    pass\n" });
  api.repos.get("acme/demo")!.token = "s3cret-token";
  const ctx = { store: ws.store, parser: inThreadParser, ingest: testConfig() };
  try {
    await rejects(
      indexRepo.handler({ ...ctx, github: settings(api) }, { url: "acme/demo" }),
      isToolError("repo_not_found", /private: set GITHUB_TOKEN/),
    );
    equal(ws.store.has("acme/demo"), false, "a failed first index leaves no index");
    api.log.length = 0;
    const r = await indexRepo.handler(
      { ...ctx, github: settings(api, { token: "s3cret-token" }) },
      { url: "acme/demo" },
    );
    equal(r.symbol_count, 1);
    ok(api.log.length >= 3);
    for (const l of api.log) equal(l.authorization, "Bearer s3cret-token", l.path);
  } finally {
    await api.close();
    ws.dispose();
  }
});

Deno.test("index_repo: rate limits, server errors and timeouts", async (t) => {
  const { ws, api } = setup({ "a.py": "def f():\n    pass\n" });
  const ctx = { store: ws.store, parser: inThreadParser, ingest: testConfig() };
  const limited = (resetInSeconds: number) => () =>
    new Response(JSON.stringify({ message: "API rate limit exceeded" }), {
      status: 403,
      headers: {
        "x-ratelimit-limit": "60",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + resetInSeconds),
      },
    });
  try {
    await t.step("a near reset is waited out, with progress saying so", async () => {
      let once = false;
      api.faults = [(path) => {
        if (once || !path.includes("/commits/")) return undefined;
        once = true;
        return limited(0)();
      }];
      const notes: string[] = [];
      const r = await indexRepo.handler({
        ...ctx,
        github: settings(api),
        onProgress: (_d, _n, m) => notes.push(m),
      }, { url: "acme/demo", incremental: false });
      equal(r.success, true);
      ok(
        notes.some((n) => /rate limit reached \(60 requests\/hour\): waiting \d+ s/.test(n)),
        notes.join("\n"),
      );
    });

    await t.step(
      "a far reset fails at once, naming the limit, the reset and GITHUB_TOKEN",
      async () => {
        api.faults = [limited(3600)];
        const started = Date.now();
        await rejects(
          indexRepo.handler({ ...ctx, github: settings(api) }, {
            url: "acme/demo",
            incremental: false,
          }),
          isToolError(
            "github_rate_limited",
            /limit 60 requests\/hour.*resets at \d{4}-.*GITHUB_TOKEN/,
          ),
        );
        ok(Date.now() - started < 1000);
      },
    );

    await t.step("a 429 with Retry-After is waited out", async () => {
      let once = false;
      api.faults = [(path) => {
        if (once || !path.includes("/git/trees/")) return undefined;
        once = true;
        return new Response("slow down", { status: 429, headers: { "retry-after": "1" } });
      }];
      const started = Date.now();
      const r = await indexRepo.handler({ ...ctx, github: settings(api) }, {
        url: "acme/demo",
        incremental: false,
      });
      equal(r.success, true);
      ok(Date.now() - started >= 1000);
    });

    await t.step("502s are retried with backoff", async () => {
      let failures = 0;
      api.faults = [(path) => {
        if (!path.includes("/git/trees/") || failures >= 2) return undefined;
        failures++;
        return new Response("bad gateway", { status: 502 });
      }];
      const r = await indexRepo.handler({ ...ctx, github: settings(api) }, {
        url: "acme/demo",
        incremental: false,
      });
      equal(r.success, true);
      equal(failures, 2);
    });

    await t.step("a hanging request times out and the error says so", async () => {
      api.faults = [(path) => (path.includes("/commits/") ? api.hang() : undefined)];
      await rejects(
        indexRepo.handler(
          { ...ctx, github: settings(api, { timeoutMs: 150, retries: 1 }) },
          { url: "acme/demo" },
        ),
        isToolError("github_unavailable", /did not answer within 0\.15 s.*after 2 attempts/),
      );
      ok(ws.store.repo("acme/demo").symbolCount() === 1, "the previous index is still there");
    });

    await t.step("an unknown repository and a bad URL", async () => {
      api.faults = [];
      await rejects(
        indexRepo.handler({ ...ctx, github: settings(api) }, { url: "acme/nope" }),
        isToolError("repo_not_found", /does not exist, or it is private/),
      );
      await rejects(
        indexRepo.handler({ ...ctx, github: settings(api) }, { url: "https://gitlab.com/a/b" }),
        isToolError("invalid_argument", /Unsupported host/),
      );
      await rejects(
        indexRepo.handler({ ...ctx, github: settings(api) }, { url: "acme/demo", ref: "nope" }),
        isToolError("ref_not_found"),
      );
    });
  } finally {
    await api.close();
    ws.dispose();
  }
});
