/**
 * Every tool of the registry through the same cases, as Hono runs every router through
 * `common.case.test.ts`: a tool added to `src/tools/mod.ts` joins by itself. Each case is run
 * through the real runner (real parser, real SQLite, a real git history, a fake GitHub on
 * 127.0.0.1 for index_repo) on one project made of the fixtures:
 *
 * - **formats**: the sample call answers in `json`, `compact`, `table` and `auto`, and every
 *   form decodes to the same object;
 * - **fields**: the answer has only the declared response fields (and row columns), each of its
 *   declared type, and only declared `_meta` fields;
 * - **unknown repo**: a tool that takes `repo` answers an unknown one with `repo_not_found`;
 * - **repo omitted**: a tool whose `repo` is optional answers without it as with the repo of the
 *   folder the runner works in; one whose `repo` is required (it deletes) refuses;
 * - **wrong type**: a wrongly typed argument is `invalid_argument`, naming it;
 * - **clamped**: a number over its limit is clamped to it, with the runner's warning;
 * - **bounded**: every number argument has a limit, and a tool with row tables can say it cut
 *   them (`_meta.truncated`);
 * - **aliases**: an alias answers as its tool.
 *
 * A tool's sample arguments are made from its schema: an argument named in
 * {@linkcode SAMPLE_VALUES} gets that value, and {@linkcode SAMPLES} overrides a tool whole. A
 * required argument without a sample fails here, saying where to add one. Known gaps are data
 * ({@linkcode GAPS}), each with its reason; a gap whose case passes fails too (remove it).
 */
import { deepStrictEqual, equal, fail, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { z } from "zod";
import { canEncodeV1, decode, decodeTables, type JsonObject } from "../../mod.ts";
import { TOOLS } from "../../src/tools/mod.ts";
import type { Tool } from "../../src/tools/define.ts";
import { unwrapped } from "../../src/tools/define.ts";
import { ToolRunner } from "../../src/server/runner.ts";
import { DEFAULT_SETTINGS } from "../../src/server/config.ts";
import { DEFAULT_GITHUB_SETTINGS } from "../../src/ingest/github_config.ts";
import { Store } from "../../src/store/store.ts";
import { CHECKOUT } from "../e2e/_server.ts";
import { commitAll, FakeGitHub, initRepo } from "../ingest/_fake_github.ts";
import { inThreadParser, testConfig } from "../ingest/_helpers.ts";
import { embeddingSettingsFromEnv } from "../../src/embed/config.ts";
import { writeTinyModel } from "../embed/_onnx_model.ts";

/** The cases, by name. */
type Case =
  | "formats"
  | "fields"
  | "unknown repo"
  | "repo omitted"
  | "wrong type"
  | "clamped"
  | "bounded"
  | "aliases";

/** Known gaps: tool → case → why it does not hold (yet). */
const GAPS: Record<string, Partial<Record<Case, string>>> = {
  list_repos: {
    bounded: "one row per indexed repo: a server holds a handful, and the rows are small",
  },
  get_watch_status: {
    bounded: "one row per locally indexed repo, like list_repos",
  },
  get_blast_radius: {
    bounded: "source_budget is accepted for compatibility and ignored",
  },
  get_changed_symbols: {
    bounded: "max_blast_depth is accepted for compatibility and ignored",
  },
  get_file_content: {
    bounded: "start_line/end_line are line numbers: any line of a file (the text has token_budget)",
  },
  search_symbols: {
    bounded: "semantic_weight is accepted for compatibility and ignored",
  },
};

/** What the runner and the envelope add to every `_meta` (docs/tools.md, the envelope). */
const ENVELOPE_META = new Set([
  "timing_ms",
  "repo",
  "tokens_saved",
  "total_tokens_saved",
  "secrets_redacted",
  "warnings",
  "encoding",
  "encoding_tokens_saved",
  "total_encoding_tokens_saved",
  "reindexed_files",
]);

/** The world the samples refer to. */
interface World {
  root: string;
  repo: string;
  /** A throwaway repo, indexed again before each call that deletes it. */
  spare: string;
  spareRoot: string;
  symbolId: string;
  file: string;
}

/** A value per argument name, for every tool that has such an argument. */
const SAMPLE_VALUES: Record<string, (w: World) => unknown> = {
  query: () => "circle area",
  symbol_id: (w) => w.symbolId,
  symbol_ids: (w) => [w.symbolId],
  symbol: (w) => w.symbolId,
  identifier: () => "Circle",
  identifiers: () => ["Circle", "Shape"],
  file_path: (w) => w.file,
  file_paths: (w) => [w.file, "graph/src/app.py"],
  file: (w) => w.file,
  class_name: () => "Shape",
  target: (w) => w.file,
  pattern: () => "empty_catch",
  since_sha: () => "HEAD~1",
  until_sha: () => "HEAD",
  from_ref: () => "HEAD~1",
  to_ref: () => "HEAD",
  new_name: () => "renamedSample",
};

/** Whole sample calls, for tools whose arguments mean something else under a common name. */
const SAMPLES: Record<string, (w: World) => Record<string, unknown>> = {
  index_folder: (w) => ({ path: w.root }),
  index_file: (w) => ({ path: join(w.root, w.file) }),
  resolve_repo: (w) => ({ path: join(w.root, "graph") }),
  index_repo: () => ({ url: "acme/demo" }),
  invalidate_cache: (w) => ({ repo: w.spare }),
  plan_refactoring: (w) => ({
    repo: w.repo,
    symbol: w.symbolId,
    refactor_type: "rename",
    new_name: "renamedSample",
  }),
};

/** Pairs of optional arguments of which a tool needs one (the first is sampled). */
const _MODES: [string, string][] = [
  ["symbol_id", "symbol_ids"],
  ["file_path", "file_paths"],
  ["identifier", "identifiers"],
  ["pattern", "category"],
];

/** The sample call of a tool: its repo, the named samples, and every other required argument. */
function sampleArgs(tool: Tool, w: World): Record<string, unknown> {
  const whole = SAMPLES[tool.name];
  if (whole !== undefined) return whole(w);
  const args: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(tool.inputSchema.shape)) {
    if (name === "repo") args.repo = w.repo;
    else if (SAMPLE_VALUES[name] !== undefined && !schema.safeParse(undefined).success) {
      args[name] = SAMPLE_VALUES[name]!(w);
    } else if (!schema.safeParse(undefined).success) {
      fail(
        `${tool.name}: no sample for its required argument "${name}": add one to SAMPLE_VALUES or SAMPLES in tests/tools/conformance_test.ts`,
      );
    }
  }
  // Optional arguments that choose a mode a tool needs one of (symbol_id or symbol_ids, a
  // pattern or a category): the first of each pair is given.
  for (const [one, other] of _MODES) {
    if (args[one] === undefined && args[other] === undefined && tool.inputSchema.shape[one]) {
      args[one] = SAMPLE_VALUES[one]!(w);
    }
  }
  return args;
}

