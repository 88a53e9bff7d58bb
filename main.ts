/**
 * The codemunch command line: `codemunch serve` (the default) runs the MCP server over stdio;
 * `init` connects MCP clients; the other subcommands call the same tools once and print the
 * response. Each subcommand is one entry of {@linkcode COMMANDS} (usage, flags, handler).
 *
 * ```text
 * codemunch [serve]                         MCP server over stdio
 * codemunch init [folder...]                connect Claude, Cursor, VS Code, Windsurf
 * codemunch index <path>                    index_folder, with a progress bar
 * codemunch search <query> [--repo R]       search_symbols
 * codemunch outline <file> [--repo R]       get_file_outline
 * codemunch symbol <id> [--repo R]          get_symbol_source, printed as source text
 * codemunch call <tool> ['<json args>']     call any tool, print its response
 * ```
 *
 * @module
 */
// Start-up matters for `serve` (a client waits for the tool list): at the top only the stdio
// server, which answers initialize and tools/list from data. The runner, the tools, the store,
// the codec and the CLI helpers are imported when a command or the first tool call needs them.
import type { Format } from "./src/codec/dispatch.ts";
import type { CallResult, ServerDeps, ToolRunner } from "./src/server/runner.ts";
import type { Store } from "./src/store/store.ts";
import { SERVER_INFO, serveStdio, TOOLS_LIST } from "./src/server/stdio.ts";

/**
 * The modules a command loads when it needs them. Their specifiers are computed on purpose:
 * before the first line runs, `deno run` walks every import it can read in the source, a dynamic
 * `import("./x.ts")` included, and walking the server's whole graph (~350 modules) took 100 of the
 * 150 ms a client waited for the tool list. `deno compile` embeds them with `--include`
 * (`scripts/compile.ts` reads this list).
 */
export const LAZY_MODULES = [
  "./src/cli/banner.ts",
  "./src/cli/init.ts",
  "./src/cli/progress.ts",
  "./src/codec/dispatch.ts",
  "./src/ingest/config.ts",
  "./src/ingest/git/limits.ts",
  "./src/ingest/github_config.ts",
  "./src/server/config.ts",
  "./src/server/http.ts",
  "./src/server/runner.ts",
  "./src/server/watch.ts",
  "./src/store/store.ts",
  "./src/summarize/config.ts",
] as const satisfies readonly (keyof _Lazy)[];

/** The type of each of {@linkcode LAZY_MODULES} (types only: nothing is walked for them). */
interface _Lazy {
  "./src/cli/banner.ts": typeof import("./src/cli/banner.ts");
  "./src/cli/init.ts": typeof import("./src/cli/init.ts");
  "./src/cli/progress.ts": typeof import("./src/cli/progress.ts");
  "./src/codec/dispatch.ts": typeof import("./src/codec/dispatch.ts");
  "./src/ingest/config.ts": typeof import("./src/ingest/config.ts");
  "./src/ingest/git/limits.ts": typeof import("./src/ingest/git/limits.ts");
  "./src/ingest/github_config.ts": typeof import("./src/ingest/github_config.ts");
  "./src/server/config.ts": typeof import("./src/server/config.ts");
  "./src/server/http.ts": typeof import("./src/server/http.ts");
  "./src/server/runner.ts": typeof import("./src/server/runner.ts");
  "./src/server/watch.ts": typeof import("./src/server/watch.ts");
  "./src/store/store.ts": typeof import("./src/store/store.ts");
  "./src/summarize/config.ts": typeof import("./src/summarize/config.ts");
}

/**
 * Import one of {@linkcode LAZY_MODULES} by a computed specifier (only a listed module type-checks:
 * what is loaded is what the binary embeds).
 */
function _load<P extends (typeof LAZY_MODULES)[number]>(path: P): Promise<_Lazy[P]> {
  return import(new URL(path, import.meta.url).href);
}

const TOOLS = TOOLS_LIST.tools as {
  name: string;
  description: string;
  inputSchema?: { properties?: Record<string, unknown> };
}[];

