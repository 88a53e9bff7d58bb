/**
 * `repo` left out (issue 28): over stdio, with a server started as a client config starts it, a
 * tool that takes `repo` answers from the repo of an absolute path argument, the only indexed
 * repo, or the indexed folder the server runs in; with several candidates and no such hint it
 * fails with `repo_ambiguous` naming them; `invalidate_cache` never infers its repo.
 */
import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { call, connect, tempProject } from "./_server.ts";

Deno.test("repo omitted: the only indexed repo answers", async () => {
  const p = tempProject();
  const server = await connect(p.root, p.indexDir);
  try {
    const indexed = await call(server.client, "index_folder", { path: join(p.root, "python") });
    equal(indexed.isError, false, indexed.text);
    const repo = indexed.body.repo as string;
    const listed = await server.client.listTools();
    const search = listed.tools.find((t: { name: string }) => t.name === "search_symbols")!;
    ok(!(search.inputSchema.required ?? []).includes("repo"), "repo is not required");
    const hits = await call(server.client, "search_symbols", { query: "load", format: "json" });
    equal(hits.isError, false, hits.text);
    equal((hits.body._meta as { repo?: string }).repo, repo);
    ok((hits.body.results as unknown[]).length > 0, hits.text);
  } finally {
    await server.close();
    p.dispose();
  }
});

Deno.test("repo omitted: several repos — a path argument, the server's folder, else an error naming them", async () => {
  const p = tempProject();
  const server = await connect(p.root, p.indexDir);
  const inGo = await connect(p.root, p.indexDir, {}, join(p.root, "go", "internal"));
  try {
    const repos: Record<string, string> = {};
    for (const lang of ["python", "go"]) {
      const r = await call(server.client, "index_folder", { path: join(p.root, lang) });
      equal(r.isError, false, r.text);
      repos[lang] = r.body.repo as string;
    }
    // The server runs in the project folder, which neither index holds.
    const ambiguous = await call(server.client, "get_file_tree", { format: "json" });
    equal(ambiguous.isError, true, ambiguous.text);
    equal(ambiguous.body.code, "repo_ambiguous");
    deepStrictEqual(
      [...(ambiguous.body.candidates as string[])].sort(),
      Object.values(repos).sort(),
    );
    match(ambiguous.body.error as string, /pass repo/);

    // An absolute path names its repo, and is read as that repo's relative path.
    const outline = await call(server.client, "get_file_outline", {
      file_path: join(p.root, "python", "sample.py"),
      format: "json",
    });
    equal(outline.isError, false, outline.text);
    equal(outline.body.repo, repos.python);
    equal(outline.body.file, "sample.py");

    // A server started inside an indexed folder answers from it.
    const tree = await call(inGo.client, "get_file_tree", { format: "json" });
    equal(tree.isError, false, tree.text);
    equal(tree.body.repo, repos.go);

    // invalidate_cache deletes: it never guesses, even where the folder names a repo.
    for (const client of [server.client, inGo.client]) {
      const refused = await call(client, "invalidate_cache", {});
      equal(refused.isError, true, refused.text);
      equal(refused.body.code, "invalid_argument");
      match(refused.body.error as string, /repo/);
    }
    const after = await call(server.client, "list_repos", { format: "json" });
    equal((after.body.repos as unknown[]).length, 2, "nothing was deleted");
  } finally {
    await inGo.close();
    await server.close();
    p.dispose();
  }
});
