/**
 * The real command (`scripts/serve.ts serve --http`, narrow permissions, watch mode on by
 * default) as a team would run it: the SDK's Streamable HTTP client indexes a folder, a file is
 * edited on disk, and the next search sees the edit without another index call.
 */
import { deepStrictEqual, equal, match } from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { decode } from "../../mod.ts";
import { call, CHECKOUT, connect, serverEnv, tempProject } from "./_server.ts";

function spawnServer(root: string, indexDir: string, args: string[], extra = {}) {
  const env = serverEnv(root, indexDir, extra);
  if (env.DENO_DIR === "") delete env.DENO_DIR;
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      join(CHECKOUT, "scripts", "serve.ts"),
      "serve",
      "--http",
      ...args,
    ],
    env,
    clearEnv: true,
    cwd: root,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
}

Deno.test("e2e http: serve --http with watch mode keeps search fresh", async () => {
  const p = tempProject("codemunch-http-e2e-");
  const child = spawnServer(p.root, p.indexDir, ["--port", "0"]);
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let stderr = "";
  let client: Client | null = null;
  try {
    let url: string | undefined;
    while (url === undefined) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`server exited: ${stderr}`);
      stderr += value;
      url = /MCP over HTTP at (http:\S+)/.exec(stderr)?.[1]?.replace(/,$/, "");
    }
    // Keep reading stderr so the child never blocks on a full pipe.
    (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        stderr += value;
      }
    })().catch(() => {});
    client = new Client({ name: "e2e-http", version: "0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await client!.callTool({ name, arguments: { format: "json", ...args } });
      return decode((r.content as { text: string }[])[0]!.text) as Record<string, unknown>;
    };
    const indexed = await call("index_folder", { path: p.root });
    const repo = String(indexed.repo);
    Deno.writeTextFileSync(
      join(p.root, "python", "watched_edit.py"),
      "def appeared_after_edit():\n    return 1\n",
    );
    const t0 = performance.now();
    let files: string[] = [];
    while (performance.now() - t0 < 10_000) {
      const r = await call("search_symbols", { repo, query: "appeared_after_edit" });
      files = (r.results as { name: string; file: string }[])
        .filter((h) => h.name === "appeared_after_edit").map((h) => h.file);
      if (files.length > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    deepStrictEqual(files, ["python/watched_edit.py"]);
    const resolved = await call("resolve_repo", { path: join(p.root, "python") });
    equal(resolved.repo, repo);
  } finally {
    await client?.close().catch(() => {});
    child.kill("SIGTERM");
    await child.status;
    await reader.cancel().catch(() => {});
    p.dispose();
  }
});

Deno.test("e2e http: a non-loopback host without a token refuses to start", async () => {
  const p = tempProject("codemunch-http-e2e-");
  try {
    const child = spawnServer(p.root, p.indexDir, ["--host", "0.0.0.0", "--port", "0"]);
    const [status, err] = await Promise.all([
      child.status,
      new Response(child.stderr).text(),
    ]);
    equal(status.success, false);
    match(err, /Refusing to serve on 0\.0\.0\.0 without a token: set JCODEMUNCH_HTTP_TOKEN/);
  } finally {
    p.dispose();
  }
});

Deno.test("e2e cli: codemunch watch indexes a folder and re-indexes an edit", async () => {
  const p = tempProject("codemunch-watch-cli-");
  const env = serverEnv(p.root, p.indexDir);
  if (env.DENO_DIR === "") delete env.DENO_DIR;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      join(CHECKOUT, "scripts", "serve.ts"),
      "watch",
      p.root,
    ],
    env,
    clearEnv: true,
    cwd: p.root,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let stderr = "";
  const waitFor = async (re: RegExp) => {
    while (!re.test(stderr)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`watch exited: ${stderr}`);
      stderr += value;
    }
  };
  try {
    await waitFor(/codemunch: watching .* \(local\/project-[0-9a-f]{8}\)/);
    Deno.writeTextFileSync(join(p.root, "python", "cli_edit.py"), "def cli_edit():\n    pass\n");
    await waitFor(/codemunch: batch: 1 new, 0 changed, 0 deleted in \d+ ms/);
  } finally {
    child.kill("SIGTERM");
    const status = await child.status;
    await reader.cancel().catch(() => {});
    p.dispose();
    equal(status.code, 0, stderr);
  }
});

Deno.test("e2e stdio: the stdio server watches what it indexed (and not with CODEMUNCH_WATCH=0)", async () => {
  for (const watch of ["1", "0"]) {
    const p = tempProject("codemunch-stdio-watch-");
    const server = await connect(p.root, p.indexDir, { CODEMUNCH_WATCH: watch });
    try {
      const indexed = await call(server.client, "index_folder", { path: p.root, format: "json" });
      const repo = String(indexed.body.repo);
      Deno.writeTextFileSync(
        join(p.root, "go", "watched.go"),
        "package x\n\nfunc WatchedNow() {}\n",
      );
      const t0 = performance.now();
      let seen = false;
      while (!seen && performance.now() - t0 < (watch === "1" ? 10_000 : 1500)) {
        const r = await call(server.client, "search_symbols", {
          repo,
          query: "WatchedNow",
          format: "json",
        });
        seen = (r.body.results as { name: string }[]).some((h) => h.name === "WatchedNow");
        if (!seen) await new Promise((r) => setTimeout(r, 50));
      }
      equal(seen, watch === "1", server.stderr());
    } finally {
      await server.close();
      p.dispose();
    }
  }
});