/** A flag of a command: whether it takes a value, and the tool argument it sets. */
interface FlagSpec {
  value: boolean;
  /** The tool argument this flag sets (errors about it are reported with the flag's name). */
  arg?: string;
  /** One-letter alias (`-y`). */
  short?: string;
}

/** A parsed command line. */
export interface Invocation {
  command: string;
  positional: string[];
  /** Flag values by canonical name (`"true"` for switches). */
  flags: Map<string, string>;
  /** How the user typed each flag (`--max`, `-y`), for messages. */
  typed: Map<string, string>;
}

/** A subcommand. */
export interface Command {
  /** Arguments after the command name, for the usage text. */
  usage: string;
  summary: string;
  flags: Record<string, FlagSpec>;
  run(inv: Invocation): Promise<number>;
}

/** A command-line mistake: printed with the usage hint, exit code 2. */
class UsageError extends Error {}

const FORMAT: Record<string, FlagSpec> = { format: { value: true } };
const REPO: Record<string, FlagSpec> = { repo: { value: true, arg: "repo" } };

/** Every subcommand, by name. Add a command here: parsing, usage and help follow. */
export const COMMANDS: Record<string, Command> = {
  serve: {
    usage: "[--http [--host H] [--port P]]",
    summary: "run the MCP server: stdio (the default), or Streamable HTTP at :8901/mcp",
    flags: { http: { value: false }, host: { value: true }, port: { value: true } },
    run: (inv) => _serve(inv),
  },
  watch: {
    usage: "<path>",
    summary: "index a folder, then keep it fresh as files change",
    flags: {},
    run: (inv) => _watch(inv),
  },
  init: {
    usage: "[folder...] [--client C] [--dry-run] [--yes]",
    summary: "connect Claude Desktop/Code, Cursor, VS Code, Windsurf",
    flags: {
      "dry-run": { value: false },
      yes: { value: false, short: "y" },
      client: { value: true },
      "no-index": { value: false },
      "no-policy": { value: false },
    },
    run: (inv) => _init(inv),
  },
  index: {
    usage: "<path> [--json]",
    summary: "index a folder (index_folder)",
    flags: { json: { value: false }, ...FORMAT },
    run: (inv) => _withRunner(inv, _index),
  },
  search: {
    usage: "<query> [--repo R] [--kind K] [--language L] [--max N]",
    summary: "search symbols (search_symbols)",
    flags: {
      ...REPO,
      kind: { value: true, arg: "kind" },
      language: { value: true, arg: "language" },
      max: { value: true, arg: "max_results" },
      ...FORMAT,
    },
    run: (inv) => _withRunner(inv, _search),
  },
  outline: {
    usage: "<file> [--repo R]",
    summary: "outline of a file (get_file_outline)",
    flags: { ...REPO, ...FORMAT },
    run: (inv) => _withRunner(inv, _outline),
  },
  symbol: {
    usage: "<id> [--repo R] [--context N] [--json]",
    summary: "print a symbol's source (get_symbol_source)",
    flags: {
      ...REPO,
      context: { value: true, arg: "context_lines" },
      json: { value: false },
      ...FORMAT,
    },
    run: (inv) => _withRunner(inv, _symbol),
  },
  call: {
    usage: "<tool> ['<json args>'] [--repo R]",
    summary: "call any tool and print its response",
    flags: { ...REPO, ...FORMAT },
    run: (inv) => _withRunner(inv, _call),
  },
  tools: {
    usage: "",
    summary: "list the tools",
    flags: {},
    run: () => {
      for (const t of TOOLS) console.log(`${t.name.padEnd(18)} ${t.description.split(". ")[0]}`);
      return Promise.resolve(0);
    },
  },
};

