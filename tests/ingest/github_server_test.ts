/**
 * index_repo through the real server as a client starts it (scripts/serve.ts with its narrow
 * permissions): the launcher must allow the configured GitHub API host and the summarizer host
 * (both fakes on 127.0.0.1 here) and pass their variables on; progress reaches the client.
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { call, connect } from "../e2e/_server.ts";
import { FakeProvider } from "../summarize/_fake_provider.ts";
import { FakeGitHub, initRepo } from "./_fake_github.ts";

Deno.test("index_repo over MCP stdio, with the launcher's permissions, a token and AI summaries", async () => {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-gh-e2e-" }));
  const root = join(base, "project");
  const api = new FakeGitHub();
  const provider = new FakeProvider();
  Deno.mkdirSync(root);
  const commit = initRepo(join(base, "checkout"), {
    "lib/calc.py":
      'def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    """Subtract."""\n    return a - b\n',
  });
  api.repos.set("acme/calc", { dir: join(base, "checkout"), token: "tok-123" });
  const server = await connect(root, join(base, "index"), {
    GITHUB_API_URL: api.apiUrl,
    GITHUB_TOKEN: "tok-123",
    OPENAI_API_BASE: provider.url + "/v1",
  });
  try {
    const progress: string[] = [];
    const result = await server.client.callTool(
      { name: "index_repo", arguments: { url: "acme/calc", format: "json" } },
      undefined,
      { onprogress: (p: { message?: string }) => progress.push(String(p.message)) },
    );
    const text = (result.content as { text: string }[])[0]!.text;
    equal(result.isError, undefined, text);
    const body = JSON.parse(text);
    equal(body.repo, "acme/calc");
    equal(body.git_head, commit);
    equal(body.symbol_count, 2);
    ok(progress.length > 0);
    equal(provider.requests.length, 1);

    const outline = await call(server.client, "get_file_outline", {
      repo: "acme/calc",
      file_path: "lib/calc.py",
      format: "json",
    });
    match(outline.text, /AI: function add/);
    match(outline.text, /Subtract\./);
    const repos = await call(server.client, "list_repos", { format: "json" });
    match(repos.text, new RegExp(commit));
    for (const l of api.log) equal(l.authorization, "Bearer tok-123");
  } finally {
    await server.close();
    await api.close();
    await provider.close();
    Deno.removeSync(base, { recursive: true });
  }
});
