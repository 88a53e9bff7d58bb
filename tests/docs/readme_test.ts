/**
 * The README checked as a user would follow it: every code block is parsed, and each command is
 * run (with `--dry-run`, a temporary home and index) or checked against the code that would run
 * it; JSON snippets are compared with the entries `init` writes; the TypeScript snippet runs
 * against mod.ts. Also: the section order, one pinned Deno version everywhere, no doc naming a
 * file that is not in the repository, and deno.dev.json agreeing with deno.json.
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { claudeMcpAdd, serverCommand, serverEntry } from "../../src/cli/server_entry.ts";
import { parseArgs as parseCommandLine } from "../../src/cli/args.ts";
import { COMMANDS } from "../../src/cli/commands.ts";

const parseArgs = (argv: string[]) => parseCommandLine(argv, COMMANDS);
import { CHECKOUT, tempProject } from "../e2e/_server.ts";
import { modelHost } from "../embed/_model_host.ts";
import {
  hasDeno,
  inNpxCache,
  npmCache,
  npxWorks,
  pathWithoutDeno,
  run,
  runUntil,
  shWord,
} from "./_shell.ts";

const README = Deno.readTextFileSync(join(CHECKOUT, "README.md"));
const DENO_JSON = JSON.parse(Deno.readTextFileSync(join(CHECKOUT, "deno.json")));
const DENO_VERSION = Deno.readTextFileSync(join(CHECKOUT, ".ci", "run"))
  .match(/DENO_VERSION=(\S+)/)![1]!;

/** The fenced code blocks of a Markdown text. */
function codeBlocks(md: string): { lang: string; body: string }[] {
  return [...md.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1]!,
    body: m[2]!,
  }));
}

/** Split one shell line into words (quotes, backslashes), dropping a trailing `# comment`. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "#" && word === null) break;
    else word = (word ?? "") + c;
  }
  if (word !== null) words.push(word);
  return words;
}

/** The shell commands of the README: one per line (continuations joined), comments dropped. */
function readmeCommands(): string[][] {
  return codeBlocks(README).filter((b) => b.lang === "sh")
    .flatMap((b) => b.body.replace(/\\\n\s*/g, " ").split("\n"))
    .map(shellWords)
    .filter((w) => w.length > 0);
}

Deno.test("README: sections in the order a new user needs them", () => {
  const headings = [...README.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
  const order = [
    "Quick start",
    "Connect a client",
    "First questions",
    "Tools",
    "Configuration",
    "Benchmarks",
  ].map((h) => headings.indexOf(h));
  ok(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!)), headings.join(" | "));
  ok(!/^\|.*\| *p50|ceiling MB\/s/m.test(README), "long benchmark tables live in BENCHMARKS.md");
  const tools = JSON.parse(
    Deno.readTextFileSync(join(CHECKOUT, "src", "server", "tools_list.json")),
  ) as { tools: { name: string }[] };
  for (const t of tools.tools) ok(README.includes(`\`${t.name}\``), `README names ${t.name}`);
});

/** A README project: a home with Cursor and Claude Code installed, and three small projects. */
function readmeHome(base: string): { home: string; app: string } {
  const home = join(base, "home");
  Deno.mkdirSync(join(home, ".cursor"), { recursive: true });
  const source = (dir: string, name: string, text: string) => {
    Deno.mkdirSync(join(home, "src", dir, "src"), { recursive: true });
    Deno.writeTextFileSync(join(home, "src", dir, "src", name), text);
  };
  source("my-project", "retry.ts", "export function retryRequest(n: number) {\n  return n;\n}\n");
  source("other", "tool.py", "def other_tool():\n    return 1\n");
  source(
    "app",
    "server.ts",
    [
      "/** Parse the config file. */",
      "export function parseConfig(text: string): Record<string, string> {",
      "  return Object.fromEntries(text.split('\\n').map((l) => l.split('=')));",
      "}",
      "",
      "export class Server {",
      "  start() {",
      "    return parseConfig('');",
      "  }",
      "}",
      "",
    ].join("\n"),
  );
  return { home, app: join(home, "src", "app") };
}

