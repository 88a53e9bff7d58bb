/**
 * The AI summary tier through index_folder, against a fake provider on 127.0.0.1 for each wire
 * API: batching, the cache across re-indexes and repositories, malformed and partial replies,
 * errors with the circuit breaker, the wait bound, and what is (not) sent.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import * as indexFolder from "../../src/tools/index_folder.ts";
import { type SummarizerSettings, summarizerSettingsFromEnv } from "../../src/summarize/config.ts";
import { inThreadParser, tempWorkspace, testConfig, writeTree } from "../ingest/_helpers.ts";
import { FakeProvider } from "./_fake_provider.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { DEFAULT_SETTINGS } from "../../src/server/config.ts";

/** `n` Python functions without docstrings, and one with. */
function module(n: number, prefix = "fn"): string {
  const out = ['def documented(x):\n    """Has a doc."""\n    return x\n'];
  for (let i = 0; i < n; i++) out.push(`def ${prefix}_${i}(a, b):\n    return a * b + ${i}\n`);
  return out.join("\n");
}

function envFor(provider: FakeProvider, kind: string, extra: Record<string, string> = {}) {
  const vars: Record<string, string> = kind === "anthropic"
    ? { ANTHROPIC_API_KEY: "ant-key", ANTHROPIC_BASE_URL: provider.url }
    : kind === "gemini"
    ? { GOOGLE_API_KEY: "goog-key", GOOGLE_BASE_URL: provider.url }
    : { OPENAI_API_BASE: provider.url + "/v1", OPENAI_API_KEY: "oa-key" };
  return summarizerSettingsFromEnv((n) => ({ ...vars, ...extra })[n]);
}

function summaries(ws: ReturnType<typeof tempWorkspace>, repo: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of ws.store.repo(repo).allSymbols()) out[s.name] = s.summary;
  return out;
}

async function index(
  ws: ReturnType<typeof tempWorkspace>,
  summarizer: SummarizerSettings,
  path = ws.root,
  args: Record<string, unknown> = {},
) {
  return await indexFolder.handler(
    { store: ws.store, parser: inThreadParser, ingest: testConfig(), summarizer },
    { path, ...args },
  );
}

for (const kind of ["anthropic", "gemini", "openai"]) {
  Deno.test(`AI summaries (${kind}): batched, cached across re-indexes and repos, signatures only`, async () => {
    const ws = tempWorkspace();
    const provider = new FakeProvider();
    try {
      writeTree(ws.root, { "m.py": module(25) });
      const settings = envFor(provider, kind);
      equal(settings.provider?.kind, kind);
      const r = await index(ws, settings);
      const s = summaries(ws, r.repo as string);
      equal(s.fn_0, "AI: function fn_0");
      equal(s.fn_24, "AI: function fn_24");
      equal(s.documented, "Has a doc.", "the docstring tier is kept");
      equal(provider.requests.length, 3, "25 symbols in batches of 10");
      deepEqual(r.ai_summaries, {
        provider: kind,
        model: settings.provider!.model,
        eligible: 25,
        cached: 0,
        summarized: 25,
        fallback: 0,
        requests: 3,
        failed_requests: 0,
      });
      const auth = provider.requests[0]!.headers;
      if (kind === "anthropic") equal(auth.get("x-api-key"), "ant-key");
      else if (kind === "gemini") equal(auth.get("x-goog-api-key"), "goog-key");
      else equal(auth.get("authorization"), "Bearer oa-key");
      for (const req of provider.requests) {
        ok(!req.prompt.includes("return a * b"), "no function body is sent");
        ok(!req.prompt.includes("documented"), "documented symbols are not sent");
      }

      const again = await index(ws, settings, ws.root, { incremental: false });
      equal(provider.requests.length, 3, "a full re-index is answered from the cache");
      equal((again.ai_summaries as { cached: number }).cached, 25);
      deepEqual(summaries(ws, r.repo as string), s);

      const other = join(ws.root, "..", "copy");
      writeTree(other, { "m.py": module(25) });
      const r2 = await index(ws, settings, other);
      equal(
        provider.requests.length,
        3,
        "the same code in another repo is answered from the cache",
      );
      deepEqual(summaries(ws, r2.repo as string), s);

      await index(ws, settings, ws.root, { incremental: false, use_ai_summaries: false });
      equal(summaries(ws, r.repo as string).fn_0, "def fn_0(a, b)", "use_ai_summaries=false");
    } finally {
      await provider.close();
      ws.dispose();
    }
  });
}

