/**
 * No oracle on a redacted secret (issue 25, critical 1): every response shows
 * `[REDACTED:<type>]`, and nothing derived from the secret's bytes answers differently for the
 * secret's next character than for a wrong one — search_text (hits, counts, `files_searched`),
 * search_symbols (BM25 and FTS terms, fuzzy names), search_ast (`string:` and `comment:`
 * matches, counts, `files_total`, the hardcoded_secret preset's snippet), get_ranked_context.
 * Each probe is asked with the right next character and with a wrong one; the answers must be
 * the same object (timings aside).
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";

const TOKEN = "ghp_Z9y8Qw7Ev6Rt5Yu4Io3Pa2Sd1Fg0HjKlMnBv";
const SLACK = "xoxb-12345678901-abcdefGHIJKLmnop";

const APP_PY = [
  "def connect():",
  `    """Connect using ${TOKEN} only."""`,
  "    return 1",
  "",
  `# deploy with ${SLACK} please`,
  "def deploy():",
  "    return 2",
  "",
  `API_TOKEN = "${TOKEN}"`,
  "",
].join("\n");

/** The answer without what varies from call to call (timings, cache state). */
function _stable(text: string): unknown {
  const body = JSON.parse(text);
  const meta = body._meta as Record<string, unknown> | undefined;
  if (meta !== undefined) {
    for (const k of Object.keys(meta)) {
      if (/(?:_ms|time|took|elapsed|cache|tokens_saved|cost)/i.test(k)) delete meta[k];
    }
  }
  return body;
}

/** `value` with every occurrence of `probe` replaced by a mark. */
function _masked(value: unknown, probe: string): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll(probe, "<probe>"));
}

/** The secret's prefix of `n` characters, and a wrong next character after it. */
function _probes(secret: string, n: number): [string, string] {
  const right = secret.slice(0, n + 1);
  const next = secret[n]!;
  const wrong = secret.slice(0, n) + (next === "Q" ? "X" : next === "9" ? "8" : "Q");
  return [right, wrong];
}

Deno.test("secrets: no tool answers differently for a secret's next character", async (t) => {
  const ws = tempWorkspace();
  writeTree(ws.root, { "app.py": APP_PY, "other.py": "def other():\n    return 3\n" });
  const runner = workspaceRunner(ws);
  const call = async (name: string, args: Record<string, unknown>) =>
    _stable((await runner.call(name, { ...args, format: "json" })).text);
  const same = async (
    name: string,
    make: (probe: string) => Record<string, unknown>,
    probe: [string, string],
  ) => {
    // An answer that echoes the query (a pattern, a hint) names the probe: that part is masked.
    const a = _masked(await call(name, make(probe[0])), probe[0]);
    const b = _masked(await call(name, make(probe[1])), probe[1]);
    deepEqual(a, b, `${name} answers differently for "${probe[0]}" and "${probe[1]}"`);
    ok(!JSON.stringify(a).includes(TOKEN.slice(4, 12)), `${name} shows the token`);
    return a;
  };
  try {
    const { repo } = await call("index_folder", { path: ws.root }) as { repo: string };
    for (const n of [5, 14]) {
      const probe = _probes(TOKEN, n);
      await t.step(`search_text literal and regex, prefix of ${n}`, async () => {
        await same("search_text", (q) => ({ repo, query: `using ${q}` }), probe);
        await same("search_text", (q) => ({ repo, query: q }), probe);
        await same(
          "search_text",
          (q) => ({ repo, query: `${q}[A-Za-z0-9]`, is_regex: true }),
          probe,
        );
        await same("search_text", (q) => ({ repo, query: `${q}`, case_sensitive: true }), probe);
      });
      await t.step(`search_symbols (BM25, fuzzy), prefix of ${n}`, async () => {
        const piece = [TOKEN.slice(4, 4 + n), TOKEN.slice(4, 3 + n) + "Q"] as [string, string];
        await same("search_symbols", (q) => ({ repo, query: q }), piece);
        await same("search_symbols", (q) => ({ repo, query: `connect ${q}` }), piece);
        await same("search_symbols", (q) => ({ repo, query: q, fuzzy: true }), piece);
        await same("get_ranked_context", (q) => ({ repo, query: q }), piece);
      });
      await t.step(`search_ast string: and comment:, prefix of ${n}`, async () => {
        await same("search_ast", (q) => ({ repo, pattern: `string:/using ${q}/` }), probe);
        await same("search_ast", (q) => ({ repo, pattern: `string:${q}` }), probe);
        await same("search_ast", (q) => ({ repo, pattern: `call:*${q}*` }), probe);
        const slack = _probes(SLACK, n);
        await same("search_ast", (q) => ({ repo, pattern: `comment:/with ${q}/` }), slack);
        await same("search_text", (q) => ({ repo, query: q }), slack);
      });
    }
    await t.step(
      "the hardcoded_secret preset names the secret without its characters",
      async () => {
        const r = await call("search_ast", { repo, pattern: "hardcoded_secret" }) as {
          matches: { snippet: string }[];
        };
        equal(r.matches.length, 1);
        ok(!r.matches[0]!.snippet.includes("gh"), r.matches[0]!.snippet);
        ok(r.matches[0]!.snippet.includes("API_TOKEN"), r.matches[0]!.snippet);
      },
    );
    await t.step("the docstring is served redacted", async () => {
      const r = await call("get_file_outline", { repo, file_path: "app.py" });
      const text = JSON.stringify(r);
      ok(text.includes("[REDACTED:github_token]"), text);
      ok(!text.includes("Z9y8"), text);
    });
  } finally {
    ws.dispose();
  }
});