function _usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => {
    const head = `  codemunch ${name === "serve" ? "[serve]" : name}${
      c.usage ? " " + c.usage : ""
    }`;
    return head.length < 45 ? head.padEnd(45) + c.summary : `${head}\n${"".padEnd(45)}${c.summary}`;
  });
  return `codemunch ${SERVER_INFO.version} — index code once, serve agents exactly what they need

Usage:
${lines.join("\n")}

Options:
  --format <auto|compact|json|table>         response format (default json)
  -h, --help                                 show this help
  -V, --version                              show the version

Environment: CODE_INDEX_PATH (index directory, default ~/.code-index), CODEMUNCH_ALLOWED_ROOTS
(folders that may be indexed; default: the current folder, or none when that is / or your
home folder), CODEMUNCH_META=off, JCODEMUNCH_REDACT_RESPONSE_SECRETS=0,
JCODEMUNCH_DEFAULT_FORMAT (server), CODEMUNCH_WATCH=0 (no watch mode), JCODEMUNCH_HTTP_TOKEN,
JCODEMUNCH_RATE_LIMIT (HTTP), GITHUB_TOKEN and GITHUB_API_URL (index_repo).
Tools: ${TOOLS.map((t) => t.name).join(", ")}`;
}

/** Usage text of `--help`. */
export const USAGE: string = _usage();

/** Parse the command line against the command's flags. */
export function parseArgs(argv: readonly string[]): Invocation {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  const typed = new Map<string, string>();
  // The command is the first word that is neither a flag nor a flag's value.
  const valueFlags = new Set(
    Object.values(COMMANDS).flatMap((c) =>
      Object.entries(c.flags).filter(([, f]) => f.value).map(([n]) => `--${n}`)
    ),
  );
  let first = -1;
  for (let i = 0; i < argv.length && first === -1; i++) {
    if (valueFlags.has(argv[i]!)) i++;
    else if (!argv[i]!.startsWith("-")) first = i;
  }
  const command = first === -1 ? "serve" : argv[first]!;
  const spec = COMMANDS[command];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (i === first) continue;
    if (a === "-h" || a === "--help") flags.set("help", "true");
    else if (a === "-V" || a === "--version") flags.set("version", "true");
    else if (a === "--") positional.push(...argv.slice(i + 1)), i = argv.length;
    else if (a.startsWith("-") && a !== "-") {
      const eq = a.indexOf("=");
      const written = eq === -1 ? a : a.slice(0, eq);
      const name = written.startsWith("--")
        ? written.slice(2)
        : Object.entries(spec?.flags ?? {}).find(([, f]) => `-${f.short}` === written)?.[0];
      const flag = name === undefined ? undefined : spec?.flags[name];
      if (spec === undefined) continue; // reported as an unknown command
      if (name === undefined || flag === undefined) {
        throw new UsageError(`Unknown option "${written}" for "${command}"`);
      }
      typed.set(name, written);
      if (!flag.value) {
        if (eq !== -1) throw new UsageError(`Option "${written}" takes no value`);
        flags.set(name, "true");
        continue;
      }
      const value = eq === -1 ? argv[++i] : a.slice(eq + 1);
      if (value === undefined || value === "") {
        throw new UsageError(`Option "${written}" needs a value`);
      }
      flags.set(name, value);
    } else positional.push(a);
  }
  return { command, positional, flags, typed };
}

async function _format(inv: Invocation, fallback: Format = "json"): Promise<Format> {
  const f = inv.flags.get("format");
  if (f === undefined) return fallback;
  const { resolveFormat } = await _load("./src/codec/dispatch.ts");
  try {
    return resolveFormat(f.toLowerCase());
  } catch (e) {
    throw new UsageError(
      (e as Error).message.replace(/^Unknown format/, `Unknown ${inv.typed.get("format")}`),
    );
  }
}

/** What the tool runner needs, from the environment (loads the store, tools and settings). */
async function _deps(): Promise<ServerDeps> {
  const [
    { Store },
    { ingestConfigFromEnv },
    { settingsFromEnv },
    { githubSettingsFromEnv },
    { summarizerSettingsFromEnv },
    { historyLimitsFromEnv },
  ] = await Promise.all([
    _load("./src/store/store.ts"),
    _load("./src/ingest/config.ts"),
    _load("./src/server/config.ts"),
    _load("./src/ingest/github_config.ts"),
    _load("./src/summarize/config.ts"),
    _load("./src/ingest/git/limits.ts"),
  ]);
  return {
    store: Store.fromEnv(),
    ingest: ingestConfigFromEnv(),
    settings: settingsFromEnv(),
    github: githubSettingsFromEnv(),
    summarizer: summarizerSettingsFromEnv(),
    history: historyLimitsFromEnv(),
  };
}

