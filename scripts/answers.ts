/**
 * Every tool's answers on the fixtures, recorded and compared: the check that a refactoring kept
 * behaviour byte for byte (responses, ids, scores, encodings). It indexes copies of the fixtures at
 * fixed paths (so repo ids and paths are the same in every run), calls every tool with a set of
 * arguments in every format, and writes what came back with the parts that change from run to run
 * (`timing_ms`, index times) blanked out.
 *
 * ```text
 * deno run -A scripts/answers.ts record <out.json>
 * deno run -A scripts/answers.ts compare <before.json> <after.json>
 * ```
 *
 * To compare against an older commit: `git worktree add /tmp/old <commit>`, copy this script into
 * it, record there and here, compare. It uses only `ToolRunner` and `Store`, which every commit
 * since the runner exists has.
 *
 * @module
 */
import { cpSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolRunner } from "../src/server/runner.ts";
import { DEFAULT_SETTINGS } from "../src/server/config.ts";
import { Store } from "../src/store/store.ts";

const CHECKOUT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Fixed so that repo ids (a hash of the path) are the same in every run. */
const BASE = "/tmp/codemunch-answers";

const FORMATS = ["json", "compact", "table", "auto"] as const;

/** One recorded call. */
interface Answer {
  tool: string;
  args: Record<string, unknown>;
  format: string;
  isError: boolean;
  encoding: string;
  text: string;
}

/**
 * Blank out what differs between runs of the same calls. JSON keys are matched with their quotes
 * single (a JSON answer) or doubled (inside a MUNCH `__json._meta="{""timing_ms"":…}"` blob).
 */
function normalise(text: string): string {
  return text
    .replace(/(""timing_ms"":)[0-9.e+-]+/g, "$10")
    .replace(/(""total_(?:encoding_)?tokens_saved"":)\d+/g, "$10")
    .replace(/(""encoding_tokens_saved"":)\d+/g, "$10")
    .replace(/(""(?:duration_ms|elapsed_ms|duration_seconds)"":)[0-9.e+-]+/g, "$10")
    .replace(/("timing_ms":)[0-9.e+-]+/g, "$10")
    .replace(/(timing_ms=)[0-9.e+-]+/g, "$1 0")
    .replace(/(_meta\.timing_ms:)(int|float)/g, "$1num")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?/g, "<time>")
    // Running totals sum every earlier answer: each answer's own counts are compared instead.
    .replace(/("total_(?:encoding_)?tokens_saved":)\d+/g, "$10")
    .replace(/(total_(?:encoding_)?tokens_saved=)\d+/g, "$10")
    // A MUNCH answer's saving moves by a token with the width of its timing (int or float in
    // __stypes); the compared text itself shows any real change of size.
    .replace(/("encoding_tokens_saved":)\d+/g, "$10")
    .replace(/(encoding_tokens_saved=)\d+/g, "$10")
    .replace(/("(?:duration_ms|elapsed_ms|duration_seconds)":)[0-9.e+-]+/g, "$10")
    .replace(/((?:duration_ms|elapsed_ms|duration_seconds)=)[0-9.e+-]+/g, "$10");
}

function _project(name: string, sources: string[]): string {
  const root = join(BASE, name);
  Deno.mkdirSync(root, { recursive: true });
  for (const s of sources) {
    const from = join(CHECKOUT, "fixtures", s);
    const to = sources.length === 1 ? root : join(root, s.split("/").pop()!);
    cpSync(from, to, { recursive: true });
  }
  return root;
}

/** Two commits with fixed authors and dates (so their ids are the same in every run). */
function _gitHistory(root: string): void {
  const git = (...args: string[]) => {
    const out = new Deno.Command("git", {
      args,
      cwd: root,
      env: {
        GIT_AUTHOR_NAME: "A",
        GIT_AUTHOR_EMAIL: "a@example.com",
        GIT_COMMITTER_NAME: "A",
        GIT_COMMITTER_EMAIL: "a@example.com",
        GIT_AUTHOR_DATE: "2024-01-02T03:04:05Z",
        GIT_COMMITTER_DATE: "2024-01-02T03:04:05Z",
      },
      stdout: "null",
      stderr: "piped",
    }).outputSync();
    if (!out.success) {
      throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
    }
  };
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "Add the shop");
  const cart = join(root, "shop", "cart.py");
  Deno.writeTextFileSync(
    cart,
    Deno.readTextFileSync(cart).replace(
      "self.items.append((item, amount))",
      "self.items.insert(0, (item, amount))",
    ),
  );
  git("commit", "-q", "-am", "fix: newest item first");
}

