/**
 * Secrets are never served (issue 10): a private key's body lines stay hidden whatever window of
 * the file a tool serves — a get_file_content line range inside the key, get_symbol_source
 * context lines, search_text hits and context — and search_text does not report matches inside
 * a redacted secret, so it cannot rebuild one a character at a time.
 */
import { equal, ok } from "node:assert/strict";
import { tempWorkspace, workspaceRunner, writeTree } from "../ingest/_helpers.ts";

const BODY_1 = "MIIEowIBAAKCAQEAq1w2e3r4t5y6u7i8o9p0";
const BODY_2 = "ZmFrZWtleW1hdGVyaWFsZm9ydGhldGVzdDEy";
const TOKEN = "ghp_0123456789abcdefghijABCDEFGHIJ012345";

const KEYS_PY = [
  '"""Deployment keys (fake, for the redaction test)."""', // 1
  'PEM = """-----BEGIN RSA PRIVATE KEY-----', // 2
  BODY_1, // 3
  BODY_2, // 4
  '-----END RSA PRIVATE KEY-----"""', // 5
  "", // 6
  "def use_key():", // 7
  "    return PEM", // 8
  "", // 9
  `GITHUB_TOKEN = "${TOKEN}"`, // 10
  "",
].join("\n");

function leaks(value: unknown): string[] {
  const text = JSON.stringify(value);
  return [BODY_1, BODY_2, TOKEN, "MIIEow", "ZmFrZWtl", "0123456789abcdef"].filter((s) =>
    text.includes(s)
  );
}

Deno.test("secrets: no window of a file serves a private key or token", async (t) => {
  const ws = tempWorkspace();
  writeTree(ws.root, { "keys.py": KEYS_PY });
  const runner = workspaceRunner(ws);
  const call = async (name: string, args: Record<string, unknown>) =>
    JSON.parse((await runner.call(name, { ...args, format: "json" })).text);
  try {
    const { repo } = await call("index_folder", { path: ws.root });
    await t.step("get_file_content: a line range inside the key", async () => {
      const r = await call("get_file_content", {
        repo,
        file_path: "keys.py",
        start_line: 3,
        end_line: 4,
      });
      equal(r.content, "[REDACTED:private_key]\n[REDACTED:private_key]");
      const whole = await call("get_file_content", { repo, file_path: "keys.py" });
      equal(whole.line_count, 10);
      ok(leaks(whole).length === 0, leaks(whole).join(", "));
      // Line numbers are kept: line 7 is still the function.
      const fn = await call("get_file_content", {
        repo,
        file_path: "keys.py",
        start_line: 7,
        end_line: 7,
      });
      equal(fn.content, "def use_key():");
    });
    await t.step("get_symbol_source: context lines inside the key", async () => {
      const r = await call("get_symbol_source", {
        repo,
        symbol_id: "keys.py::use_key#function",
        // Lines 4-6: the end of the key without its BEGIN line.
        context_lines: 3,
      });
      ok(String(r.source).startsWith("def use_key()"), JSON.stringify(r));
      ok(leaks(r).length === 0, leaks(r).join(", "));
      ok(String(r.context_before).includes("[REDACTED:private_key]"));
    });
    await t.step("search_text: hits and context inside the key", async () => {
      const body = await call("search_text", { repo, query: BODY_1.slice(0, 12) });
      equal(body.result_count, 0, JSON.stringify(body));
      const near = await call("search_text", { repo, query: "use_key", context_lines: 5 });
      ok(near.result_count >= 1);
      ok(leaks(near).length === 0, leaks(near).join(", "));
    });
    await t.step("search_text is no oracle for a redacted token", async () => {
      // Rebuilding the token one character at a time needs prefix matches to be reported.
      for (const query of ["ghp_0", "ghp_[0-9a-f]", `GITHUB_TOKEN = "ghp_`, "0123456789abcdef"]) {
        const r = await call("search_text", { repo, query, is_regex: true });
        equal(r.result_count, 0, `${query}: ${JSON.stringify(r.results)}`);
      }
      const named = await call("search_text", { repo, query: "GITHUB_TOKEN" });
      equal(named.result_count, 1);
      equal(named.results[0].text, 'GITHUB_TOKEN = "[REDACTED:github_token]"');
      ok(leaks(named).length === 0);
    });
  } finally {
    await runner.close();
    ws.dispose();
  }
});