/** The repo for a shortcut: --repo, else the only indexed one, else the one `fits` picks. */
function _pickRepo(store: Store, inv: Invocation, fits?: (repo: string) => boolean): string {
  const given = inv.flags.get("repo");
  if (given !== undefined) return given;
  const repos = store.repoIds();
  if (repos.length === 0) {
    throw new UsageError("No repository is indexed yet: run `codemunch index <path>` first");
  }
  if (repos.length === 1) return repos[0]!;
  const fitting = fits === undefined ? [] : repos.filter(fits);
  if (fitting.length === 1) return fitting[0]!;
  throw new UsageError(
    `Several repositories are indexed: pass --repo (one of ${repos.join(", ")})`,
  );
}

async function _serve(inv: Invocation): Promise<number> {
  if (inv.positional.length > 0) throw new UsageError(`"serve" takes no arguments`);
  if (inv.flags.has("http")) return await _serveHttp(inv);
  if (inv.flags.has("host") || inv.flags.has("port")) {
    throw new UsageError(`"--host" and "--port" go with "serve --http"`);
  }
  const serving = serveStdio({ deps: _serverDeps });
  // The banner's imports load while the client's first messages are answered.
  const shown = _load("./src/cli/banner.ts").then(({ banner }) => {
    console.error(banner({
      version: SERVER_INFO.version,
      env: (n) => Deno.env.get(n),
      cwd: Deno.cwd(),
      interactive: Deno.stdin.isTerminal(),
    }));
  }).catch(() => {/* the banner is a courtesy */});
  await Promise.all([serving, shown]);
  return 0;
}

/** A server's dependencies: the CLI's, plus watch mode (on unless CODEMUNCH_WATCH=0). */
async function _serverDeps(): Promise<ServerDeps> {
  const [deps, { watchSettingsFromEnv }] = await Promise.all([
    _deps(),
    _load("./src/server/watch.ts"),
  ]);
  return { ...deps, watch: watchSettingsFromEnv() };
}

/** `serve --http`: MCP over Streamable HTTP until SIGINT/SIGTERM. */
async function _serveHttp(inv: Invocation): Promise<number> {
  const flags = inv.flags;
  const [{ ToolRunner }, { httpSettingsFromEnv, serveHttp }, deps] = await Promise.all([
    _load("./src/server/runner.ts"),
    _load("./src/server/http.ts"),
    _serverDeps(),
  ]);
  const port = Number(flags.get("port") ?? "8901");
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`"--port" must be a port number, got "${flags.get("port")}"`);
  }
  const settings = httpSettingsFromEnv((n) => Deno.env.get(n), {
    host: flags.get("host") ?? "127.0.0.1",
    port,
  });
  const runner = new ToolRunner(deps);
  let server;
  try {
    server = await serveHttp(runner, settings);
  } catch (e) {
    await runner.close();
    throw e;
  }
  console.error(
    `codemunch ${SERVER_INFO.version}: MCP over HTTP at ${server.url}${
      settings.token === null ? "" : " (bearer token required)"
    }, index in ${deps.store.indexDir}`,
  );
  const stop = () => server.shutdown();
  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, stop);
  await server.finished;
  await runner.close();
  return 0;
}