/** A call's answer parsed as JSON (the envelope's numbers that change per call removed). */
function stable(body: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(body);
  const meta = out._meta as Record<string, unknown> | undefined;
  if (meta !== undefined) {
    for (const k of Object.keys(meta)) {
      if (/timing|total_|encoding|elapsed|duration|cache_hit/.test(k)) delete meta[k];
    }
  }
  delete out.duration_seconds;
  return out;
}

/** A declared field's schema checked strictly: a row with an undeclared column fails. */
function strict(schema: z.ZodType, tool: Tool, field: string): z.ZodType {
  const table = tool.tables.get(field);
  if (table === undefined) return schema;
  const rows = z.array(table.row.strict());
  return schema.safeParse(undefined).success ? rows.optional() : rows;
}

/** Problems of an answer against the declaration (empty: as declared). */
function fieldProblems(tool: Tool, body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const { _meta, ...response } = body;
  const shape = Object.fromEntries(
    Object.entries(tool.fields).map(([k, s]) => [k, strict(s, tool, k)]),
  );
  const parsed = z.object(shape).strict().safeParse(response);
  if (!parsed.success) {
    for (const i of parsed.error.issues.slice(0, 5)) {
      problems.push(`${i.path.join(".") || "(response)"}: ${i.message}`);
    }
  }
  const declared = new Set<string>();
  for (const [k, s] of Object.entries(tool.meta)) {
    declared.add(k);
    const inner = unwrapped(s) as unknown as { shape?: Record<string, unknown> };
    for (const sub of Object.keys(inner.shape ?? {})) declared.add(`${k}_${sub}`);
  }
  for (const k of Object.keys((_meta ?? {}) as Record<string, unknown>)) {
    if (!declared.has(k) && !ENVELOPE_META.has(k)) problems.push(`_meta.${k} is not declared`);
  }
  return problems;
}

