import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { canEncodeV1, decode, decodeTables, type JsonObject } from "../../mod.ts";
import { call, connect, normalised, tempProject } from "./_server.ts";
import { TOOLS } from "../../src/tools/mod.ts";

/** Every name the server lists: each tool's own (aliases are callable, not listed). */
const EXPECTED_TOOLS = TOOLS.map((t) => t.name);

Deno.test("MCP server over stdio: every tool, in json and compact form", async (t) => {
  const p = tempProject();
  const server = await connect(p.root, p.indexDir);
  const { client } = server;
  try {
    let repo = "";

    /** Call in json and compact; the compact text must decode to the json response. */
    const both = async (name: string, args: Record<string, unknown>) => {
      const json = await call(client, name, { ...args, format: "json" });
      equal(json.isError, false, json.text);
      ok(json.text.startsWith("{"), json.text.slice(0, 80));
      const compact = await call(client, name, { ...args, format: "compact" });
      equal(compact.isError, false, compact.text);
      if (!canEncodeV1(json.body as JsonObject)) {
        // A key MUNCH v1 cannot carry (the reference's "⚠ warning"): compact sends JSON.
        deepStrictEqual(normalised(compact.body), normalised(json.body));
        return json.body;
      }
      ok(compact.text.startsWith("#MUNCH/1 tool=" + name + " "), compact.text.slice(0, 80));
      const meta = compact.body._meta as Record<string, unknown>;
      equal(typeof meta.encoding, "string");
      equal(typeof meta.encoding_tokens_saved, "number");
      equal(typeof meta.total_encoding_tokens_saved, "number");
      equal(compact.text.split("\n")[0]!.split(" enc=")[1], meta.encoding);
      ok((meta.encoding_tokens_saved as number) >= 0);
      ok((meta.total_encoding_tokens_saved as number) >= (meta.encoding_tokens_saved as number));
      ok((meta.total_tokens_saved as number) >= (meta.tokens_saved as number));
      ok((meta.total_tokens_saved as number) < 987654321000, "sentinels were filled in");
      deepStrictEqual(
        normalised(decode(compact.text) as Record<string, unknown>),
        normalised(json.body),
      );
      return json.body;
    };

    await t.step("tools/list has every tool with its schema and the format argument", async () => {
      const tools = (await client.listTools()).tools as Tool[];
      deepStrictEqual(tools.map((x) => x.name), EXPECTED_TOOLS);
      for (const tool of tools) {
        ok((tool.description ?? "").length > 40, tool.name);
        const schema = tool.inputSchema as {
          properties?: Record<string, { description?: string }>;
        };
        ok(schema.properties?.format !== undefined, `${tool.name} has format`);
        for (const [k, v] of Object.entries(schema.properties ?? {})) {
          ok((v.description ?? "").length > 0, `${tool.name}.${k} is described`);
        }
      }
      const search = tools.find((x) => x.name === "search_symbols")!;
      deepStrictEqual((search.inputSchema as { required?: string[] }).required, ["query"]);
      equal(search.annotations?.readOnlyHint, true);
    });

    await t.step("index_folder indexes the multi-language project", async () => {
      const r = await call(client, "index_folder", { path: p.root, format: "json" });
      equal(r.isError, false, r.text);
      equal(r.body.success, true);
      repo = r.body.repo as string;
      match(repo, /^local\/project-[0-9a-f]{8}$/);
      const languages = r.body.languages as Record<string, number>;
      ok(languages.python! >= 3 && languages.go! >= 1 && languages.typescript! >= 1, r.text);
      ok((r.body.symbol_count as number) > 20);
    });

    await t.step("index_folder again: unchanged, in json and compact form", async () => {
      const json = await call(client, "index_folder", { path: p.root, format: "json" });
      const compact = await call(client, "index_folder", { path: p.root, format: "compact" });
      ok(compact.text.startsWith("#MUNCH/1 tool=index_folder enc=gen1"), compact.text);
      equal(json.body.message, "No changes detected");
      const strip = (b: Record<string, unknown>) => {
        const c = normalised(b);
        delete c.duration_seconds;
        return c;
      };
      deepStrictEqual(strip(compact.body), strip(json.body));
    });

    await t.step("list_repos", async () => {
      const body = await both("list_repos", {});
      equal(body.count, 1);
      equal((body.repos as { repo: string }[])[0]!.repo, repo);
    });

    await t.step("get_repo_outline", async () => {
      const body = await both("get_repo_outline", { repo });
      equal(body.repo, repo);
      const dirs = body.directories as Record<string, number>;
      ok(dirs["python/"]! >= 3 && dirs["(root)"] === 1, JSON.stringify(dirs));
      ok((body.symbol_kinds as Record<string, number>).function! > 0);
      equal((body._meta as Record<string, unknown>).repo, repo);
    });

    await t.step("get_file_tree (whole, prefix, summaries, truncated)", async () => {
      const body = await both("get_file_tree", { repo });
      // One row per file, sorted by path.
      const names = (body.files as { path: string }[]).map((n) => n.path);
      deepStrictEqual(names, [...names].sort());
      ok(names.includes("settings.py") && names.some((n) => n.startsWith("python/")));
      ok(names.every((n) => !n.endsWith("/")), JSON.stringify(names));
      const sub = await both("get_file_tree", {
        repo,
        path_prefix: "python/",
        include_summaries: true,
      });
      const files = sub.files as Record<string, unknown>[];
      ok(files.some((f) => f.path === "python/sample.py" && typeof f.summary === "string"));
      const cut = await both("get_file_tree", { repo, max_files: 2 });
      const meta = cut._meta as Record<string, unknown>;
      equal(meta.truncated, true);
      match(String(meta.hint), /narrow with path_prefix/);
    });

    await t.step("get_file_outline (single and batch)", async () => {
      const body = await both("get_file_outline", { repo, file_path: "python/sample.py" });
      equal(body.language, "python");
      const symbols = body.symbols as Record<string, unknown>[];
      const greeter = symbols.find((s) => s.name === "Greeter")!;
      // Rows with a parent column instead of nested children; decorators one string.
      ok(symbols.some((s) => s.parent === greeter.id), JSON.stringify(symbols));
      equal(greeter.parent, null);
      equal(typeof greeter.decorators, "string");
      const batch = await both("get_file_outline", {
        repo,
        file_paths: ["python/sample.py", "go/main.go", "missing.py"],
      });
      // One table of every file's symbols with a file column, one row per file.
      deepStrictEqual((batch.files as { file: string }[]).map((f) => f.file), [
        "python/sample.py",
        "go/main.go",
      ]);
      const rows = batch.symbols as { file: string }[];
      deepStrictEqual([...new Set(rows.map((r) => r.file))], ["python/sample.py", "go/main.go"]);
      equal((batch.errors as { file: string }[])[0]!.file, "missing.py");
    });

    await t.step("get_symbol_source (single, batch, aliases, verify, context)", async () => {
      const one = await both("get_symbol_source", {
        repo,
        symbol_id: "python/sample.py::greet#function",
        verify: true,
        context_lines: 2,
      });
      match(String(one.source), /^def greet\(name: str = DEFAULT_NAME\) -> str:/);
      equal(one.content_verified, true);
      equal(typeof one.context_before, "string");
      const batch = await both("get_symbols", {
        repo,
        symbol_ids: ["python/sample.py::greet#function", "nope.py::x#function"],
      });
      equal((batch.symbols as unknown[]).length, 1);
      equal((batch.errors as { id: string }[])[0]!.id, "nope.py::x#function");
      const alias = await both("get_symbol", {
        repo,
        symbol_id: "python/sample.py::greet#function",
      });
      equal(alias.source, one.source);
    });

    await t.step("get_file_content (whole and range)", async () => {
      const whole = await both("get_file_content", { repo, file_path: "python/sample.py" });
      const text = Deno.readTextFileSync(join(p.root, "python/sample.py"));
      equal(whole.content, text);
      equal(whole.start_line, 1);
      const range = await both("get_file_content", {
        repo,
        file_path: "python/sample.py",
        start_line: 2,
        end_line: 3,
      });
      equal(range.content, text.split("\n").slice(1, 3).join("\n"));
      equal(range.line_count, whole.line_count);
    });

    await t.step("search_symbols (ranking, filters, detail levels, fuzzy, no match)", async () => {
      const body = await both("search_symbols", { repo, query: "greet" });
      const results = body.results as Record<string, unknown>[];
      equal(results[0]!.name, "greet");
      ok(results.every((r) => typeof r.score === "number"));
      ok((results[0]!.score as number) >= (results.at(-1)!.score as number));
      const filtered = await both("search_symbols", {
        repo,
        query: "greet",
        kind: "class",
        file_pattern: "*.py",
      });
      ok(
        (filtered.results as Record<string, unknown>[]).every((r) =>
          r.kind === "class" && String(r.file).endsWith(".py")
        ),
      );
      const go = await both("search_symbols", { repo, query: "store", language: "go" });
      ok((go.results as Record<string, unknown>[]).every((r) => String(r.file).endsWith(".go")));
      const full = await both("search_symbols", { repo, query: "greet", detail_level: "full" });
      ok(typeof (full.results as Record<string, unknown>[])[0]!.source === "string");
      const fuzzy = await both("search_symbols", { repo, query: "gret", fuzzy: true });
      ok((fuzzy.results as Record<string, unknown>[]).some((r) => r.match_type === "fuzzy"));
      const none = await both("search_symbols", { repo, query: "zzqqxxwwvv" });
      equal(none.result_count, 0);
      equal((none.negative_evidence as Record<string, unknown>).verdict, "no_implementation_found");
    });

    await t.step(
      "search_text (literal, regex, case, context, file_pattern, redaction)",
      async () => {
        const lit = await both("search_text", { repo, query: "def greet" });
        const rows = lit.results as { file: string; line: number; text: string }[];
        ok(rows.some((f) => f.file === "python/sample.py"));
        const regex = await both("search_text", {
          repo,
          query: "^func\\s+\\w+",
          is_regex: true,
          context_lines: 1,
          file_pattern: "*.go",
        });
        const rf = regex.results as { file: string; kind: string }[];
        ok(rf.length > 0 && rf.every((f) => f.file.endsWith(".go")));
        // Context lines are rows of their own.
        ok(rf.some((r) => r.kind === "context") && rf.some((r) => r.kind === "match"));
        const cs = await both("search_text", { repo, query: "DEF GREET", case_sensitive: true });
        equal(cs.result_count, 0);
        const secret = await both("search_text", { repo, query: "AWS_KEY_ID" });
        const line = (secret.results as { text: string }[])[0]!.text;
        equal(line, 'AWS_KEY_ID = "[REDACTED:aws_access_key]"');
        ok(((secret._meta as Record<string, number>).secrets_redacted ?? 0) >= 1);
        const content = await both("get_file_content", { repo, file_path: "settings.py" });
        ok(!String(content.content).includes("AKIAIOSFODNN7EXAMPLE"));
        ok(String(content.content).includes("[REDACTED:github_token]"));
        const many = await both("search_text", { repo, query: "e", max_results: 3 });
        equal(many.result_count, 3);
        equal((many._meta as Record<string, unknown>).truncated, true);
      },
    );

    await t.step("auto format and _meta totals", async () => {
      const r = await call(client, "search_symbols", { repo, query: "greet", max_results: 30 });
      ok(r.text.startsWith("#MUNCH/1") || r.text.startsWith("{"));
      const meta = r.body._meta as Record<string, number>;
      ok(meta.total_tokens_saved! >= meta.tokens_saved!);
      const source = await call(client, "get_symbol_source", {
        repo,
        symbol_id: "python/sample.py::greet#function",
      });
      const sourceMeta = source.body._meta as Record<string, number>;
      ok(sourceMeta.tokens_saved! > 0, source.text);
      ok(sourceMeta.total_tokens_saved! > meta.total_tokens_saved!);
      const args = { repo, query: "greet", max_results: 30, detail_level: "compact" };
      const table = await call(client, "search_symbols", { ...args, format: "table" });
      const plain = await call(client, "search_symbols", { ...args, format: "json" });
      ok("cols" in (JSON.parse(table.text).results as object), table.text.slice(0, 200));
      deepStrictEqual(
        normalised(decodeTables(JSON.parse(table.text)) as Record<string, unknown>),
        normalised(plain.body),
      );
    });

    await t.step("invalidate_cache", async () => {
      const r = await call(client, "invalidate_cache", { repo, format: "compact" });
      equal(r.isError, false, r.text);
      equal(r.body.success, true);
      const after = await call(client, "list_repos", { format: "json" });
      equal(after.body.count, 0);
    });
  } finally {
    await server.close();
    p.dispose();
  }
});