/** The calls: [tool, args] with `$<name>` standing for a repo id, picked ids filled in later. */
type Case = [string, Record<string, unknown>];

function _cases(repos: Record<string, string>, ids: Record<string, string>): Case[] {
  const lang = repos.languages!, graph = repos.graph!, ctx = repos.context!;
  const gw = repos.gateways!, ast = repos.ast!;
  return [
    ["list_repos", {}],
    ["get_repo_outline", { repo: lang }],
    ["get_repo_outline", { repo: graph, token_budget: 100 }],
    ["get_file_tree", { repo: lang }],
    ["get_file_tree", { repo: graph, path_prefix: "ts", include_summaries: true }],
    ["get_file_tree", { repo: lang, max_files: 3 }],
    ["get_file_outline", { repo: lang, file_path: "python/sample.py" }],
    ["get_file_outline", { repo: graph, file_paths: ["src/app.py", "ts/src/main.ts", "nope.py"] }],
    ["get_file_outline", { repo: lang, file_path: "typescript/src/index.ts", token_budget: 100 }],
    ["get_file_outline", { repo: lang, file_path: "pythn/sample.py" }],
    ["get_symbol_source", { repo: lang, symbol_id: ids.py1! }],
    ["get_symbol_source", { repo: lang, symbol_ids: [ids.py1!, ids.ts1!], verify: true }],
    ["get_symbol_source", { repo: lang, symbol_id: ids.py1!, context_lines: 3 }],
    ["get_symbol_source", { repo: lang, symbol_id: "python/sample.py::nope#function" }],
    ["get_symbol", { repo: lang, symbol_id: ids.go1! }],
    ["get_symbols", { repo: lang, symbol_ids: [ids.go1!] }],
    ["get_file_content", { repo: lang, file_path: "python/sample.py" }],
    ["get_file_content", { repo: lang, file_path: "go/main.go", start_line: 2, end_line: 6 }],
    ["get_file_content", { repo: lang, file_path: "rust/src/lib.rs", token_budget: 100 }],
    ["search_symbols", { repo: lang, query: "user" }],
    ["search_symbols", { repo: lang, query: "parse config", max_results: 3 }],
    ["search_symbols", { repo: lang, query: "get", kind: "function", language: "python" }],
    ["search_symbols", { repo: lang, query: "Usr", fuzzy: true }],
    ["search_symbols", { repo: lang, query: "user", detail_level: "full", max_results: 2 }],
    ["search_symbols", { repo: lang, query: "user", detail_level: "compact" }],
    ["search_symbols", { repo: lang, query: "user", debug: true, sort_by: "combined" }],
    ["search_symbols", { repo: lang, query: "user", token_budget: 300 }],
    ["search_symbols", { repo: lang, query: "zzqqxx_nothing" }],
    ["search_symbols", { repo: lang, query: "user", max_results: 9999, semantic: true }],
    ["search_symbols", { repo: lang, query: "user", file_pattern: "*.go" }],
    ["search_text", { repo: lang, query: "return" }],
    ["search_text", { repo: lang, query: "def \\w+", is_regex: true, context_lines: 1 }],
    ["search_text", { repo: lang, query: "TODO", case_sensitive: true, file_pattern: "*.py" }],
    ["search_text", { repo: lang, query: "import", max_results: 2 }],
    ["resolve_repo", { path: join(BASE, "graph", "src") }],
    ["resolve_repo", { path: "/tmp" }],
    ["find_references", { repo: graph, identifier: "Circle" }],
    ["find_references", { repo: graph, identifiers: ["describe", "helper"], max_results: 3 }],
    ["find_references", { repo: graph, identifier: "area", include_call_chain: true }],
    ["find_importers", { repo: graph, file_path: "src/shapes/circle.py" }],
    ["find_importers", {
      repo: graph,
      file_paths: ["ts/src/models/animal.ts", "go/store/store.go"],
    }],
    ["get_call_hierarchy", { repo: graph, symbol_id: ids.area!, depth: 2 }],
    ["get_call_hierarchy", { repo: graph, symbol_id: "main", direction: "callees" }],
    ["get_dependency_graph", { repo: graph, file: "src/app.py", direction: "both", depth: 2 }],
    ["get_dependency_graph", { repo: graph, file: "ts/src/main.ts" }],
    ["get_dependency_cycles", { repo: graph }],
    ["get_dependency_cycles", { repo: graph, max_results: 1 }],
    ["get_blast_radius", { repo: graph, symbol: "Shape" }],
    ["get_blast_radius", { repo: graph, symbol: ids.area!, include_source: true, depth: 2 }],
    ["get_blast_radius", { repo: graph, symbol: "Base", include_depth_scores: true }],
    ["get_impact_preview", { repo: graph, symbol_id: ids.area! }],
    ["get_class_hierarchy", { repo: graph, class_name: "Shape" }],
    ["get_class_hierarchy", { repo: graph, class_name: "Animal" }],
    ["get_class_hierarchy", { repo: graph, class_name: "Vehicle", depth: 1 }],
    ["search_ast", { repo: ast, pattern: "empty_catch" }],
    ["search_ast", { repo: ast, category: "security" }],
    ["search_ast", { repo: ast, pattern: "call:*.get" }],
    ["search_ast", { repo: ast, pattern: "string:/select/i", language: "python" }],
    ["search_ast", { repo: ast, pattern: "nesting:3", max_results: 2 }],
    ["get_tectonic_map", { repo: graph }],
    ["get_tectonic_map", { repo: lang, min_plate_size: 1, max_plates: 3 }],
    ["get_ranked_context", { repo: ctx, query: "add an item to the cart" }],
    ["get_ranked_context", { repo: ctx, query: "price", token_budget: 300, strategy: "bm25" }],
    ["get_ranked_context", { repo: graph, query: "circle area", include_kinds: ["method"] }],
    ["get_context_bundle", { repo: ctx, symbol_id: ids.ctx1! }],
    ["get_context_bundle", { repo: ctx, symbol_id: ids.ctx1!, output_format: "markdown" }],
    ["get_context_bundle", {
      repo: ctx,
      symbol_ids: [ids.ctx1!],
      include_callers: true,
      include_budget_report: true,
      token_budget: 400,
    }],
    ["get_signal_chains", { repo: gw }],
    ["get_signal_chains", { repo: gw, kind: "http", max_depth: 2 }],
    ["get_signal_chains", { repo: gw, symbol: ids.gw1!, include_tests: true }],
    ["get_watch_status", {}],
    ["get_changed_symbols", { repo: ctx, since_sha: "HEAD~1", until_sha: "HEAD" }],
    ["get_changed_symbols", { repo: ctx }],
    ["get_symbol_diff", { repo: ctx, symbol: ids.ctx1!, from_ref: "HEAD~1", to_ref: "HEAD" }],
    ["get_symbol_provenance", { repo: ctx, symbol: ids.ctx1! }],
    ["get_churn_rate", { repo: ctx, target: "shop/cart.py", days: 36500 }],
    ["get_churn_rate", { repo: lang, target: "python/sample.py" }],
    // Failures and argument handling.
    ["search_symbols", { repo: "nope/nope", query: "x" }],
    ["search_symbols", { repo: lang, query: 5 }],
    ["search_symbols", { repo: lang, query: "user", max_results: "3", unknown_arg: 1 }],
    ["get_file_tree", { repo: lang, max_files: 0 }],
    ["get_dependency_graph", { repo: graph, file: "src/app.py", depth: 9 }],
    ["no_such_tool", {}],
  ];
}