/** `watch <path>`: index a folder, then re-index what changes until SIGINT/SIGTERM. */
async function _watch(inv: Invocation): Promise<number> {
  if (inv.positional.length !== 1) throw new UsageError(`"watch" expects a folder path`);
  const path = inv.positional[0]!;
  const [{ resolve }, { ToolRunner }, deps] = await Promise.all([
    import("node:path"),
    _load("./src/server/runner.ts"),
    _serverDeps(),
  ]);
  if (deps.watch !== undefined && !deps.watch.enabled) {
    throw new UsageError(`"watch" needs watch mode: unset CODEMUNCH_WATCH=0`);
  }
  // This command follows its one folder, not every indexed one.
  const watch = deps.watch === undefined ? {} : { watch: { ...deps.watch, watchIndexed: false } };
  const runner = new ToolRunner({ ...deps, ...watch });
  try {
    const result = await runner.call("index_folder", { path: resolve(path), format: "json" });
    if (result.isError) return _printError(result, inv);
    const body = JSON.parse(result.text) as { repo: string; folder_path: string };
    console.error(`codemunch: watching ${body.folder_path} (${body.repo}); Ctrl-C stops`);
    runner.watcher?.onBatch((b) => {
      console.error(
        `codemunch: ${
          b.mode === "folder" ? `folder index (${b.reason})` : "batch"
        }: ${b.added} new, ${b.changed} changed, ${b.deleted} deleted in ${
          Math.round(b.duration_ms)
        } ms${b.error ? ` — failed: ${b.error}` : ""}`,
      );
    });
    await new Promise<void>((done) => {
      for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, done);
      const poll = setInterval(() => {
        if ((runner.watcher?.folders.length ?? 0) === 0) {
          clearInterval(poll);
          done();
        }
      }, 500);
    });
    return 0;
  } finally {
    await runner.close();
  }
}

/** Turn tool argument names back into the flags the user typed, in a message. */
function _flagNames(message: string, inv: Invocation): string {
  const spec = COMMANDS[inv.command]?.flags ?? {};
  let out = message;
  for (const [name, flag] of Object.entries(spec)) {
    const typed = inv.typed.get(name);
    if (flag.arg === undefined || typed === undefined) continue;
    out = out.replaceAll(`argument "${flag.arg}"`, typed).replaceAll(`"${flag.arg}"`, typed);
  }
  return out;
}

/** Print a tool error with its candidates or closest matches; exit code 1. */
function _printError(result: CallResult, inv: Invocation): number {
  let body: Record<string, unknown> = { error: result.text };
  try {
    body = JSON.parse(result.text) as Record<string, unknown>;
  } catch { /* not JSON: print as is */ }
  const message = String(body.error).replace(/; closest: .*$/, "");
  console.error(`codemunch: ${_flagNames(message, inv)} (${result.code})`);
  const list = (Array.isArray(body.candidates) ? body.candidates : body.closest) as
    | unknown[]
    | undefined;
  if (Array.isArray(list) && list.length > 0) {
    console.error(Array.isArray(body.candidates) ? "Candidates:" : "Closest:");
    for (const c of list) {
      if (typeof c === "string") console.error(`  ${c}`);
      else {
        const r = c as Record<string, unknown>;
        const where = r.file !== undefined ? `  ${r.file}${r.line ? `:${r.line}` : ""}` : "";
        console.error(`  ${r.id ?? r.repo ?? JSON.stringify(r)}${where}`);
      }
    }
  }
  return 1;
}

function _print(result: CallResult, format: Format, inv: Invocation): number {
  if (result.isError) return _printError(result, inv);
  if (format === "json") {
    console.log(JSON.stringify(JSON.parse(result.text), null, 2));
  } else {
    console.log(result.text.replace(/\n$/, ""));
  }
  return 0;
}

/** Run a command that calls tools: one runner, closed at the end. */
async function _withRunner(
  inv: Invocation,
  body: (runner: ToolRunner, store: Store, inv: Invocation) => Promise<number>,
): Promise<number> {
  const { ToolRunner } = await _load("./src/server/runner.ts");
  const deps = await _deps();
  const runner = new ToolRunner(deps);
  try {
    return await body(runner, deps.store, inv);
  } finally {
    await runner.close();
  }
}

function _expect(inv: Invocation, n: number, what: string): void {
  if (inv.positional.length !== n) {
    throw new UsageError(
      `"${inv.command}" expects ${what}, got ${inv.positional.length} arguments`,
    );
  }
}

