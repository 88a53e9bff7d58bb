/**
 * How an MCP client starts codemunch: the command (the compiled binary, or the Deno running now
 * with this checkout's launcher, all absolute so it works where the client's PATH has no deno),
 * the entry `init` writes into a client's config, and the same command as a `claude mcp add`
 * line or a shell word list (for hooks and the `codemunch` script).
 *
 * @module
 */
import { posix, win32 } from "node:path";
import type { ClientConfig, OsName } from "./clients.ts";

/** The server entry's name in every client config. */
export const SERVER_NAME = "codemunch";

/** Path functions of an OS (Windows paths are checked on any host by the tests). */
export function pathsOf(os: OsName): typeof posix {
  return os === "windows" ? win32 : posix;
}

/** The separator of a folder list in `CODEMUNCH_ALLOWED_ROOTS`. */
export function rootsDelimiter(os: OsName): string {
  return os === "windows" ? ";" : ":";
}

/** How a client starts the server. */
export interface ServerCommand {
  command: string;
  args: string[];
}

/**
 * The server command for this installation: the compiled binary (`execPath` is not a `deno`
 * executable) with `serve`, else Deno with the checkout's launcher, all absolute.
 */
export function serverCommand(execPath: string, checkout: string, os: OsName): ServerCommand {
  const { basename, join } = pathsOf(os);
  if (!/^deno(\.exe)?$/i.test(basename(execPath))) return { command: execPath, args: ["serve"] };
  return {
    command: execPath,
    args: [
      "run",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      join(checkout, "scripts", "serve.ts"),
      "serve",
    ],
  };
}

/** The entry `init` writes for a client. */
export function serverEntry(
  client: Pick<ClientConfig, "typed">,
  server: ServerCommand,
  roots: readonly string[],
  os: OsName,
): Record<string, unknown> {
  return {
    ...(client.typed ? { type: "stdio" } : {}),
    command: server.command,
    args: server.args,
    env: { CODEMUNCH_ALLOWED_ROOTS: roots.join(rootsDelimiter(os)) },
  };
}

/** The folders an existing entry allows (its `CODEMUNCH_ALLOWED_ROOTS`), or none. */
export function entryRoots(entry: unknown, os: OsName): string[] {
  const env = (entry as { env?: Record<string, unknown> } | undefined)?.env;
  const roots = env?.CODEMUNCH_ALLOWED_ROOTS;
  if (typeof roots !== "string") return [];
  return roots.split(rootsDelimiter(os)).map((r) => r.trim()).filter((r) => r !== "");
}

/** Quote one word for a POSIX shell when it needs it. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The `claude mcp add` line equivalent to the Claude Code entry. */
export function claudeMcpAdd(
  plan: { server: ServerCommand; roots: readonly string[] },
  os: OsName,
): string {
  return [
    "claude mcp add -s user",
    SERVER_NAME,
    "-e",
    shellWord(`CODEMUNCH_ALLOWED_ROOTS=${plan.roots.join(rootsDelimiter(os))}`),
    "--",
    shellWord(plan.server.command),
    ...plan.server.args.map(shellWord),
  ].join(" ");
}