/** A value of the wrong type for an argument. */
function wrongValue(schema: z.ZodType): unknown {
  const type = unwrapped(schema)._zod.def.type;
  return type === "string" || type === "enum" ? { not: "a string" } : "not-a-number-or-list";
}

/** The numbers with a limit below 2^53: name → maximum. */
function boundedNumbers(tool: Tool): Map<string, number> {
  const out = new Map<string, number>();
  const json = z.toJSONSchema(tool.inputSchema, { target: "draft-7", io: "input" }) as {
    properties: Record<string, { type?: string; maximum?: number }>;
  };
  for (const [name, p] of Object.entries(json.properties)) {
    if ((p.type === "integer" || p.type === "number") && p.maximum !== undefined) {
      if (p.maximum < Number.MAX_SAFE_INTEGER) out.set(name, p.maximum);
    }
  }
  return out;
}

/** Every number argument without a limit (a cap an agent can raise without end). */
function unboundedNumbers(tool: Tool): string[] {
  const json = z.toJSONSchema(tool.inputSchema, { target: "draft-7", io: "input" }) as {
    properties: Record<string, { type?: string; maximum?: number }>;
  };
  return Object.entries(json.properties).filter(([, p]) =>
    (p.type === "integer" || p.type === "number") &&
    (p.maximum === undefined || p.maximum >= Number.MAX_SAFE_INTEGER)
  ).map(([name]) => name);
}

function _copy(from: string, to: string): void {
  Deno.mkdirSync(to, { recursive: true });
  for (const e of Deno.readDirSync(from)) {
    if (e.isDirectory) _copy(join(from, e.name), join(to, e.name));
    else if (e.isFile && e.name !== "expected.json") {
      Deno.copyFileSync(join(from, e.name), join(to, e.name));
    }
  }
}

/** The project: the graph, context, gateways and ast fixtures in one git repository. */
async function makeWorld(): Promise<{
  world: World;
  runner: ToolRunner;
  close: () => Promise<void>;
}> {
  const base = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "codemunch-conformance-" }));
  const root = join(base, "project");
  for (const f of ["graph", "context", "gateways", "ast"]) {
    _copy(join(CHECKOUT, "fixtures", f), join(root, f));
  }
  initRepo(root, {});
  commitAll(root, { "graph/src/util.py": "def describe(x):\n    return str(x)\n" }, "util");
  const spareRoot = join(base, "spare");
  _copy(join(CHECKOUT, "fixtures", "context"), spareRoot);
  const remote = join(base, "remote");
  initRepo(remote, { "app.py": "def main():\n    return 1\n" });
  const api = new FakeGitHub();
  api.repos.set("acme/demo", { dir: remote });
  const store = new Store(join(base, "index"));
  const runner = new ToolRunner({
    store,
    ingest: testConfig(),
    parser: inThreadParser,
    cwd: root,
    settings: DEFAULT_SETTINGS,
    github: { ...DEFAULT_GITHUB_SETTINGS, apiUrl: api.apiUrl, timeoutMs: 5000, retries: 1 },
    log: () => {},
    // embed_repo embeds with a local model the test builds (tests/embed/_onnx_model.ts).
    embeddings: embeddingSettingsFromEnv(
      (n) => n === "JCODEMUNCH_EMBED_MODEL" ? join(base, "model") : undefined,
      join(base, "index"),
    ),
  });
  writeTinyModel(join(base, "model"));
  const index = async (path: string) => {
    const r = await runner.call("index_folder", { path, format: "json" });
    equal(r.isError, false, r.text);
    return JSON.parse(r.text).repo as string;
  };
  const repo = await index(root);
  const spare = await index(spareRoot);
  const file = "graph/src/shapes/circle.py";
  const outline = JSON.parse(
    (await runner.call("get_file_outline", { repo, file_path: file, format: "json" })).text,
  ) as { symbols: { id: string; name: string }[] };
  const symbolId = outline.symbols.find((s) => s.name === "area")!.id;
  return {
    world: { root, repo, spare, spareRoot, symbolId, file },
    runner,
    close: async () => {
      await runner.close();
      await api.close();
      Deno.removeSync(base, { recursive: true });
    },
  };
}

