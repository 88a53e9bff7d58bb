/**
 * The codemunch command line: `codemunch serve` (the default) runs the MCP server over stdio;
 * `init` connects MCP clients; the other subcommands call the same tools once and print the
 * response. Each subcommand is one entry of the command table (`src/cli/commands.ts`).
 *
 * ```text
 * codemunch [serve]                         MCP server over stdio
 * codemunch serve --http                    MCP over Streamable HTTP
 * codemunch init [folder...]                connect Claude, Cursor, VS Code, Windsurf
 * codemunch index <path>                    index_folder, with a progress bar
 * codemunch search <query> [--repo R]       search_symbols
 * codemunch outline <file> [--repo R]       get_file_outline
 * codemunch symbol <id> [--repo R]          get_symbol_source, printed as source text
 * codemunch call <tool> ['<json args>']     call any tool, print its response
 * ```
 *
 * This file is the entry point and the one place that reads the process's surroundings: the
 * environment variables, the working folder, the OS, the executable. Everything below gets them
 * as an {@linkcode Environment} and parses its settings from it once (`src/server/compose.ts`).
 *
 * Start-up matters for `serve` (a client waits for the tool list): the static imports reach only
 * the argument parser, the command table and the stdio server, which answers `initialize` and
 * `tools/list` from data. Everything else loads by a computed specifier when a command needs it
 * ({@linkcode LAZY_MODULES}; `tests/arch/startup_graph_test.ts` walks the start-up graph).
 *
 * @module
 */
import { run } from "./src/cli/run.ts";
import type { Environment } from "./src/server/compose.ts";

export { LAZY_MODULES } from "./src/cli/lazy.ts";

/**
 * An environment variable, or undefined when it is unset or this process may not read it (the
 * launcher grants the server only the variables it reads).
 */
function _variable(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch (e) {
    if (e instanceof Deno.errors.NotCapable || e instanceof Deno.errors.PermissionDenied) {
      return undefined;
    }
    throw e;
  }
}

/** This checkout's folder (no node:path at start-up: it alone costs milliseconds). */
function _checkout(): string {
  const path = decodeURIComponent(new URL(".", import.meta.url).pathname).replace(/\/$/, "");
  if (Deno.build.os !== "windows") return path;
  return path.replace(/^\/([A-Za-z]:)/, "$1").replaceAll("/", "\\");
}

/** The process's surroundings, read here and nowhere else. */
function _environment(): Environment {
  const seen = new Map<string, string | undefined>();
  const os = Deno.build.os;
  return {
    env: (name) => {
      if (!seen.has(name)) seen.set(name, _variable(name));
      return seen.get(name);
    },
    cwd: Deno.cwd(),
    os: os === "darwin" || os === "windows" ? os : "linux",
    execPath: Deno.execPath(),
    checkout: _checkout(),
    interactive: Deno.stdin.isTerminal(),
  };
}

if (import.meta.main) {
  Deno.exit(await run(Deno.args, _environment()));
}
