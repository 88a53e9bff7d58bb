import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { decode } from "../../mod.ts";
import { permissionFlags, permissionInputs } from "../../scripts/serve.ts";
import { CHECKOUT, tempProject } from "../e2e/_server.ts";

/** Run `main.ts` under the server's narrow permission flags, as the README shows. */
async function cli(
  p: { root: string; indexDir: string },
  args: string[],
  env: Record<string, string> = {},
  cwd = p.root,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const vars: Record<string, string> = {
    CODE_INDEX_PATH: p.indexDir,
    CODEMUNCH_ALLOWED_ROOTS: p.root,
    ...env,
  };
  const flags = permissionFlags(permissionInputs((n) => vars[n] ?? Deno.env.get(n), cwd));
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, join(CHECKOUT, "main.ts"), ...args],
    env: vars,
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

function noStack(text: string) {
  ok(!/\n\s+at /.test(text), `no stack trace in: ${text}`);
}

Deno.test("CLI: help, version and bad input", async (t) => {
  const p = tempProject("codemunch-cli-");
  try {
    await t.step("--help and --version", async () => {
      const help = await cli(p, ["--help"]);
      equal(help.code, 0);
      match(help.stdout, /Usage:\n {2}codemunch \[serve\]/);
      match(help.stdout, /codemunch call <tool>/);
      const version = await cli(p, ["--version"]);
      equal(version.code, 0);
      const expected = JSON.parse(Deno.readTextFileSync(join(CHECKOUT, "deno.json"))).version;
      equal(version.stdout.trim(), `codemunch ${expected}`);
    });
    await t.step(
      "unknown command, unknown option, bad JSON: exit 2 with a clear message",
      async () => {
        const unknown = await cli(p, ["frobnicate"]);
        equal(unknown.code, 2);
        match(unknown.stderr, /^codemunch: Unknown command "frobnicate"\. Run "codemunch --help"/);
        noStack(unknown.stderr);
        const option = await cli(p, ["search", "x", "--colour", "red"]);
        equal(option.code, 2);
        match(option.stderr, /Unknown option "--colour" for "search"/);
        const json = await cli(p, ["call", "list_repos", "{not json"]);
        equal(json.code, 2);
        match(json.stderr, /must be JSON/);
        noStack(json.stderr);
        const format = await cli(p, ["call", "list_repos", "--format", "yaml"]);
        equal(format.code, 2);
        match(format.stderr, /Unknown --format "yaml"/);
        const typed = await cli(p, ["call", "list_repos", "--format=yaml"]);
        match(typed.stderr, /Unknown --format "yaml"/);
        const missing = await cli(p, ["index"]);
        equal(missing.code, 2);
        match(missing.stderr, /"index" expects a folder path/);
      },
    );
    await t.step("a mistyped command or option: did you mean", async () => {
      const command = await cli(p, ["serach", "greet"]);
      equal(command.code, 2);
      match(command.stderr, /^codemunch: Unknown command "serach"\. Did you mean "search"\? Run/);
      const option = await cli(p, ["search", "greet", "--maxx", "3"]);
      equal(option.code, 2);
      match(option.stderr, /Unknown option "--maxx" for "search"\. Did you mean "--max"\?/);
      const far = await cli(p, ["frobnicate"]);
      ok(!far.stderr.includes("Did you mean"), far.stderr);
    });
    await t.step("a folder outside the allowed ones: what to do from a shell", async () => {
      const r = await cli(p, ["index", p.base]);
      equal(r.code, 1);
      match(r.stderr, /outside the allowed roots/);
      match(r.stderr, /Run the command from inside .*, or add it to CODEMUNCH_ALLOWED_ROOTS/);
      ok(!/restart the server/i.test(r.stderr), r.stderr);
    });
    await t.step("shortcuts before anything is indexed", async () => {
      const r = await cli(p, ["search", "greet"]);
      equal(r.code, 2);
      match(r.stderr, /No repository is indexed yet: run `codemunch index <path>` first/);
    });
    await t.step("tool errors: exit 1 with the message and code", async () => {
      const r = await cli(p, ["call", "no_such_tool", "{}"]);
      equal(r.code, 1);
      match(r.stderr, /Unknown tool: no_such_tool.*\(unknown_tool\)/);
      const bad = await cli(p, ["call", "search_symbols", '{"repo": "x"}']);
      equal(bad.code, 1);
      match(bad.stderr, /Missing required argument "query".*\(invalid_argument\)/);
      noStack(bad.stderr);
    });
  } finally {
    p.dispose();
  }
});

