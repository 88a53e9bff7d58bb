/**
 * The commands that call tools once and print the answer: `index`, `search`, `outline`,
 * `symbol` and `call`. Each builds one runner from the environment (the composition root), calls
 * the tool and closes the runner. `--repo` may be left out when one repo is indexed, when one
 * repo has the file or symbol asked for, or in an indexed folder.
 *
 * @module
 */
import { relative, resolve, sep } from "node:path";
import { type Format, resolveFormat } from "../codec/dispatch.ts";
import { createRunner, type Environment } from "../server/compose.ts";
import type { ToolRunner } from "../server/runner.ts";
import type { Store } from "../store/store.ts";
import { type Command, expectPositional, type Invocation, UsageError } from "./args.ts";
import { printError, printResult } from "./output.ts";
import { indexSummary, progressReporter, stderrSink } from "./progress.ts";

/** What a tool command runs with. */
interface _Call {
  runner: ToolRunner;
  store: Store;
  inv: Invocation;
  command: Command;
  /** The folder the command was started in (relative paths resolve against it). */
  cwd: string;
}

/** The tool commands, by name. */
const _COMMANDS: Record<string, (c: _Call) => Promise<number>> = {
  index: _index,
  search: _search,
  outline: _outline,
  symbol: _symbol,
  call: _call,
};

/** Run one tool command: one runner from the environment, closed at the end. */
export async function runToolCommand(
  inv: Invocation,
  environment: Environment,
  command: Command,
): Promise<number> {
  const body = _COMMANDS[inv.command];
  if (body === undefined) throw new UsageError(`"${inv.command}" is not a tool command`);
  const { runner, store } = createRunner(environment);
  try {
    return await body({ runner, store, inv, command, cwd: environment.cwd });
  } finally {
    await runner.close();
  }
}

/** The format a command prints in: `--format`, else `fallback`. */
export function commandFormat(inv: Invocation, fallback: Format = "json"): Format {
  const f = inv.flags.get("format");
  if (f === undefined) return fallback;
  try {
    return resolveFormat(f.toLowerCase());
  } catch {
    throw new UsageError(
      `Unknown ${inv.typed.get("format")} "${f}": use auto, compact, json or table`,
    );
  }
}

/**
 * The repo for a shortcut: --repo, else the only indexed one, else the one `fits` picks, else
 * the indexed folder the command runs in (the innermost, when folders nest).
 */
function _pickRepo(
  store: Store,
  inv: Invocation,
  cwd: string,
  fits?: (repo: string) => boolean,
): string {
  const given = inv.flags.get("repo");
  if (given !== undefined) return given;
  const repos = store.repoIds();
  if (repos.length === 0) {
    throw new UsageError("No repository is indexed yet: run `codemunch index <path>` first");
  }
  if (repos.length === 1) return repos[0]!;
  const fitting = fits === undefined ? [] : repos.filter(fits);
  if (fitting.length === 1) return fitting[0]!;
  const here = store.listRepos().repos
    .filter((m) =>
      m.source_root !== "" && (cwd === m.source_root || cwd.startsWith(m.source_root + sep))
    )
    .sort((a, b) => b.source_root.length - a.source_root.length)[0];
  if (here !== undefined) return here.repo;
  throw new UsageError(
    `Several repositories are indexed and none holds this folder: pass --repo (one of ${
      repos.join(", ")
    })`,
  );
}

async function _index({ runner, inv, command, cwd }: _Call): Promise<number> {
  expectPositional(inv, 1, "a folder path");
  const format = commandFormat(inv);
  const progress = progressReporter(stderrSink());
  const started = performance.now();
  const result = await runner.call("index_folder", { path: resolve(cwd, inv.positional[0]!) }, {
    format,
    onProgress: progress.onProgress,
  });
  progress.end();
  if (inv.flags.has("json") || inv.flags.has("format")) {
    return printResult(result, format, inv, command);
  }
  if (result.isError) return printError(result, inv, command);
  console.log(indexSummary(JSON.parse(result.text), performance.now() - started));
  return 0;
}

async function _search({ runner, store, inv, command, cwd }: _Call): Promise<number> {
  if (inv.positional.length === 0) throw new UsageError(`"search" expects a query`);
  const args: Record<string, unknown> = {
    repo: _pickRepo(store, inv, cwd),
    query: inv.positional.join(" "),
  };
  for (const [name, flag] of Object.entries(command.flags)) {
    if (flag.arg !== undefined && inv.flags.has(name)) args[flag.arg] = inv.flags.get(name);
  }
  const format = commandFormat(inv);
  const result = await runner.call("search_symbols", args, { format });
  return printResult(result, format, inv, command);
}

async function _outline({ runner, store, inv, command, cwd }: _Call): Promise<number> {
  expectPositional(inv, 1, "a file path");
  let file = inv.positional[0]!;
  const abs = resolve(cwd, file);
  const rootOf = (repo: string) =>
    store.listRepos().repos.find((m) => m.repo === repo)?.source_root ?? "";
  const owns = (repo: string) => rootOf(repo) !== "" && abs.startsWith(rootOf(repo) + "/");
  const repo = _pickRepo(store, inv, cwd, owns);
  if (owns(repo)) file = relative(rootOf(repo), abs);
  const format = commandFormat(inv);
  const result = await runner.call("get_file_outline", { repo, file_path: file }, { format });
  return printResult(result, format, inv, command);
}

async function _symbol({ runner, store, inv, command, cwd }: _Call): Promise<number> {
  expectPositional(inv, 1, "a symbol id");
  const id = inv.positional[0]!;
  const repo = _pickRepo(store, inv, cwd, (r) => {
    try {
      return store.repo(r).symbol(id) !== undefined;
    } catch {
      return false;
    }
  });
  const args: Record<string, unknown> = { repo, symbol_id: id };
  if (inv.flags.has("context")) args.context_lines = inv.flags.get("context");
  const asText = !inv.flags.has("json") && !inv.flags.has("format");
  const format = inv.flags.has("format") ? commandFormat(inv) : "json";
  const result = await runner.call("get_symbol_source", args, { format });
  if (!asText || result.isError) return printResult(result, format, inv, command);
  const body = JSON.parse(result.text) as { source?: string };
  console.log((body.source ?? "").replace(/\n$/, ""));
  return 0;
}

async function _call({ runner, store, inv, command, cwd }: _Call): Promise<number> {
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
  // A tool that takes a repo (an alias as its tool) gets --repo; one that may infer it, the repo
  // the other shortcuts pick. A tool whose repo is required (it deletes) gets only --repo.
  const own = runner.canonicalName(tool);
  const mode = runner.tools.find((t) => t.name === own)?.repo ?? "none";
  if (args.repo === undefined && mode !== "none") {
    if (inv.flags.has("repo")) args.repo = inv.flags.get("repo");
    else if (mode === "optional" && store.repoIds().length > 0) {
      args.repo = _pickRepo(store, inv, cwd);
    }
  }
  const format = commandFormat(inv);
  return printResult(await runner.call(tool, args, { format }), format, inv, command);
}
