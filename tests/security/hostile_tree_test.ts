/**
 * index_repo against a GitHub API whose tree listing and tarball name paths git could never have
 * written (issue 25, minor 10): `../../x.py`, `a/../../y.py`, `/tmp/x.py`, a NUL in a name, `.`
 * and empty segments. None of them may become a repo path (stored, listed, searchable), the
 * refusal is said in a warning, and the repository's real files are indexed as usual.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import * as indexRepo from "../../src/tools/index_repo.ts";
import { DEFAULT_GITHUB_SETTINGS } from "../../src/ingest/github_config.ts";
import { FakeGitHub, initRepo } from "../ingest/_fake_github.ts";
import { inThreadParser, tempWorkspace, testConfig } from "../ingest/_helpers.ts";
import { blobSha, fileEntry, lazyGzip } from "./_hostile_archives.ts";

const GOOD = "def kept():\n    pass\n";
const EVIL = "def planted():\n    pass\n";
const HOSTILE = [
  "../../x.py",
  "a/../../y.py",
  "/tmp/x.py",
  "n\0ul.py",
  "./dot.py",
  "a//empty.py",
  "a/./b.py",
  "..",
];

Deno.test("index_repo: tree and tarball paths outside the repository are refused, with a warning", async () => {
  const ws = tempWorkspace("codemunch-hostile-tree-");
  const api = new FakeGitHub();
  try {
    initRepo(join(ws.root, "checkout"), { "src/a.py": GOOD });
    api.repos.set("evil/tree", { dir: join(ws.root, "checkout") });
    const good = new TextEncoder().encode(GOOD);
    const evil = new TextEncoder().encode(EVIL);
    const entry = (path: string, bytes: Uint8Array) => ({
      path,
      mode: "100644",
      type: "blob",
      sha: blobSha(bytes),
      size: bytes.length,
    });
    api.faults.push((path) => {
      if (/^\/repos\/evil\/tree\/git\/trees\//.test(path)) {
        const tree = [entry("src/a.py", good), ...HOSTILE.map((p) => entry(p, evil))];
        return new Response(JSON.stringify({ sha: "0".repeat(40), tree, truncated: false }), {
          headers: { "content-type": "application/json" },
        });
      }
      if (/^\/repos\/evil\/tree\/tarball\//.test(path)) {
        return new Response(lazyGzip(function* () {
          yield* fileEntry("top/src/a.py", good);
          for (const p of HOSTILE) yield* fileEntry(`top/${p.replace(/^\//, "")}`, evil);
          yield* fileEntry("top/../../x.py", evil);
        }()));
      }
      // The hostile entries are never fetched one by one either.
      if (/\/git\/blobs\/|\/contents\//.test(path)) {
        return new Response("not for a hostile path", { status: 500 });
      }
      return undefined;
    });
    const ctx = { store: ws.store, parser: inThreadParser, ingest: testConfig() };
    const out = await indexRepo.handler(
      { ...ctx, github: { ...DEFAULT_GITHUB_SETTINGS, apiUrl: api.apiUrl, retries: 0 } },
      { url: "evil/tree" },
    );
    equal(out.success, true, JSON.stringify(out));
    deepEqual(out.files, ["src/a.py"]);
    const warnings = (out.warnings ?? []) as string[];
    match(warnings.join("\n"), new RegExp(`Refused ${HOSTILE.length} tree entries`));
    const index = ws.store.repo("evil/tree");
    deepEqual(index.listFiles().map((f) => f.path), ["src/a.py"]);
    deepEqual(index.allSymbols().map((s) => s.name), ["kept"]);
    // Nothing was written beside the workspace either (the index writes only inside its store).
    for (const name of ["x.py", "y.py"]) {
      ok(!existsIn(ws.root, name), `${name} written under ${ws.root}`);
    }
  } finally {
    await api.close();
    ws.dispose();
  }
});

function existsIn(dir: string, name: string): boolean {
  for (const e of Deno.readDirSync(dir)) {
    if (e.name === name) return true;
    if (e.isDirectory && existsIn(join(dir, e.name), name)) return true;
  }
  return false;
}
