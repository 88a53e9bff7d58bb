/**
 * The codemunch command line: `codemunch serve` (the default) runs the MCP server over stdio;
 * the other subcommands call the same tools once and print the response.
 *
 * ```text
 * codemunch [serve]                         MCP server over stdio
 * codemunch call <tool> ['<json args>']     call any tool, print its response
 * codemunch index <path>                    index_folder
 * codemunch search <query> [--repo R]       search_symbols
 * codemunch outline <file> [--repo R]       get_file_outline
 * codemunch symbol <id> [--repo R]          get_symbol_source
 * ```
 *
 * @module
 */
// Start-up matters for `serve` (a client waits for the tool list): at the top only the stdio
// server, which answers initialize and tools/list from data, and the import-free index_dir.ts. The runner, the tools, the store
// and the codec are imported when a command or the first tool call needs them.
import type { Format } from "./src/codec/dispatch.ts";
import type { CallResult, ServerDeps, ToolRunner } from "./src/server/runner.ts";
import type { Store } from "./src/store/store.ts";
import { defaultIndexDir } from "./src/store/index_dir.ts";
import { SERVER_INFO, serveStdio, TOOLS_LIST } from "./src/server/stdio.ts";

const TOOLS = TOOLS_LIST.tools as { name: string; description: string }[];

/** Usage text of `--help`. */
export const USAGE =
  `codemunch ${SERVER_INFO.version} — index code once, serve agents exactly what they need

Usage:
  codemunch [serve]                          run the MCP server over stdio (the default)
  codemunch serve --http [--host H] [--port P]
                                             MCP over Streamable HTTP at /mcp (default
                                             127.0.0.1:8901; JCODEMUNCH_HTTP_TOKEN off loopback)
  codemunch watch <path>                     index a folder, then keep it fresh as files change
  codemunch call <tool> ['<json args>']      call any tool and print its response
  codemunch index <path>                     index a folder (index_folder)
  codemunch search <query> [--repo R] [--kind K] [--language L] [--max N]
                                             search symbols (search_symbols)
  codemunch outline <file> [--repo R]        outline of a file (get_file_outline)
  codemunch symbol <id> [--repo R]           source of a symbol (get_symbol_source)
  codemunch tools                            list the tools

Options:
  --format <auto|compact|json|table>         response format (default json)
  -h, --help                                 show this help
  -V, --version                              show the version

Environment: CODE_INDEX_PATH (index directory, default ~/.code-index), CODEMUNCH_ALLOWED_ROOTS,
CODEMUNCH_META=off, JCODEMUNCH_REDACT_RESPONSE_SECRETS=0, JCODEMUNCH_DEFAULT_FORMAT (server),
CODEMUNCH_WATCH=0 (no watch mode), JCODEMUNCH_HTTP_TOKEN, JCODEMUNCH_RATE_LIMIT (HTTP).
Tools: ${TOOLS.map((t) => t.name).join(", ")}`;

/** A command-line mistake: printed with the usage hint, exit code 2. */
class UsageError extends Error {}

interface Parsed {
  command: string;
  positional: string[];
  flags: Map<string, string>;
}

const _VALUE_FLAGS = new Set(["format", "repo", "kind", "language", "max", "host", "port"]);
const _BOOLEAN_FLAGS = new Set(["http"]);

function _parse(argv: readonly string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "-h" || a === "--help") flags.set("help", "true");
    else if (a === "-V" || a === "--version") flags.set("version", "true");
    else if (a === "--") positional.push(...argv.slice(i + 1)), i = argv.length;
    else if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = a.slice(2, eq === -1 ? undefined : eq);
      if (_BOOLEAN_FLAGS.has(name) && eq === -1) {
        flags.set(name, "true");
        continue;
      }
      if (!_VALUE_FLAGS.has(name)) throw new UsageError(`Unknown option "--${name}"`);
      const value = eq === -1 ? argv[++i] : a.slice(eq + 1);
      if (value === undefined || value === "") {
        throw new UsageError(`Option "--${name}" needs a value`);
      }
      flags.set(name, value);
    } else positional.push(a);
  }
  return { command: positional.shift() ?? "serve", positional, flags };
}