Deno.test("CLI: index, search, outline, symbol and call", async (t) => {
  const p = tempProject("codemunch-cli-");
  try {
    let repo = "";
    await t.step(
      "index <path>: plain progress off a terminal, then a one-line summary",
      async () => {
        const r = await cli(p, ["index", p.root]);
        equal(r.code, 0, r.stderr);
        match(
          r.stdout,
          /^Indexed local\/project-[0-9a-f]+: \d+ files, \d+ symbols in [\d.]+ s \([\d,.]+ files\/s\)\n$/,
        );
        ok(!r.stderr.includes("\r"), "no bar drawing off a terminal");
        repo = r.stdout.match(/Indexed (\S+):/)![1]!;
        const again = await cli(p, ["index", p.root]);
        match(again.stdout, /is up to date \(no changes/);
        const json = await cli(p, ["index", p.root, "--json"]);
        equal(JSON.parse(json.stdout).repo, repo);
      },
    );
    await t.step(
      "a leading ~ is the HOME the entry point read (no tool reads the environment)",
      async () => {
        const r = await cli(p, [
          "call",
          "resolve_repo",
          JSON.stringify({ path: "~/project/python" }),
        ], {
          HOME: p.base,
        });
        equal(r.code, 0, r.stderr);
        equal(JSON.parse(r.stdout).repo, repo);
      },
    );
    await t.step("search <query> (the only repo is the default)", async () => {
      const r = await cli(p, ["search", "greet", "--max", "3"]);
      equal(r.code, 0, r.stderr);
      const body = JSON.parse(r.stdout);
      equal(body.results[0].id, "python/sample.py::greet#function");
      ok(body.results.length <= 3);
      const k = await cli(p, ["search", "greet", "--repo", repo, "--kind", "class"]);
      ok(JSON.parse(k.stdout).results.every((x: { kind: string }) => x.kind === "class"));
    });
    await t.step("errors name the flags as typed", async () => {
      const bad = await cli(p, ["search", "greet", "--max=lots"]);
      equal(bad.code, 1);
      match(
        bad.stderr,
        /^codemunch: Invalid --max: expected a number, got "lots" \(invalid_argument\)$/m,
      );
      ok(!bad.stderr.includes("max_results"), bad.stderr);
      ok(
        !/Invalid input|received/.test(bad.stderr),
        `our words, not the validator's: ${bad.stderr}`,
      );
      const kind = await cli(p, ["search", "greet", "--kind", "widget"]);
      match(kind.stderr, /Invalid --kind: expected one of function, class, .*, got "widget"/);
      const unknown = await cli(p, ["search", "greet", "-x"]);
      equal(unknown.code, 2);
      match(unknown.stderr, /Unknown option "-x" for "search"/);
    });
    await t.step("with several repos indexed, the folder it runs in picks the repo", async () => {
      const other = join(p.base, "other");
      Deno.mkdirSync(other);
      Deno.writeTextFileSync(join(other, "tool.py"), "def greet_elsewhere():\n    return 1\n");
      const vars = { CODEMUNCH_ALLOWED_ROOTS: `${p.root}:${other}` };
      equal((await cli(p, ["index", other], vars)).code, 0);
      const here = await cli(p, ["search", "greet"], vars);
      equal(here.code, 0, here.stderr);
      equal(JSON.parse(here.stdout).results[0].id, "python/sample.py::greet#function");
      const there = await cli(p, ["search", "greet"], vars, other);
      equal(JSON.parse(there.stdout).results[0].name, "greet_elsewhere");
      const neither = await cli(p, ["search", "greet"], vars, p.base);
      equal(neither.code, 2);
      match(
        neither.stderr,
        /Several repositories are indexed and none holds this folder: pass --repo/,
      );
      equal(
        (await cli(p, [
          "call",
          "invalidate_cache",
          JSON.stringify({ repo: JSON.parse(there.stdout)._meta.repo }),
        ], vars)).code,
        0,
      );
    });
    await t.step("outline <file> by repo path and by disk path", async () => {
      const a = await cli(p, ["outline", "python/sample.py", "--repo", repo]);
      equal(a.code, 0, a.stderr);
      const b = await cli(p, ["outline", join(p.root, "python", "sample.py")]);
      equal(b.code, 0, b.stderr);
      const strip = (s: string) => {
        const o = JSON.parse(s);
        delete o._meta;
        return o;
      };
      deepStrictEqual(strip(a.stdout), strip(b.stdout));
      equal(strip(a.stdout).file, "python/sample.py");
    });
    await t.step("symbol <id> prints the source; --json the response", async () => {
      const r = await cli(p, ["symbol", "python/sample.py::greet#function"]);
      equal(r.code, 0, r.stderr);
      match(r.stdout, /^def greet\(/);
      ok(!r.stdout.trimStart().startsWith("{"));
      const json = await cli(p, ["symbol", "python/sample.py::greet#function", "--json"]);
      match(JSON.parse(json.stdout).source, /^def greet/);
      const missing = await cli(p, ["symbol", "python/sample.py::nope#function"]);
      equal(missing.code, 1);
      match(missing.stderr, /Symbol not found.*\(symbol_not_found\)/);
    });
    await t.step("an ambiguous symbol name prints its candidates", async () => {
      // Two languages define a `Greeter` (a Python class, a Go type).
      const r = await cli(p, ["symbol", "Greeter"]);
      equal(r.code, 1);
      match(r.stderr, /\(symbol_ambiguous\)\nCandidates:\n/);
      match(r.stderr, /^ {2}python\/sample\.py::Greeter#class/m);
      match(r.stderr, /^ {2}go\/main\.go::Greeter#type/m);
    });
    await t.step("call <tool> '<json>' infers the repo, --format compact", async () => {
      const r = await cli(p, [
        "call",
        "get_file_tree",
        JSON.stringify({ path_prefix: "go/" }),
        "--format",
        "compact",
      ]);
      equal(r.code, 0, r.stderr);
      ok(r.stdout.startsWith("#MUNCH/1 tool=get_file_tree enc=gen1"), r.stdout);
      const body = decode(r.stdout) as Record<string, unknown>;
      equal(body.path_prefix, "go/");
      // The aliases are callable though not listed, and take the repo the same way.
      for (const alias of ["get_symbol", "get_symbols"]) {
        const args = alias === "get_symbol"
          ? { symbol_id: "python/sample.py::greet#function" }
          : { symbol_ids: ["python/sample.py::greet#function"] };
        const a = await cli(p, ["call", alias, JSON.stringify(args)]);
        equal(a.code, 0, `${alias}: ${a.stderr}`);
        match(a.stdout, /def greet\(/);
      }
      // invalidate_cache deletes: it never takes the inferred repo.
      const refused = await cli(p, ["call", "invalidate_cache", "{}"]);
      equal(refused.code, 1, refused.stdout);
      match(refused.stderr, /repo/);
      const list = await cli(p, ["call", "list_repos"]);
      equal(JSON.parse(list.stdout).count, 1);
      // A flag's value before the command is not taken for the command.
      const first = await cli(p, ["--format", "json", "call", "list_repos"]);
      equal(first.code, 0, first.stderr);
      equal(JSON.parse(first.stdout).count, 1);
    });
  } finally {
    p.dispose();
  }
});