Deno.test("AI summaries: malformed and partial replies, errors and the wait bound fall back", async (t) => {
  const provider = new FakeProvider();
  try {
    await t.step("a partial reply: the missing numbers keep signature summaries", async () => {
      const ws = tempWorkspace();
      try {
        provider.mode = "partial";
        writeTree(ws.root, { "m.py": module(4) });
        const r = await index(ws, envFor(provider, "openai"));
        const s = summaries(ws, r.repo as string);
        equal(s.fn_0, "AI: function fn_0");
        equal(s.fn_1, "def fn_1(a, b)");
        equal(s.fn_2, "AI: function fn_2");
        equal(r.success, true);
      } finally {
        ws.dispose();
      }
    });

    await t.step("a reply without numbered lines: signature summaries and a warning", async () => {
      const ws = tempWorkspace();
      try {
        provider.mode = "malformed";
        writeTree(ws.root, { "m.py": module(3, "g") });
        const r = await index(ws, envFor(provider, "anthropic"));
        equal(summaries(ws, r.repo as string).g_0, "def g_0(a, b)");
        match((r.warnings as string[]).join("\n"), /AI summaries: 1 of 1 requests failed/);
      } finally {
        ws.dispose();
      }
    });

    await t.step(
      "errors: after 3 failed requests in a row the provider is not called again",
      async () => {
        const ws = tempWorkspace();
        try {
          provider.mode = "error";
          provider.requests.length = 0;
          writeTree(ws.root, { "m.py": module(60, "h") });
          const settings = {
            ...envFor(provider, "gemini"),
            concurrency: 1,
          };
          const r = await index(ws, settings);
          equal(r.success, true);
          equal(r.symbol_count, 61);
          equal(provider.requests.length, 3);
          equal(summaries(ws, r.repo as string).h_59, "def h_59(a, b)");
          match((r.warnings as string[]).join("\n"), /stopped after 3 failed requests in a row/);
        } finally {
          ws.dispose();
        }
      },
    );

    await t.step("the run never waits on the summarizer longer than the bound", async () => {
      const ws = tempWorkspace();
      try {
        provider.mode = "slow";
        writeTree(ws.root, { "m.py": module(30, "k") });
        const settings = { ...envFor(provider, "openai"), maxWaitMs: 150, concurrency: 1 };
        const started = Date.now();
        const r = await index(ws, settings);
        ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
        equal(summaries(ws, r.repo as string).k_29, "def k_29(a, b)");
        match((r.warnings as string[]).join("\n"), /AI summaries (stopped|: )/);
      } finally {
        ws.dispose();
      }
    });

    await t.step("a signature that looks like a credential is not sent", async () => {
      const ws = tempWorkspace();
      try {
        provider.mode = "ok";
        provider.requests.length = 0;
        writeTree(ws.root, {
          "c.py": 'def connect(host, password="hunter2-very-secret-pw"):\n    pass\n',
        });
        const r = await index(ws, envFor(provider, "openai"));
        equal(provider.requests.length, 0);
        ok(summaries(ws, r.repo as string).connect!.startsWith("def connect("));
      } finally {
        ws.dispose();
      }
    });
  } finally {
    await provider.close();
  }
});

