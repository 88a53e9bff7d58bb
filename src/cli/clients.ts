/**
 * Where each MCP client keeps its server list, by operating system and environment — the paths
 * `codemunch init` looks at. Pure: every input (OS, environment) is a parameter, so the tests can
 * lay out a temporary home folder for each client and OS.
 *
 * | Client         | macOS                                                         | Windows                                  | Linux                                         |
 * | -------------- | ------------------------------------------------------------- | ---------------------------------------- | --------------------------------------------- |
 * | Claude Desktop | `~/Library/Application Support/Claude/claude_desktop_config.json` | `%APPDATA%\Claude\claude_desktop_config.json` | `$XDG_CONFIG_HOME/Claude/claude_desktop_config.json` |
 * | Claude Code    | `~/.claude.json` (user scope)                                 | same                                     | same                                          |
 * | Cursor         | `~/.cursor/mcp.json`                                          | same                                     | same                                          |
 * | VS Code        | `~/Library/Application Support/Code/User/mcp.json`            | `%APPDATA%\Code\User\mcp.json`           | `$XDG_CONFIG_HOME/Code/User/mcp.json`         |
 * | Windsurf       | `~/.codeium/windsurf/mcp_config.json`                         | same                                     | same                                          |
 *
 * (`$XDG_CONFIG_HOME` defaults to `~/.config`; `%APPDATA%` to `~\AppData\Roaming`.)
 *
 * @module
 */

/** The operating systems with their own config layouts. */
export type OsName = "linux" | "darwin" | "windows";

/** The clients `init` knows. */
export const CLIENT_IDS = [
  "claude-desktop",
  "claude-code",
  "cursor",
  "vscode",
  "windsurf",
] as const;
/** One of {@linkcode CLIENT_IDS}. */
export type ClientId = typeof CLIENT_IDS[number];

/** One client's config file. */
export interface ClientConfig {
  id: ClientId;
  /** Display name. */
  name: string;
  /** The JSON file holding the server list. */
  file: string;
  /** A folder whose presence means the client is installed (the file may not exist yet). */
  marker: string;
  /** The key of the server list: `mcpServers`, or `servers` for VS Code. */
  key: "mcpServers" | "servers";
  /** VS Code wants `"type": "stdio"` in each entry. */
  typed: boolean;
}

/** Joins path parts with the OS's separator (no node:path: Windows paths on Linux too). */
function _join(os: OsName, ...parts: string[]): string {
  const sep = os === "windows" ? "\\" : "/";
  return parts.map((p, i) => i === 0 ? p.replace(/[\\/]+$/, "") : p.replace(/^[\\/]+|[\\/]+$/g, ""))
    .join(sep);
}

/** The home folder: HOME, else USERPROFILE (Windows). */
export function homeDir(env: (name: string) => string | undefined): string {
  const home = env("HOME") || env("USERPROFILE");
  if (!home) throw new Error("Cannot find the home folder: set HOME (or USERPROFILE on Windows)");
  return home;
}

/** Every client's config file for this OS and environment. */
export function clientConfigs(
  os: OsName,
  env: (name: string) => string | undefined,
): ClientConfig[] {
  const home = homeDir(env);
  const j = (...parts: string[]) => _join(os, ...parts);
  // The per-user settings folder of desktop apps.
  const appData = os === "darwin"
    ? j(home, "Library", "Application Support")
    : os === "windows"
    ? env("APPDATA") || j(home, "AppData", "Roaming")
    : env("XDG_CONFIG_HOME") || j(home, ".config");
  return [
    {
      id: "claude-desktop",
      name: "Claude Desktop",
      file: j(appData, "Claude", "claude_desktop_config.json"),
      marker: j(appData, "Claude"),
      key: "mcpServers",
      typed: false,
    },
    {
      id: "claude-code",
      name: "Claude Code",
      file: j(home, ".claude.json"),
      marker: j(home, ".claude"),
      key: "mcpServers",
      typed: false,
    },
    {
      id: "cursor",
      name: "Cursor",
      file: j(home, ".cursor", "mcp.json"),
      marker: j(home, ".cursor"),
      key: "mcpServers",
      typed: false,
    },
    {
      id: "vscode",
      name: "VS Code",
      file: j(appData, "Code", "User", "mcp.json"),
      marker: j(appData, "Code", "User"),
      key: "servers",
      typed: true,
    },
    {
      id: "windsurf",
      name: "Windsurf",
      file: j(home, ".codeium", "windsurf", "mcp_config.json"),
      marker: j(home, ".codeium", "windsurf"),
      key: "mcpServers",
      typed: false,
    },
  ];
}