async function _firstId(
  runner: ToolRunner,
  repo: string,
  file: string,
  kind?: string,
  name?: string,
): Promise<string> {
  const r = await runner.call("get_file_outline", { repo, file_path: file, format: "json" });
  const body = JSON.parse(r.text) as { symbols?: { id: string; kind: string; name: string }[] };
  const hit = (body.symbols ?? []).find((s) =>
    (kind === undefined || s.kind === kind) && (name === undefined || s.name === name)
  );
  if (hit === undefined) throw new Error(`no ${kind ?? "symbol"} in ${file}: ${r.text}`);
  return hit.id;
}

/** Index the fixtures, call every case in every format, return the answers. */
export async function recordAnswers(): Promise<Answer[]> {
  try {
    Deno.removeSync(BASE, { recursive: true });
  } catch { /* first run */ }
  Deno.mkdirSync(BASE, { recursive: true });
  const roots = {
    languages: _project("languages", [
      "languages/python",
      "languages/go",
      "languages/typescript",
      "languages/rust",
      "languages/java",
    ]),
    graph: _project("graph", ["graph"]),
    context: _project("context", ["context"]),
    gateways: _project("gateways", ["gateways"]),
    ast: _project("ast", ["ast"]),
  };
  for (const r of Object.values(roots)) {
    for (const e of Deno.readDirSync(r)) {
      if (e.isDirectory) {
        try {
          Deno.removeSync(join(r, e.name, "expected.json"));
        } catch { /* none */ }
      }
    }
  }
  _gitHistory(roots.context);
  const runner = new ToolRunner({
    store: new Store(join(BASE, "index")),
    log: () => {},
  });
  const answers: Answer[] = [];
  const record = async (tool: string, args: Record<string, unknown>, format: string) => {
    const r = await runner.call(tool, { ...args, format });
    answers.push({
      tool,
      args,
      format,
      isError: r.isError,
      encoding: r.encoding,
      text: normalise(r.text),
    });
    return r;
  };
  try {
    const repos: Record<string, string> = {};
    for (const [name, root] of Object.entries(roots)) {
      const r = await record("index_folder", { path: root }, "json");
      repos[name] = (JSON.parse(r.text) as { repo: string }).repo;
    }
    await record("index_folder", { path: roots.graph, incremental: true }, "compact");
    const ids = {
      py1: await _firstId(runner, repos.languages!, "python/sample.py", "function"),
      ts1: await _firstId(runner, repos.languages!, "typescript/src/index.ts"),
      go1: await _firstId(runner, repos.languages!, "go/main.go"),
      area: await _firstId(runner, repos.graph!, "src/shapes/circle.py", "method", "area"),
      ctx1: await _firstId(runner, repos.context!, "shop/cart.py", "method", "add"),
      gw1: await _firstId(runner, repos.gateways!, "web/views.py"),
    };
    for (const [tool, args] of _cases(repos, ids)) {
      for (const format of FORMATS) await record(tool, args, format);
    }
    const file = join(roots.languages, "python", "sample.py");
    Deno.writeTextFileSync(
      file,
      Deno.readTextFileSync(file) + "\ndef added_later():\n    return 1\n",
    );
    await record("index_file", { path: file }, "json");
    await record("search_symbols", { repo: repos.languages!, query: "added_later" }, "json");
    await record("invalidate_cache", { repo: repos.context! }, "json");
    await record("list_repos", {}, "compact");
    // Extended MUNCH (the opt-in format with the tools' reshapings) for every read case.
    await runner.close();
    const extended = new ToolRunner({
      store: new Store(join(BASE, "index")),
      settings: { ...DEFAULT_SETTINGS, munchExtensions: true },
      log: () => {},
    });
    try {
      for (const [tool, args] of _cases(repos, ids)) {
        if (args.repo === repos.context) continue; // deleted above
        const r = await extended.call(tool, { ...args, format: "compact" });
        answers.push({
          tool,
          args,
          format: "compact+extensions",
          isError: r.isError,
          encoding: r.encoding,
          text: normalise(r.text),
        });
      }
    } finally {
      await extended.close();
    }
  } finally {
    await runner.close();
  }
  return answers;
}