Deno.test("conformance: every tool through the same cases", async (t) => {
  const { world, runner, close } = await makeWorld();
  const call = async (name: string, args: Record<string, unknown>, format = "json") => {
    if (name === "invalidate_cache") {
      const again = await runner.call("index_folder", { path: world.spareRoot, format: "json" });
      equal(again.isError, false, again.text);
    }
    return await runner.call(name, { ...args, format });
  };
  /** Run a case; a listed gap must fail, the others pass. */
  const check = async (tool: Tool, name: Case, body: () => Promise<void>) => {
    const gap = GAPS[tool.name]?.[name];
    await t.step(`${tool.name}: ${name}${gap ? " (known gap)" : ""}`, async () => {
      if (gap === undefined) return await body();
      let passed = false;
      try {
        await body();
        passed = true;
      } catch { /* the gap is still there */ }
      ok(!passed, `${tool.name} "${name}" passes now: remove its gap ("${gap}")`);
    });
  };
  try {
    for (const tool of TOOLS) {
      const args = sampleArgs(tool, world);
      // A tool that writes answers the same every time once its first run is done (index_repo
      // indexes, then finds no changes).
      if (tool.annotations.readOnlyHint !== true) await call(tool.name, args);
      await check(tool, "formats", async () => {
        const json = await call(tool.name, args, "json");
        equal(json.isError, false, json.text);
        const body = JSON.parse(json.text) as Record<string, unknown>;
        const expected = stable(body);
        for (const format of ["compact", "auto"]) {
          const r = await call(tool.name, args, format);
          equal(r.isError, false, r.text);
          if (r.text.startsWith("#MUNCH/")) {
            ok(r.text.startsWith(`#MUNCH/1 tool=${tool.name} `), r.text.slice(0, 80));
            deepStrictEqual(stable(decode(r.text) as Record<string, unknown>), expected);
          } else {
            if (format === "compact") ok(!canEncodeV1(body as JsonObject), r.text.slice(0, 200));
            deepStrictEqual(stable(JSON.parse(r.text)), expected);
          }
        }
        const table = await call(tool.name, args, "table");
        equal(table.isError, false, table.text);
        deepStrictEqual(
          stable(decodeTables(decode(table.text) as JsonObject) as Record<string, unknown>),
          expected,
        );
      });
      await check(tool, "fields", async () => {
        const r = await call(tool.name, args, "json");
        equal(r.isError, false, r.text);
        deepStrictEqual(fieldProblems(tool, JSON.parse(r.text)), []);
      });
      if (tool.repo !== "none") {
        await check(tool, "unknown repo", async () => {
          const r = await call(tool.name, { ...args, repo: "nobody/missing" });
          equal(r.isError, true, r.text);
          equal(r.code, "repo_not_found", r.text);
        });
        await check(tool, "repo omitted", async () => {
          const { repo: _, ...rest } = args;
          const r = await call(tool.name, rest);
          if (tool.repo === "required") {
            equal(r.code, "invalid_argument", r.text);
            return;
          }
          equal(r.isError, false, r.text);
          deepStrictEqual(
            stable(JSON.parse(r.text)),
            stable(JSON.parse((await call(tool.name, { ...args, repo: world.repo })).text)),
          );
        });
      }
      await check(tool, "wrong type", async () => {
        const [name, schema] = Object.entries(tool.inputSchema.shape).find(([k]) => k !== "repo") ??
          ["repo", tool.inputSchema.shape.repo!];
        if (schema === undefined) return; // no argument at all
        const r = await call(tool.name, { ...args, [name]: wrongValue(schema) });
        equal(r.isError, true, r.text);
        equal(r.code, "invalid_argument", r.text);
        match(JSON.parse(r.text).error, new RegExp(`"${name}`));
      });
      const limits = boundedNumbers(tool);
      if (limits.size > 0) {
        await check(tool, "clamped", async () => {
          for (const [name, max] of limits) {
            const r = await call(tool.name, { ...args, [name]: max + 1 });
            equal(r.isError, false, `${name}=${max + 1}: ${r.text}`);
            match(
              String(JSON.parse(r.text)._meta?.warnings),
              new RegExp(`${name}=${max + 1} is out of range and was clamped to ${max}`),
            );
          }
        });
      }
      await check(tool, "bounded", () => {
        deepStrictEqual(unboundedNumbers(tool), [], "number arguments without a limit");
        if (tool.tables.size > 0) {
          ok("truncated" in tool.meta || "truncated" in tool.fields, "can say it cut a table");
        }
        return Promise.resolve();
      });
      if (tool.aliases.length > 0) {
        await check(tool, "aliases", async () => {
          const own = stable(JSON.parse((await call(tool.name, args)).text));
          for (const alias of tool.aliases) {
            deepStrictEqual(stable(JSON.parse((await call(alias, args)).text)), own, alias);
          }
        });
      }
    }
  } finally {
    await close();
  }
});
