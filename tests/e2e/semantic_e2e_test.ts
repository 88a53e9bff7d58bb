/**
 * Semantic search end to end through a real MCP client over stdio, with the server started the
 * way a client config starts it (the launcher's narrow permissions: `--allow-net` gets the
 * provider's host from `OPENAI_API_BASE`): index_folder, embed_repo with progress notifications,
 * search_symbols with semantic=true against a fake OpenAI-compatible provider on 127.0.0.1.
 */
import { equal, ok } from "node:assert/strict";
import { call, connect, tempProject } from "./_server.ts";
import { startFakeEmbedder } from "../embed/_fake_embedder.ts";

Deno.test("MCP over stdio: embed_repo, then search_symbols semantic=true", async () => {
  const p = tempProject();
  const fake = startFakeEmbedder();
  try {
    const server = await connect(p.root, p.indexDir, {
      OPENAI_API_BASE: `${fake.url}/v1`,
      OPENAI_EMBED_MODEL: "fake-embed",
    });
    try {
      const indexed = await call(server.client, "index_folder", { path: p.root, format: "json" });
      const repo = indexed.body.repo as string;
      const progress: { progress: number; total?: number }[] = [];
      const result = await server.client.callTool(
        { name: "embed_repo", arguments: { repo, batch_size: 3, format: "json" } },
        undefined,
        { onprogress: (n: { progress: number; total?: number }) => progress.push(n) },
      );
      const text = (result.content as { text: string }[])[0]!.text;
      equal(result.isError, undefined, `${text}\n${server.stderr()}`);
      const embedded = JSON.parse(text) as Record<string, number>;
      ok(embedded.symbols_embedded! > 3, text);
      equal(embedded.symbols_embedded, embedded.symbols_total);
      ok(progress.length >= 1, "embed_repo reports progress");
      equal(progress.at(-1)!.progress, progress.at(-1)!.total);

      const hit = await call(server.client, "search_symbols", {
        repo,
        query: "fetch settings",
        semantic: true,
        format: "json",
      });
      equal(hit.isError, false, hit.text);
      equal((hit.body.results as { name: string }[])[0]!.name, "load_settings");
      equal((hit.body._meta as Record<string, unknown>).search_mode, "hybrid");
      ok(fake.requests.length >= 2, "the server called the provider");
    } finally {
      await server.close();
    }
  } finally {
    await fake.close();
    p.dispose();
  }
});