async function _index(runner: ToolRunner, _store: Store, inv: Invocation): Promise<number> {
  _expect(inv, 1, "a folder path");
  const { resolve } = await import("node:path");
  const { indexSummary, progressReporter, stderrSink } = await _load("./src/cli/progress.ts");
  const format = await _format(inv);
  const progress = progressReporter(stderrSink());
  const started = performance.now();
  const result = await runner.call("index_folder", { path: resolve(inv.positional[0]!) }, {
    format,
    onProgress: progress.onProgress,
  });
  progress.end();
  if (inv.flags.has("json") || inv.flags.has("format")) return _print(result, format, inv);
  if (result.isError) return _printError(result, inv);
  console.log(indexSummary(JSON.parse(result.text), performance.now() - started));
  return 0;
}

async function _search(runner: ToolRunner, store: Store, inv: Invocation): Promise<number> {
  if (inv.positional.length === 0) throw new UsageError(`"search" expects a query`);
  const args: Record<string, unknown> = {
    repo: _pickRepo(store, inv),
    query: inv.positional.join(" "),
  };
  for (const [name, flag] of Object.entries(COMMANDS.search!.flags)) {
    if (flag.arg !== undefined && inv.flags.has(name)) args[flag.arg] = inv.flags.get(name);
  }
  const format = await _format(inv);
  return _print(await runner.call("search_symbols", args, { format }), format, inv);
}

async function _outline(runner: ToolRunner, store: Store, inv: Invocation): Promise<number> {
  _expect(inv, 1, "a file path");
  const { relative, resolve } = await import("node:path");
  let file = inv.positional[0]!;
  const abs = resolve(file);
  const rootOf = (repo: string) =>
    store.listRepos().repos.find((m) => m.repo === repo)?.source_root ?? "";
  const owns = (repo: string) => rootOf(repo) !== "" && abs.startsWith(rootOf(repo) + "/");
  const repo = _pickRepo(store, inv, owns);
  if (owns(repo)) file = relative(rootOf(repo), abs);
  const format = await _format(inv);
  return _print(
    await runner.call("get_file_outline", { repo, file_path: file }, { format }),
    format,
    inv,
  );
}

async function _symbol(runner: ToolRunner, store: Store, inv: Invocation): Promise<number> {
  _expect(inv, 1, "a symbol id");
  const id = inv.positional[0]!;
  const repo = _pickRepo(store, inv, (r) => {
    try {
      return store.repo(r).symbol(id) !== undefined;
    } catch {
      return false;
    }
  });
  const args: Record<string, unknown> = { repo, symbol_id: id };
  if (inv.flags.has("context")) args.context_lines = inv.flags.get("context");
  const asText = !inv.flags.has("json") && !inv.flags.has("format");
  const format = asText ? "json" : inv.flags.has("json") ? "json" : await _format(inv);
  const result = await runner.call("get_symbol_source", args, { format });
  if (!asText || result.isError) return _print(result, format, inv);
  const body = JSON.parse(result.text) as { source?: string; file?: string; line?: number };
  console.log((body.source ?? "").replace(/\n$/, ""));
  return 0;
}

async function _call(runner: ToolRunner, store: Store, inv: Invocation): Promise<number> {
  if (inv.positional.length < 1 || inv.positional.length > 2) {
    throw new UsageError(`"call" expects <tool> and optionally '<json args>'`);
  }
  const tool = inv.positional[0]!;
  let args: Record<string, unknown>;
  try {
    args = inv.positional[1] === undefined ? {} : JSON.parse(inv.positional[1]);
  } catch (e) {
    throw new UsageError(`The arguments of "call" must be JSON: ${(e as Error).message}`);
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new UsageError(`The arguments of "call" must be a JSON object, like '{"repo": "x"}'`);
  }
  // A tool that takes a repo gets --repo, or the only indexed one.
  const takesRepo = TOOLS.find((t) => t.name === tool)?.inputSchema?.properties?.repo !== undefined;
  if (takesRepo && args.repo === undefined && (inv.flags.has("repo") || store.repoIds().length)) {
    args.repo = _pickRepo(store, inv);
  }
  const format = await _format(inv);
  return _print(await runner.call(tool, args, { format }), format, inv);
}

