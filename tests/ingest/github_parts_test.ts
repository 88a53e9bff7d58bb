/**
 * The parts of index_repo on their own: the repository argument, the tar reader (against
 * archives written by the system's `tar` in the ustar, GNU and pax formats, and by `git archive`),
 * and the HTTP client's token handling across redirects.
 */
import { deepEqual, equal, throws } from "node:assert/strict";
import { join } from "node:path";
import { parseRepoUrl } from "../../src/ingest/github_url.ts";
import { readTarGz } from "../../src/ingest/tar.ts";
import { GitHubHttp } from "../../src/ingest/github_http.ts";
import { DEFAULT_GITHUB_SETTINGS } from "../../src/ingest/github_config.ts";
import { ToolError } from "../../src/errors.ts";
import { git, initRepo, writeFiles } from "./_fake_github.ts";

Deno.test("parseRepoUrl: the accepted forms and the refused ones", () => {
  const ok = [
    ["acme/demo", { owner: "acme", name: "demo" }],
    ["acme/demo.git", { owner: "acme", name: "demo" }],
    ["https://github.com/acme/demo", { owner: "acme", name: "demo" }],
    ["https://www.github.com/acme/demo.git", { owner: "acme", name: "demo" }],
    ["https://github.com/acme/demo/tree/v1.2/src/x", { owner: "acme", name: "demo", ref: "v1.2" }],
    ["https://github.com/acme/demo/commit/abc123", { owner: "acme", name: "demo", ref: "abc123" }],
    ["git@github.com:acme/demo.git", { owner: "acme", name: "demo" }],
  ] as const;
  for (const [input, expected] of ok) deepEqual(parseRepoUrl(input), expected, input);
  deepEqual(parseRepoUrl("https://ghe.corp/acme/demo", "ghe.corp"), {
    owner: "acme",
    name: "demo",
  });
  const refused = (input: string, message: RegExp) =>
    throws(() => parseRepoUrl(input), (e) => e instanceof ToolError && message.test(e.message));
  refused("https://gitlab.com/a/b", /Unsupported host 'gitlab.com'.*GITHUB_API_URL/);
  refused("acme", /Invalid owner\/repo format/);
  refused("acme/-bad", /Invalid owner\/repo format/);
  refused("", /must name a repository/);
  refused("https://[bad", /Could not parse GitHub URL/);
});

function tarGz(dir: string, format: string, names: string[]): Uint8Array {
  const out = new Deno.Command("tar", {
    args: ["--format", format, "-czf", "-", ...names],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return out.stdout;
}

Deno.test("readTarGz: ustar, GNU and pax archives, long and non-ASCII names, symlinks", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-tar-" });
  try {
    const long = "top/" + "d".repeat(60) + "/" + "e".repeat(60) + "/file.py";
    const files = {
      "top/a.py": "print('a')\n",
      [long]: "x = 1\n",
      "top/ünïcødé.py": "y = 2\n",
      "top/empty.py": "",
      "top/link.py": { symlink: "a.py" },
    };
    writeFiles(dir, files);
    for (const format of ["ustar", "gnu", "pax"]) {
      const archive = await readTarGz(tarGz(dir, format, ["top"]), () => true);
      const byPath = new Map(archive.entries.map((e) => [e.path, e]));
      const text = (p: string) => new TextDecoder().decode(byPath.get(p)?.content);
      equal(text("top/a.py"), "print('a')\n", format);
      equal(text(long), "x = 1\n", format);
      equal(text("top/ünïcødé.py"), "y = 2\n", format);
      equal(byPath.get("top/empty.py")?.content?.length, 0, format);
      equal(byPath.get("top/link.py")?.type, "symlink", format);
      equal(byPath.get("top/link.py")?.linkTarget, "a.py", format);
      equal(byPath.get("top")?.type, "dir", format);
    }
    const kept = await readTarGz(tarGz(dir, "pax", ["top"]), (p) => p.endsWith("a.py"));
    deepEqual(kept.entries.filter((e) => e.content !== undefined).map((e) => e.path), [
      "top/a.py",
    ]);

    const repo = join(dir, "repo");
    const commit = initRepo(repo, { [long.slice(4)]: "z = 3\n" });
    const archive = await readTarGz(
      git(repo, "archive", "--format=tar.gz", "--prefix=p/", "HEAD"),
      () => true,
    );
    equal(archive.comment, commit, "git archive's pax global header names the commit");
    equal(
      new TextDecoder().decode(
        archive.entries.find((e) => e.path === "p/" + long.slice(4))?.content,
      ),
      "z = 3\n",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("readTarGz: a corrupt or cut archive is a SyntaxError", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-tar-" });
  try {
    writeFiles(dir, { "a.py": "x = 1\n".repeat(500) });
    const raw = new Deno.Command("tar", { args: ["-cf", "-", "a.py"], cwd: dir, stdout: "piped" })
      .outputSync().stdout;
    const gz = async (bytes: Uint8Array) =>
      await new Response(
        new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
          new CompressionStream("gzip"),
        ),
      ).bytes();
    const bad = raw.slice();
    bad[10] = bad[10]! ^ 0xff;
    await readTarGz(await gz(raw.subarray(0, 1000)), () => true).then(
      () => {
        throw new Error("expected a failure");
      },
      (e) => equal(e instanceof SyntaxError, true, String(e)),
    );
    await readTarGz(await gz(bad), () => true).then(
      () => {
        throw new Error("expected a failure");
      },
      (e) => equal(e instanceof SyntaxError, true, String(e)),
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("GitHubHttp: the token goes to the API origin only, never to a redirect target", async () => {
  const seen: { server: string; auth: string | null }[] = [];
  const other = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (r) => {
    seen.push({ server: "other", auth: r.headers.get("authorization") });
    return new Response("archive bytes");
  });
  const api = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (r) => {
    seen.push({ server: "api", auth: r.headers.get("authorization") });
    return new Response(null, {
      status: 302,
      headers: { location: `http://127.0.0.1:${other.addr.port}/archive` },
    });
  });
  try {
    const http = new GitHubHttp({
      ...DEFAULT_GITHUB_SETTINGS,
      apiUrl: `http://127.0.0.1:${api.addr.port}`,
      token: "tok",
    });
    const r = await http.get("/repos/a/b/tarball/x", { what: "the tarball" });
    equal(new TextDecoder().decode(r.body), "archive bytes");
    deepEqual(seen, [{ server: "api", auth: "Bearer tok" }, { server: "other", auth: null }]);
  } finally {
    await api.shutdown();
    await other.shutdown();
  }
});
