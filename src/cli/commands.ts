/**
 * Every subcommand of `codemunch`, one entry each (usage, flags, handler): parsing, `--help` and
 * the README test follow from this table. Handlers other than `serve` load their module when run.
 *
 * @module
 */
import { SERVER_INFO, TOOLS_LIST } from "../server/stdio.ts";
import type { Command, FlagSpec } from "./args.ts";
import { load } from "./lazy.ts";
import { serveCommand } from "./serve.ts";

const FORMAT: Record<string, FlagSpec> = { format: { value: true } };
const REPO: Record<string, FlagSpec> = { repo: { value: true, arg: "repo" } };

/** A command whose handler is in `src/cli/tool_commands.ts`. */
function _tool(usage: string, summary: string, flags: Record<string, FlagSpec>): Command {
  const command: Command = {
    usage,
    summary,
    flags,
    run: async (inv, environment) =>
      (await load("src/cli/tool_commands.ts")).runToolCommand(inv, environment, command),
  };
  return command;
}

/** Every subcommand, by name. */
export const COMMANDS: Record<string, Command> = {
  serve: {
    usage: "[--http [--host H] [--port P]]",
    summary: "run the MCP server: stdio (the default), or Streamable HTTP at :8901/mcp",
    flags: { http: { value: false }, host: { value: true }, port: { value: true } },
    run: serveCommand,
  },
  watch: {
    usage: "<path>",
    summary: "index a folder, then keep it fresh as files change",
    flags: {},
    run: async (inv, env) => (await load("src/cli/serve_commands.ts")).watchCommand(inv, env),
  },
  init: {
    usage: "[folder...] [--client C] [--hooks] [--dry-run] [--yes]",
    summary: "connect Claude Desktop/Code, Cursor, VS Code, Windsurf",
    flags: {
      "dry-run": { value: false },
      hooks: { value: false },
      yes: { value: false, short: "y" },
      client: { value: true },
      "no-index": { value: false },
      "no-policy": { value: false },
    },
    run: async (inv, env) => (await load("src/cli/init_command.ts")).initCommand(inv, env),
  },
  "install-command": {
    usage: "[--dir D] [--force] [--dry-run]",
    summary: "put a `codemunch` command in ~/.local/bin (runs without deno on PATH)",
    flags: { dir: { value: true }, force: { value: false }, "dry-run": { value: false } },
    run: async (inv, env) => (await load("src/cli/command_shim.ts")).installCommand(inv, env),
  },
  "download-model": {
    usage: "[--model OWNER/NAME] [--url HOST] [--force]",
    summary: "fetch a local embedding model for semantic search (all-MiniLM-L6-v2)",
    flags: { model: { value: true }, url: { value: true }, force: { value: false } },
    run: async (inv, env) =>
      (await load("src/cli/download_model.ts")).downloadModelCommand(inv, env),
  },
  hook: {
    usage: "<pre-tool-use|post-tool-use>",
    summary: "a Claude Code hook (installed by `init --hooks`; reads the event on stdin)",
    flags: {},
    run: async (inv, env) => (await load("src/cli/hooks.ts")).hookCommand(inv, env),
  },
  index: _tool("<path> [--json]", "index a folder (index_folder)", {
    json: { value: false },
    ...FORMAT,
  }),
  search: _tool(
    "<query> [--repo R] [--kind K] [--language L] [--max N]",
    "search symbols (search_symbols)",
    {
      ...REPO,
      kind: { value: true, arg: "kind" },
      language: { value: true, arg: "language" },
      max: { value: true, arg: "max_results" },
      ...FORMAT,
    },
  ),
  outline: _tool("<file> [--repo R]", "outline of a file (get_file_outline)", {
    ...REPO,
    ...FORMAT,
  }),
  symbol: _tool("<id> [--repo R] [--context N] [--json]", "print a symbol's source", {
    ...REPO,
    context: { value: true, arg: "context_lines" },
    json: { value: false },
    ...FORMAT,
  }),
  call: _tool("<tool> ['<json args>'] [--repo R]", "call any tool and print its response", {
    ...REPO,
    ...FORMAT,
  }),
  tools: {
    usage: "",
    summary: "list the tools",
    flags: {},
    run: () => {
      for (const t of _TOOLS) console.log(`${t.name.padEnd(18)} ${t.description.split(". ")[0]}`);
      return Promise.resolve(0);
    },
  },
};

const _TOOLS = TOOLS_LIST.tools as { name: string; description: string }[];

/** The `--help` text. */
export function usage(): string {
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
Tools: ${_TOOLS.map((t) => t.name).join(", ")}`;
}