async function _format(flags: Map<string, string>): Promise<Format> {
  const f = flags.get("format") ?? "json";
  const { resolveFormat } = await import("./src/codec/dispatch.ts");
  try {
    return resolveFormat(f.toLowerCase());
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^Unknown format/, "Unknown --format"));
  }
}

/** What the tool runner needs, from the environment (loads the store, tools and settings). */
async function _deps(): Promise<ServerDeps> {
  const [{ Store }, { ingestConfigFromEnv }, { settingsFromEnv }] = await Promise.all([
    import("./src/store/store.ts"),
    import("./src/ingest/config.ts"),
    import("./src/server/config.ts"),
  ]);
  return { store: Store.fromEnv(), ingest: ingestConfigFromEnv(), settings: settingsFromEnv() };
}

/** The repo for a shortcut: --repo, else the only indexed one, else the one `fits` picks. */
function _pickRepo(
  store: Store,
  flags: Map<string, string>,
  fits?: (repo: string) => boolean,
): string {
  const given = flags.get("repo");
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

async function _serve(): Promise<number> {
  let dir = "";
  try {
    dir = defaultIndexDir((n) => Deno.env.get(n));
  } catch { /* reported by the first tool call */ }
  console.error(`codemunch ${SERVER_INFO.version}: MCP server on stdio, index in ${dir}`);
  await serveStdio({ deps: _serverDeps });
  return 0;
}

/** A server's dependencies: the CLI's, plus watch mode (on unless CODEMUNCH_WATCH=0). */
async function _serverDeps(): Promise<ServerDeps> {
  const [deps, { watchSettingsFromEnv }] = await Promise.all([
    _deps(),
    import("./src/server/watch.ts"),
  ]);
  return { ...deps, watch: watchSettingsFromEnv() };
}

/** `serve --http`: MCP over Streamable HTTP until SIGINT/SIGTERM. */
async function _serveHttp(flags: Map<string, string>): Promise<number> {
  const [{ ToolRunner }, { httpSettingsFromEnv, serveHttp }, deps] = await Promise.all([
    import("./src/server/runner.ts"),
    import("./src/server/http.ts"),
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
async function _watch(path: string): Promise<number> {
  const [{ resolve }, { ToolRunner }, deps] = await Promise.all([
    import("node:path"),
    import("./src/server/runner.ts"),
    _serverDeps(),
  ]);
  if (deps.watch !== undefined && !deps.watch.enabled) {
    throw new UsageError(`"watch" needs watch mode: unset CODEMUNCH_WATCH=0`);
  }
  const runner = new ToolRunner(deps);
  try {
    const result = await runner.call("index_folder", { path: resolve(path), format: "json" });
    if (result.isError) return _print(result, "json");
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

function _print(result: CallResult, format: Format): number {
  if (result.isError) {
    let message = result.text;
    try {
      message = (JSON.parse(result.text) as { error: string }).error;
    } catch { /* not JSON: print as is */ }
    console.error(`codemunch: ${message} (${result.code})`);
    return 1;
  }
  if (format === "json") {
    console.log(JSON.stringify(JSON.parse(result.text), null, 2));
  } else {
    console.log(result.text.replace(/\n$/, ""));
  }
  return 0;
}

/** Run the CLI with these arguments; returns the exit code. */
export async function run(argv: readonly string[]): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = _parse(argv);
  } catch (e) {
    console.error(`codemunch: ${(e as Error).message}. Run "codemunch --help" for usage`);
    return 2;
  }
  const { command, positional, flags } = parsed;
  if (flags.has("help") || command === "help") {
    console.log(USAGE);
    return 0;
  }
  if (flags.has("version")) {
    console.log(`codemunch ${SERVER_INFO.version}`);
    return 0;
  }
  let runner: ToolRunner | null = null;
  try {
    if (command === "serve") {
      if (positional.length > 0) throw new UsageError(`"serve" takes no arguments`);
      if (flags.has("http")) return await _serveHttp(flags);
      if (flags.has("host") || flags.has("port")) {
        throw new UsageError(`"--host" and "--port" go with "serve --http"`);
      }
      return await _serve();
    }
    if (command === "watch") {
      if (positional.length !== 1) throw new UsageError(`"watch" expects a folder path`);
      return await _watch(positional[0]!);
    }
    if (command === "tools") {
      for (const t of TOOLS) console.log(`${t.name.padEnd(18)} ${t.description.split(". ")[0]}`);
      return 0;
    }
    const format = await _format(flags);
    const [{ relative, resolve }, { ToolRunner }, deps] = await Promise.all([
      import("node:path"),
      import("./src/server/runner.ts"),
      _deps(),
    ]);
    const store = deps.store;
    runner = new ToolRunner(deps);
    const expect = (n: number, what: string) => {
      if (positional.length !== n) {
        throw new UsageError(`"${command}" expects ${what}, got ${positional.length} arguments`);
      }
    };
    let tool: string;
    let args: Record<string, unknown>;
    switch (command) {
      case "call": {
        if (positional.length < 1 || positional.length > 2) {
          throw new UsageError(`"call" expects <tool> and optionally '<json args>'`);
        }
        tool = positional[0]!;
        try {
          args = positional[1] === undefined ? {} : JSON.parse(positional[1]);
        } catch (e) {
          throw new UsageError(`The arguments of "call" must be JSON: ${(e as Error).message}`);
        }
        if (typeof args !== "object" || args === null || Array.isArray(args)) {
          throw new UsageError(
            `The arguments of "call" must be a JSON object, like '{"repo": "x"}'`,
          );
        }
        break;
      }
      case "index":
        expect(1, "a folder path");
        tool = "index_folder";
        args = { path: resolve(positional[0]!) };
        break;
      case "search": {
        if (positional.length === 0) throw new UsageError(`"search" expects a query`);
        tool = "search_symbols";
        args = { repo: _pickRepo(store, flags), query: positional.join(" ") };
        for (const k of ["kind", "language"]) if (flags.has(k)) args[k] = flags.get(k);
        if (flags.has("max")) args.max_results = flags.get("max");
        break;
      }
      case "outline": {
        expect(1, "a file path");
        tool = "get_file_outline";
        let file = positional[0]!;
        const abs = resolve(file);
        const owner = (repo: string) => {
          const root = store.listRepos().repos.find((m) => m.repo === repo)?.source_root ?? "";
          return root !== "" && abs.startsWith(root + "/");
        };
        const repo = _pickRepo(store, flags, owner);
        const root = store.listRepos().repos.find((m) => m.repo === repo)?.source_root ?? "";
        if (root !== "" && abs.startsWith(root + "/")) file = relative(root, abs);
        args = { repo, file_path: file };
        break;
      }
      case "symbol": {
        expect(1, "a symbol id");
        tool = "get_symbol_source";
        const id = positional[0]!;
        const repo = _pickRepo(store, flags, (r) => {
          try {
            return store.repo(r).symbol(id) !== undefined;
          } catch {
            return false;
          }
        });
        args = { repo, symbol_id: id };
        break;
      }
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
    if (flags.has("repo") && command === "call") {
      throw new UsageError(`"call" takes the repo in its JSON`);
    }
    return _print(await runner.call(tool, args, { format }), format);
  } catch (e) {
    if (e instanceof UsageError || e instanceof RangeError) {
      console.error(`codemunch: ${e.message}. Run "codemunch --help" for usage`);
      return 2;
    }
    console.error(`codemunch: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    await runner?.close();
  }
}

if (import.meta.main) {
  Deno.exit(await run(Deno.args));
}