Deno.test("MCP server over stdio: every error is an isError result with a code, and serving goes on", async (t) => {
  const p = tempProject();
  // A second folder with the same name, so that the bare name "project" is ambiguous.
  const twin = join(p.base, "twin", "project");
  Deno.mkdirSync(twin, { recursive: true });
  Deno.writeTextFileSync(join(twin, "app.py"), "def main():\n    return 1\n");
  const server = await connect(p.base, p.indexDir);
  const { client } = server;
  try {
    const indexed = await call(client, "index_folder", { path: p.root, format: "json" });
    equal(indexed.isError, false, indexed.text);
    const repo = indexed.body.repo as string;

    const fails = async (name: string, args: unknown, code: string, message: RegExp) => {
      const result = await client.callTool({ name, arguments: args as Record<string, unknown> });
      equal(result.isError, true, JSON.stringify(result));
      const text = (result.content as { text: string }[])[0]!.text;
      const body = JSON.parse(text) as Record<string, unknown>;
      equal(body.code, code, text);
      match(String(body.error), message);
      ok(!/\n\s+at /.test(text), "no stack trace");
      // The server still answers.
      const alive = await call(client, "list_repos", { format: "json" });
      equal(alive.isError, false);
      return body;
    };

    await t.step("unknown repo lists the indexed repos", async () => {
      const body = await fails("get_repo_outline", { repo: "nope" }, "repo_not_found", /nope/);
      deepStrictEqual(body.repos, [repo]);
      await fails(
        "search_symbols",
        { repo: "local/nope-12345678", query: "x" },
        "repo_not_found",
        /not indexed/,
      );
    });

    await t.step("ambiguous repo name gives the candidates", async () => {
      const second = await call(client, "index_folder", { path: twin, format: "json" });
      equal(second.isError, false, second.text);
      const amb = await fails("get_file_tree", { repo: "project" }, "repo_ambiguous", /Ambiguous/);
      equal((amb.candidates as string[]).length, 2);
      ok((amb.candidates as string[]).includes(repo));
    });

    await t.step("ambiguous symbol name gives the candidates", async () => {
      const body = await fails(
        "get_symbol_source",
        { repo, symbol_id: "parse" },
        "symbol_ambiguous",
        /Ambiguous symbol "parse"/,
      );
      ok((body.candidates as { id: string }[]).length >= 2);
      ok((body.candidates as { id: string }[]).every((c) => c.id.includes("::parse#")));
    });

    await t.step("unknown symbol id gives the closest matches", async () => {
      const body = await fails(
        "get_symbol_source",
        { repo, symbol_id: "python/sample.py::gret#function" },
        "symbol_not_found",
        /Symbol not found/,
      );
      ok(
        (body.closest as string[]).includes("python/sample.py::greet#function"),
        JSON.stringify(body),
      );
    });

    await t.step("path not in the index", async () => {
      const body = await fails(
        "get_file_outline",
        { repo, file_path: "sample.py" },
        "file_not_found",
        /File not found/,
      );
      deepStrictEqual(body.closest, ["python/sample.py"]);
      await fails(
        "get_file_content",
        { repo, file_path: "../etc/passwd" },
        "file_not_found",
        /passwd/,
      );
    });

    await t.step("bad argument types and ranges", async () => {
      await fails(
        "search_symbols",
        { repo },
        "invalid_argument",
        /Missing required argument "query"/,
      );
      // Out of range is clamped with a warning (API.md Part A §10), not an error.
      const clamped = await client.callTool({
        name: "search_symbols",
        arguments: { repo, query: "x", max_results: 0, format: "json" },
      });
      equal(clamped.isError ?? false, false, JSON.stringify(clamped));
      match(JSON.stringify(clamped), /max_results=0 is out of range and was clamped to 1/);
      await fails(
        "search_symbols",
        { repo, query: "x", max_results: "many" },
        "invalid_argument",
        /max_results/,
      );
      await fails(
        "search_symbols",
        { repo, query: "x", kind: "widget" },
        "invalid_argument",
        /kind/,
      );
      await fails(
        "search_symbols",
        { repo, query: "x", language: "klingon" },
        "invalid_argument",
        /klingon/,
      );
      // Nested quantifiers are no longer refused: the matcher runs in a worker stopped at the
      // time budget (tests/security/search_hang_test.ts), so any valid regex is answered.
      const nested = await call(client, "search_text", {
        repo,
        query: "(a+)+",
        is_regex: true,
        format: "json",
      });
      equal(nested.isError, false, nested.text);
      await fails(
        "search_text",
        { repo, query: "([", is_regex: true },
        "invalid_argument",
        /Invalid regex/,
      );
      await fails(
        "get_file_content",
        { repo, file_path: "go/main.go", start_line: 1.5 },
        "invalid_argument",
        /start_line/,
      );
      await fails("get_symbol_source", { repo }, "invalid_argument", /symbol_id/);
      await fails("get_file_outline", { repo: 42, file_path: "x" }, "invalid_argument", /repo/);
      await fails("list_repos", { format: "yaml" }, "invalid_argument", /format/);
      await fails("index_folder", { path: join(p.base, "missing") }, "folder_not_found", /missing/);
      await fails("no_such_tool", {}, "unknown_tool", /Unknown tool: no_such_tool/);
      // Coercion of strings as the reference does: "5" and "true" are accepted.
      const coerced = await call(client, "search_symbols", {
        repo,
        query: "greet",
        max_results: "2",
        fuzzy: "false",
        format: "json",
      });
      equal(coerced.isError, false, coerced.text);
      ok((coerced.body.results as unknown[]).length <= 2);
    });
  } finally {
    await server.close();
    p.dispose();
  }
});