/** The allowed folders of codemunch's entry in Cursor's config. */
function cursorRoots(home: string): string[] {
  const config = JSON.parse(Deno.readTextFileSync(join(home, ".cursor", "mcp.json")));
  return config.mcpServers.codemunch.env.CODEMUNCH_ALLOWED_ROOTS.split(":");
}

const INSPECTOR = "0.15.0";

Deno.test("README: every shell command works as written, on a machine with Node.js and no Deno", async (t) => {
  const commands = readmeCommands();
  ok(commands.length >= 15, `found ${commands.length} commands`);
  const p = tempProject("codemunch-readme-");
  const { home, app } = readmeHome(p.base);
  const noDeno = pathWithoutDeno(join(p.base, "node-bin"));
  equal(hasDeno(noDeno), false, noDeno);
  const npx = npxWorks(noDeno);
  const cache = npmCache();
  const env: Record<string, string> = { HOME: home, PATH: noDeno, CODE_INDEX_PATH: p.indexDir };
  // npx finds its Deno (and the Inspector) in the machine's npm cache, not a new one per run.
  if (cache !== null) env.npm_config_cache = cache;
  if (Deno.env.get("DENO_DIR")) env.DENO_DIR = Deno.env.get("DENO_DIR")!;
  const sh = (words: string[], extra: string[] = []) => [
    "sh",
    "-c",
    [...words, ...extra].map(shWord).join(" "),
  ];
  const seen = new Set<string>();
  let initRuns = 0;
  try {
    for (const original of commands) {
      const line = original.join(" ");
      // Leading NAME=value words set the command's environment.
      const assignments = original.slice(
        0,
        original.findIndex((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w)),
      );
      let words = original.slice(assignments.length);
      const [head] = words;
      // `npx -y deno@<version> …` is the pinned Deno; without npx, the same Deno run directly.
      const pinned = head === "npx" && words[2]?.startsWith("deno@");
      if (pinned) equal(words[2], `deno@${DENO_VERSION}`, "the README pins the Deno of .ci/run");
      if (pinned && !npx) words = [Deno.execPath(), ...words.slice(3)];
      const task = pinned ? words[words.indexOf("task") + 1] : undefined;
      const skipInspector = head === "npx" &&
        words[2]?.startsWith("@modelcontextprotocol/") === true &&
        !inNpxCache(cache, "@modelcontextprotocol/inspector", INSPECTOR);
      await t.step({
        name: skipInspector
          ? `${line} — SKIPPED running it: the Inspector ${INSPECTOR} is not in npm's cache (checked as written only)`
          : line,
        fn: async () => {
          if (task !== undefined) return await _task(task, words, seen);
          if (head === "npx") return await _inspector(words, skipInspector);
          if (head === "codemunch") return await _codemunch(assignments, words, seen);
          if (head === "claude") {
            const server = serverCommand("/path/to/deno", "/path/to/codemunch", "linux");
            return equal(line, claudeMcpAdd({ server, roots: ["/path/to/your/code"] }, "linux"));
          }
          // The Development section's commands need Deno (it says so): checked, not run.
          if (head === "deno" && words[1] === "task") {
            return ok(DENO_JSON.tasks[words[2]!], `deno task ${words[2]} exists`);
          }
          if (head === "deno" && words[1] === "test") {
            for (const w of words.slice(2)) {
              if (!w.startsWith("-") && w !== "deno.dev.json") {
                ok(Deno.statSync(join(CHECKOUT, w)).isFile, w);
              }
            }
            return ok(words.includes("--config") && words.includes("deno.dev.json"));
          }
          if (head === "bash") return ok(Deno.statSync(join(CHECKOUT, words[1]!)).isFile);
          throw new Error(`No check for this README command: ${line}`);
        },
      });
    }
  } finally {
    p.dispose();
  }
  for (
    const must of [
      "task init",
      "task start",
      "task install-command",
      "codemunch index",
      "codemunch symbol",
      "codemunch serve",
    ]
  ) {
    ok(seen.has(must), `README shows ${must}`);
  }

  /** `npx -y deno@… task <name> …`, run in the checkout as the README says. */
  async function _task(name: string, words: string[], seen: Set<string>) {
    ok(DENO_JSON.tasks[name], `deno task ${name} exists`);
    seen.add(`task ${name}`);
    if (name === "init") {
      const first = ++initRuns === 1;
      // `init` asks; the README's user answers yes.
      const r = await run(sh(words, ["--yes"]), { env, cwd: CHECKOUT });
      equal(r.code, 0, r.stdout + r.stderr);
      match(r.stdout, /Cursor .*mcp\.json\n.*→ (create it|update the codemunch entry)/);
      match(r.stdout, /✓ Indexed local\/[\w-]+: \d+ files?/);
      if (first) deepEqual(cursorRoots(home), [join(home, "src", "my-project")]);
      else {
        match(r.stdout, /my-project {2}\(already allowed, kept\)\n.*other {2}\(added\)/);
        deepEqual(cursorRoots(home), [join(home, "src", "my-project"), join(home, "src", "other")]);
      }
    } else if (name === "start") {
      const r = await run(sh(words), { env, cwd: CHECKOUT });
      equal(r.code, 0, r.stderr);
      match(r.stderr, /codemunch [\d.]+: MCP server on stdio\n {2}index: {3}/);
      ok(!/Download|Warning/.test(r.stderr), `quiet start: ${r.stderr}`);
    } else if (name === "install-command") {
      const r = await run(sh(words), { env, cwd: CHECKOUT });
      equal(r.code, 0, r.stdout + r.stderr);
      const bin = join(home, ".local", "bin");
      match(r.stdout, /Wrote .*\.local\/bin\/codemunch/);
      match(r.stdout, /is not on your PATH: add {2}export PATH=/);
      // The user does what it says: from now on `codemunch` is on PATH (still no deno).
      env.PATH = `${bin}:${env.PATH}`;
      equal(hasDeno(env.PATH), false);
    }
  }

  /** The Inspector's command line against the config `init` wrote. */
  async function _inspector(words: string[], skip: boolean) {
    equal(words[2], `@modelcontextprotocol/inspector@${INSPECTOR}`);
    ok(words.includes("--cli") && words[words.indexOf("--server") + 1] === "codemunch");
    const config = words[words.indexOf("--config") + 1]!.replace(/^~/, home);
    ok(Deno.statSync(config).isFile, `${config} is written by the init above`);
    if (skip) return;
    const r = await run(sh(words), { env: { ...env, npm_config_offline: "true" }, cwd: home });
    equal(r.code, 0, r.stdout + r.stderr);
    const out = JSON.parse(r.stdout);
    if (words.includes("tools/list")) {
      ok(out.tools.some((x: { name: string }) => x.name === "search_symbols"), r.stdout);
    } else {
      const body = JSON.parse(out.content[0].text);
      equal(body.indexed, true, r.stdout);
      match(body.repo, /^local\/my-project-[0-9a-f]{8}$/);
    }
  }

  /** A `codemunch …` line, run by `sh` in a project folder with the installed command. */
  async function _codemunch(assignments: string[], words: string[], seen: Set<string>) {
    ok(env.PATH!.includes(".local/bin"), "the README installs the command before using it");
    const inv = parseArgs(words.slice(1));
    ok(COMMANDS[inv.command], `codemunch ${inv.command} exists`);
    seen.add(`codemunch ${inv.command}`);
    if ((inv.command === "serve" || inv.command === "watch") && !inv.flags.has("help")) {
      // A server: started for real, stopped once its banner says it is up (on a free port
      // instead of the README's fixed one).
      const args = words.map((w, i) => words[i - 1] === "--port" ? "0" : w);
      if (inv.flags.has("http") && !inv.flags.has("port")) args.push("--port", "0");
      const script = [...assignments.map(shWord), "exec", ...args.map(shWord)].join(" ");
      const r = await runUntil(
        ["sh", "-c", script],
        /MCP over HTTP at http|MCP server on stdio|watching /,
        { env, cwd: app },
      );
      return ok(r.seen, `${words.join(" ")}\n${r.stderr}`);
    }
    // `download-model` fetches from a model host on 127.0.0.1 (no model host is reachable here).
    const host = inv.command === "download-model" ? modelHost() : null;
    const r = await run(sh([...assignments, ...words]), {
      env: host === null ? env : { ...env, CODEMUNCH_MODEL_URL: host.url },
      cwd: app,
    });
    await host?.close();
    equal(r.code, 0, `${words.join(" ")}\n${r.stdout}${r.stderr}`);
    if (inv.command === "symbol") match(r.stdout, /^start\(\) \{/);
    if (inv.command === "search") match(r.stdout, /parseConfig/);
  }
});

Deno.test("README: the client config snippets are the entries init writes", () => {
  const json = codeBlocks(README).filter((b) => b.lang === "json").map((b) => JSON.parse(b.body));
  ok(json.length >= 2);
  const roots = ["/path/to/your/code"];
  for (const snippet of json) {
    const list = snippet.mcpServers ?? snippet.servers;
    ok(list?.codemunch, JSON.stringify(snippet));
    const typed = snippet.servers !== undefined;
    const entry = list.codemunch;
    // What init writes on the Quick start's path: the Deno that runs it, this checkout's launcher.
    const server = serverCommand("/path/to/deno", "/path/to/codemunch", "linux");
    deepEqual(entry, serverEntry({ typed }, server, roots, "linux"));
  }
});

Deno.test("README: the TypeScript snippet runs against mod.ts", async () => {
  const ts = codeBlocks(README).filter((b) => b.lang === "ts");
  ok(ts.length >= 1);
  const dir = Deno.makeTempDirSync({ prefix: "codemunch-readme-ts-" });
  try {
    for (const [i, block] of ts.entries()) {
      const file = join(dir, `snippet${i}.ts`);
      const mod = pathToFileURL(join(CHECKOUT, "mod.ts")).href;
      Deno.writeTextFileSync(file, block.body.replaceAll("jsr:@codemunch/codemunch", mod));
      const env = { HOME: Deno.env.get("HOME") ?? dir, PATH: Deno.env.get("PATH") ?? "" };
      const r = await run([Deno.execPath(), "run", "--no-lock", file], { cwd: dir, env });
      equal(r.code, 0, r.stderr);
      ok(r.stdout.length > 0);
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("docs name only files that are in the repository", () => {
  const docs = ["README.md", "BENCHMARKS.md", "src/parser/LANGUAGES.md"];
  try {
    for (const e of Deno.readDirSync(join(CHECKOUT, "docs"))) {
      if (e.name.endsWith(".md")) docs.push(`docs/${e.name}`);
    }
  } catch { /* no docs/ folder */ }
  const rootFiles = /^(?:[\w.-]+\.(?:md|ts|json|lock)|LICENSE|\.npmrc|\.gitignore)$/;
  const missing: string[] = [];
  for (const doc of docs) {
    let text: string;
    try {
      text = Deno.readTextFileSync(join(CHECKOUT, doc));
    } catch {
      continue;
    }
    const base = doc.includes("/") ? doc.slice(0, doc.lastIndexOf("/")) : ".";
    for (const m of text.matchAll(/\]\(([^)#\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue;
      try {
        Deno.statSync(join(CHECKOUT, base, target));
      } catch {
        missing.push(`${doc}: link ${target}`);
      }
    }
    // Any Markdown file named (design docs outside the repository included) must be here.
    for (const m of text.replace(/https?:\/\/\S+/g, "").matchAll(/(?<![\w/.-])([\w./-]+\.md)\b/g)) {
      const name = m[1]!;
      const found = [join(CHECKOUT, name), join(CHECKOUT, base, name)].some((f) => {
        try {
          return Deno.statSync(f).isFile;
        } catch {
          return false;
        }
      });
      if (!found && !["CLAUDE.md", "AGENTS.md"].includes(name)) missing.push(`${doc}: ${name}`);
    }
    for (const m of text.matchAll(/`([^`\s]+)`/g)) {
      const path = m[1]!.replace(/:\d+$/, "");
      if (/[<>*{}$]/.test(path)) continue;
      const repoPath = /^(?:src|scripts|tests|fixtures|docs|\.github|\.ci)\/[\w./-]*$/.test(path) ||
        rootFiles.test(path);
      if (!repoPath || path.includes("://")) continue;
      // Files in the repository root, or paths from it.
      try {
        Deno.statSync(join(CHECKOUT, path));
      } catch {
        if (!rootFiles.test(path) || !/^(?:README|BENCHMARKS|LICENSE|deno|main|mod)/.test(path)) {
          continue; // a bare name such as `mcp.json` is a client's file, not ours
        }
        missing.push(`${doc}: ${path}`);
      }
    }
  }
  deepEqual(missing, []);
});

Deno.test("deno.dev.json: the server's imports and settings, plus the test packages", () => {
  const dev = JSON.parse(Deno.readTextFileSync(join(CHECKOUT, "deno.dev.json")));
  for (const [k, v] of Object.entries(DENO_JSON.imports)) equal(dev.imports[k], v, k);
  for (
    const key of [
      "name",
      "version",
      "exports",
      "compilerOptions",
      "nodeModulesDir",
      "allowScripts",
      "exclude",
    ]
  ) {
    deepEqual(dev[key], DENO_JSON[key], key);
  }
  const lock = Deno.readTextFileSync(join(CHECKOUT, "deno.lock"));
  for (const pkg of ["fast-check", "gpt-tokenizer", "@toon-format/toon", "csv-parse"]) {
    ok(!lock.includes(`"npm:${pkg}@`), `the server's lockfile has no ${pkg}`);
    ok(!(pkg in DENO_JSON.imports), `deno.json does not import ${pkg}`);
  }
  // What the server's module graph resolves (deno info main.ts): none of the test packages.
  const info = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "main.ts"],
    cwd: CHECKOUT,
    stdout: "piped",
    stderr: "null",
  }).outputSync();
  const npm = Object.keys(JSON.parse(new TextDecoder().decode(info.stdout)).npmPackages ?? {});
  ok(npm.some((p) => p.startsWith("web-tree-sitter@")), npm.join(", "));
  for (
    const dev of ["fast-check", "gpt-tokenizer", "@toon-format/toon", "csv-parse", "pure-rand"]
  ) {
    ok(!npm.some((p) => p.startsWith(`${dev}@`)), `main.ts pulls ${dev}`);
  }
  for (const wf of ["ci.yml", "release.yml", "publish.yml"]) {
    const text = Deno.readTextFileSync(join(CHECKOUT, ".github", "workflows", wf));
    match(text, new RegExp(`deno-version: ${DENO_VERSION.replaceAll(".", "\\.")}`), wf);
  }
  equal(DENO_JSON.license, "MIT");
  match(Deno.readTextFileSync(join(CHECKOUT, "LICENSE")), /^MIT License/);
});

/** npm, when the machine has it. */
const hasNpm = (() => {
  try {
    return new Deno.Command("npm", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

Deno.test({
  name: hasNpm
    ? "npm run in the checkout never writes package.json or package-lock.json (.npmrc)"
    : "npm in the checkout — SKIPPED: npm is not installed",
  ignore: !hasNpm,
  fn: () => {
    const out = new Deno.Command("npm", {
      args: ["config", "get", "save", "package-lock"],
      cwd: CHECKOUT,
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    equal(new TextDecoder().decode(out.stdout).trim(), "save=false\npackage-lock=false");
    const ignored = Deno.readTextFileSync(join(CHECKOUT, ".gitignore"));
    match(ignored, /^\/package\.json$/m);
  },
});

Deno.test("README: the tools table lists every tool the server offers", async () => {
  const { toolNames } = await import("../../src/tools/mod.ts");
  const table = README.slice(README.indexOf("## Tools"), README.indexOf("## Configuration"));
  const missing = toolNames().filter((name) => !table.includes(`\`${name}\``));
  deepEqual(missing, []);
});