function _compare(before: Answer[], after: Answer[]): number {
  let differ = 0;
  const n = Math.max(before.length, after.length);
  for (let i = 0; i < n; i++) {
    const a = before[i], b = after[i];
    const label = `${a?.tool ?? b?.tool} ${JSON.stringify(a?.args ?? b?.args)} ${
      a?.format ?? b?.format
    }`;
    if (a === undefined || b === undefined) {
      console.log(`MISSING ${label}`);
      differ++;
      continue;
    }
    if (a.text === b.text && a.isError === b.isError && a.encoding === b.encoding) continue;
    differ++;
    console.log(
      `DIFFERS ${label}\n  before: ${a.text.slice(0, 400)}\n  after:  ${b.text.slice(0, 400)}`,
    );
  }
  console.log(`${n} answers, ${n - differ} identical, ${differ} different`);
  return differ;
}

if (import.meta.main) {
  const [mode, a, b] = Deno.args;
  if (mode === "record" && a !== undefined) {
    const answers = await recordAnswers();
    Deno.writeTextFileSync(a, JSON.stringify(answers, null, 1) + "\n");
    console.log(`${answers.length} answers written to ${a}`);
  } else if (mode === "compare" && a !== undefined && b !== undefined) {
    const read = (p: string) => JSON.parse(Deno.readTextFileSync(p)) as Answer[];
    Deno.exit(_compare(read(a), read(b)) === 0 ? 0 : 1);
  } else {
    console.error("usage: answers.ts record <out.json> | compare <before.json> <after.json>");
    Deno.exit(2);
  }
}