Deno.test("MCP server over stdio: total_tokens_saved persists across restarts; CODEMUNCH_META=off", async () => {
  const p = tempProject();
  try {
    let first = await connect(p.root, p.indexDir);
    let total = 0;
    try {
      const progress: { progress: number; total?: number }[] = [];
      const indexed = await first.client.callTool(
        { name: "index_folder", arguments: { path: p.root, format: "json" } },
        undefined,
        { onprogress: (n: { progress: number; total?: number }) => progress.push(n) },
      );
      const repo = JSON.parse((indexed.content as { text: string }[])[0]!.text).repo as string;
      ok(progress.length >= 1, "index_folder reports progress");
      const last = progress.at(-1)!;
      equal(last.progress, last.total);
      const s = await call(first.client, "get_symbol_source", {
        repo,
        symbol_id: "python/sample.py::greet#function",
        format: "json",
      });
      total = (s.body._meta as Record<string, number>).total_tokens_saved!;
      ok(total > 0);
    } finally {
      await first.close();
    }
    first = await connect(p.root, p.indexDir);
    try {
      const r = await call(first.client, "get_file_outline", {
        repo: "project",
        file_path: "python/sample.py",
        format: "json",
      });
      const meta = r.body._meta as Record<string, number>;
      equal(meta.total_tokens_saved, total + meta.tokens_saved!);
    } finally {
      await first.close();
    }
    const bare = await connect(p.root, p.indexDir, { CODEMUNCH_META: "off" });
    try {
      const r = await call(bare.client, "get_file_outline", {
        repo: "project",
        file_path: "python/sample.py",
        format: "compact",
      });
      equal(r.body._meta, undefined);
      equal(r.body.file, "python/sample.py");
    } finally {
      await bare.close();
    }
  } finally {
    p.dispose();
  }
});