async function _init(inv: Invocation): Promise<number> {
  const [init, { dirname }, { fileURLToPath }] = await Promise.all([
    _load("./src/cli/init.ts"),
    import("node:path"),
    import("node:url"),
  ]);
  const env = (n: string) => Deno.env.get(n);
  const os = Deno.build.os === "darwin" || Deno.build.os === "windows" ? Deno.build.os : "linux";
  try {
    const plan = init.planInit({
      os,
      env,
      // `deno task` runs in the checkout; INIT_CWD is where the user typed the command.
      cwd: env("INIT_CWD") || Deno.cwd(),
      execPath: Deno.execPath(),
      checkout: dirname(fileURLToPath(import.meta.url)),
      ...(inv.positional.length > 0 ? { folders: inv.positional } : {}),
      ...(inv.flags.has("client") ? { clients: init.parseClients(inv.flags.get("client")!) } : {}),
      index: !inv.flags.has("no-index"),
      policy: !inv.flags.has("no-policy"),
    });
    console.log(init.describePlan(plan, os).join("\n"));
    console.log(`\nClaude Code by hand: ${init.claudeMcpAdd(plan, os)}`);
    const pending = plan.changes.some((c) => c.text !== undefined) || plan.index.length > 0 ||
      plan.policy.some((p) => p.status !== "unchanged");
    if (inv.flags.has("dry-run")) {
      console.log("\nDry run: nothing was written.");
      return 0;
    }
    if (!pending) {
      console.log("\nNothing to do: everything is already set up.");
      return 0;
    }
    if (!inv.flags.has("yes")) {
      if (!Deno.stdin.isTerminal()) {
        console.log("\nNothing was written: run again with --yes to apply (or --dry-run).");
        return 1;
      }
      if (!confirm("\nApply these changes?")) {
        console.log("Nothing was written.");
        return 1;
      }
    }
    const indexFolder = plan.index.length === 0 ? null : async (folder: string) => {
      const [{ ToolRunner }, { Store }, { DEFAULT_INGEST_CONFIG }, progressMod] = await Promise
        .all([
          _load("./src/server/runner.ts"),
          _load("./src/store/store.ts"),
          _load("./src/ingest/config.ts"),
          _load("./src/cli/progress.ts"),
        ]);
      const runner = new ToolRunner({
        store: Store.fromEnv(),
        ingest: { ...DEFAULT_INGEST_CONFIG, allowedRoots: plan.roots },
      });
      const progress = progressMod.progressReporter(progressMod.stderrSink());
      const started = performance.now();
      try {
        const r = await runner.call("index_folder", { path: folder }, {
          format: "json",
          onProgress: progress.onProgress,
        });
        progress.end();
        const body = JSON.parse(r.text) as Record<string, unknown>;
        if (r.isError) throw new Error(String(body.error));
        return progressMod.indexSummary(body, performance.now() - started);
      } finally {
        await runner.close();
      }
    };
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    const result = await init.applyInit(plan, stamp, indexFolder);
    console.log("\n" + result.lines.join("\n"));
    return result.failed > 0 ? 1 : 0;
  } catch (e) {
    if (e instanceof init.InitError) throw new UsageError(e.message);
    throw e;
  }
}

/** Run the CLI with these arguments; returns the exit code. */
export async function run(argv: readonly string[]): Promise<number> {
  let inv: Invocation;
  try {
    inv = parseArgs(argv);
  } catch (e) {
    console.error(`codemunch: ${(e as Error).message}. Run "codemunch --help" for usage`);
    return 2;
  }
  if (inv.flags.has("help") || inv.command === "help") {
    console.log(USAGE);
    return 0;
  }
  if (inv.flags.has("version")) {
    console.log(`codemunch ${SERVER_INFO.version}`);
    return 0;
  }
  try {
    const command = COMMANDS[inv.command];
    if (command === undefined) throw new UsageError(`Unknown command "${inv.command}"`);
    return await command.run(inv);
  } catch (e) {
    if (e instanceof UsageError || e instanceof RangeError) {
      console.error(`codemunch: ${e.message}. Run "codemunch --help" for usage`);
      return 2;
    }
    console.error(`codemunch: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

if (import.meta.main) {
  Deno.exit(await run(Deno.args));
}