Deno.test("summarizer settings: provider choice, remote base URLs refused without the opt-in", () => {
  const from = (vars: Record<string, string>) => summarizerSettingsFromEnv((n) => vars[n]);
  equal(from({}).provider, null);
  equal(from({ ANTHROPIC_API_KEY: "k", GOOGLE_API_KEY: "g" }).provider?.kind, "anthropic");
  equal(
    from({ GOOGLE_API_KEY: "g", OPENAI_API_BASE: "http://localhost:1/v1" }).provider?.kind,
    "gemini",
  );
  equal(
    from({
      ANTHROPIC_API_KEY: "k",
      JCODEMUNCH_SUMMARIZER_PROVIDER: "openai",
      OPENAI_API_BASE: "http://127.0.0.1:9/v1",
    })
      .provider?.kind,
    "openai",
  );
  equal(from({ ANTHROPIC_API_KEY: "k", JCODEMUNCH_SUMMARIZER_PROVIDER: "none" }).provider, null);
  equal(
    from({ OPENAI_API_KEY: "k" }).provider,
    null,
    "OPENAI_API_KEY alone does not select OpenAI",
  );
  const anthropic = from({ ANTHROPIC_API_KEY: "k" }).provider!;
  equal(anthropic.baseUrl, "https://api.anthropic.com");
  equal(anthropic.model, "claude-haiku-4-5-20251001");
  const remote = from({ OPENAI_API_BASE: "https://llm.example.com/v1" });
  equal(remote.provider, null);
  match(remote.refused!, /JCODEMUNCH_ALLOW_REMOTE_SUMMARIZER=1/);
  match(
    from({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://proxy.example.com" }).refused!,
    /not on this machine/,
  );
  equal(
    from({ OPENAI_API_BASE: "https://llm.example.com/v1", JCODEMUNCH_ALLOW_REMOTE_SUMMARIZER: "1" })
      .provider?.baseUrl,
    "https://llm.example.com/v1",
  );
  equal(from({ ANTHROPIC_API_KEY: "k", JCODEMUNCH_USE_AI_SUMMARIES: "off" }).enabled, false);
  equal(
    from({ GOOGLE_API_KEY: "g", GOOGLE_MODEL: "m1", JCODEMUNCH_SUMMARIZER_MODEL: "m2" }).provider
      ?.model,
    "m2",
  );
});

Deno.test("AI summaries: index_file keeps them for the symbols it re-parses", async () => {
  const ws = tempWorkspace();
  const provider = new FakeProvider();
  try {
    writeTree(ws.root, { "m.py": module(2) });
    const settings = envFor(provider, "openai");
    const runner = new ToolRunner({
      store: ws.store,
      ingest: testConfig(),
      parser: inThreadParser,
      cwd: ws.root,
      settings: DEFAULT_SETTINGS,
      summarizer: settings,
    });
    try {
      const r = await runner.call("index_folder", { path: ws.root, format: "json" });
      const repo = (JSON.parse(r.text) as { repo: string }).repo;
      equal(summaries(ws, repo).fn_1, "AI: function fn_1");
      writeTree(ws.root, { "m.py": module(2) + "\ndef added_later(q):\n    return q\n" });
      const out = await runner.call("index_file", { path: join(ws.root, "m.py"), format: "json" });
      const body = JSON.parse(out.text) as Record<string, unknown>;
      equal(body.change, "changed", out.text);
      const s = summaries(ws, repo);
      equal(s.added_later, "AI: function added_later");
      equal(s.fn_1, "AI: function fn_1", "the unchanged symbols keep theirs (from the cache)");
      equal((body.ai_summaries as { summarized: number }).summarized, 1);
      const off = await runner.call("index_file", {
        path: join(ws.root, "m.py"),
        use_ai_summaries: false,
        format: "json",
      });
      equal(JSON.parse(off.text).change, "unchanged");
    } finally {
      await runner.close();
    }
  } finally {
    await provider.close();
    ws.dispose();
  }
});
