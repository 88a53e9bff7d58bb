/**
 * `codemunch init`: connect the MCP clients installed on this machine to codemunch.
 *
 * For each detected client (or each one named with `--client`), it adds a `codemunch` server
 * entry to the client's config file (see clients.ts for the paths by OS), keeping every other
 * entry and setting, after copying the file to a backup. The entry uses absolute paths — the
 * Deno executable running now and this checkout's launcher, or the compiled binary — so it works
 * when the client's PATH has no Deno (desktop apps start servers with a minimal PATH, often in
 * `/`). It can then index the folders and add a short agent policy to their CLAUDE.md/AGENTS.md.
 *
 * Everything it will do is listed first; `--dry-run` stops there, otherwise it asks (or takes
 * `--yes`). Pure of the environment: OS, env, working directory, prompts, output and indexing
 * are parameters.
 *
 * @module
 */
import { posix, win32 } from "node:path";
import {
  CLIENT_IDS,
  type ClientConfig,
  clientConfigs,
  type ClientId,
  type OsName,
} from "./clients.ts";

/** The server entry's name in every client config. */
export const SERVER_NAME = "codemunch";

/** Marks the agent policy in CLAUDE.md / AGENTS.md (so it is added once). */
export const POLICY_MARKER = "<!-- codemunch:policy -->";

/** The agent policy snippet. */
export const POLICY = `${POLICY_MARKER}
## Reading code: use codemunch first

This project is indexed by the codemunch MCP server. Before reading whole files:

1. \`list_repos\` to get the repo id (or \`index_folder\` with this folder's path if missing).
2. \`get_repo_outline\` / \`get_file_tree\` to find your way around.
3. \`search_symbols\` (names, signatures, docstrings) or \`search_text\` (literal text) to find code.
4. \`get_file_outline\` to see a file's structure, then \`get_symbol_source\` to read exactly the
   symbols you need.

Read a whole file only when you need most of it.
`;

function _hostOs(): OsName {
  return Deno.build.os === "windows" ? "windows" : Deno.build.os === "darwin" ? "darwin" : "linux";
}

/** Path functions of an OS (Windows paths are checked on any host by the tests). */
function _path(os: OsName): typeof posix {
  return os === "windows" ? win32 : posix;
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
export function serverCommand(
  execPath: string,
  checkout: string,
  os: OsName = _hostOs(),
): ServerCommand {
  const { basename, join } = _path(os);
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
    env: { CODEMUNCH_ALLOWED_ROOTS: roots.join(os === "windows" ? ";" : ":") },
  };
}

/** What `init` does to one client's config file. */
export interface ConfigChange {
  client: ClientConfig;
  /** Installed (its folder exists) or named with `--client`. */
  detected: boolean;
  status: "create" | "add" | "replace" | "unchanged" | "skip" | "error";
  /** Why it is skipped or cannot be changed. */
  reason?: string;
  /** The other servers kept in the file. */
  kept: string[];
  /** The new file text (for create/add/replace). */
  text?: string;
}

/** Everything `init` will do, computed before anything is written. */
export interface InitPlan {
  os: OsName;
  server: ServerCommand;
  roots: string[];
  changes: ConfigChange[];
  /** Folders to index. */
  index: string[];
  /** Policy files to create or extend. */
  policy: { file: string; status: "create" | "append" | "unchanged" }[];
}

/** What `init` reads the machine through. */
export interface InitIo {
  exists(path: string): boolean;
  readText(path: string): string | null;
  writeText(path: string, text: string): void;
  copy(from: string, to: string): void;
  mkdirp(path: string): void;
}

/** The real file system. */
export const DENO_IO: InitIo = {
  exists: (p) => {
    try {
      Deno.statSync(p);
      return true;
    } catch {
      return false;
    }
  },
  readText: (p) => {
    try {
      return Deno.readTextFileSync(p);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return null;
      throw e;
    }
  },
  writeText: (p, text) => {
    // Write next to the file, then rename: a client never reads half a config.
    const tmp = `${p}.codemunch-tmp`;
    Deno.writeTextFileSync(tmp, text);
    Deno.renameSync(tmp, p);
  },
  copy: (from, to) => Deno.copyFileSync(from, to),
  mkdirp: (p) => Deno.mkdirSync(p, { recursive: true }),
};

/** Options of {@linkcode planInit}. */
export interface InitOptions {
  os: OsName;
  env: (name: string) => string | undefined;
  /** The folder init was started from (the default folder to allow and index). */
  cwd: string;
  /** The Deno executable (or the compiled binary) running now. */
  execPath: string;
  /** The codemunch checkout (for the launcher's path). */
  checkout: string;
  /** Folders the server may index; default: `cwd`. */
  folders?: string[];
  /** Clients to configure even when not detected; default: the detected ones. */
  clients?: ClientId[];
  /** Index the folders. @default true */
  index?: boolean;
  /** Add the agent policy to the folders. @default true */
  policy?: boolean;
}

/** A mistake in the options: printed with a hint, exit code 2. */
export class InitError extends Error {}

/** Parse a config file's text: `{}` when missing, or an error message. */
function _parseConfig(text: string | null): Record<string, unknown> | string {
  if (text === null || text.trim() === "") return {};
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      return v as Record<string, unknown>;
    }
    return "it does not hold a JSON object";
  } catch (e) {
    return `it is not plain JSON (${(e as Error).message}); add the entry by hand`;
  }
}

function _isUnsafeFolder(
  folder: string,
  env: (n: string) => string | undefined,
  os: OsName,
): boolean {
  const { dirname, resolve } = _path(os);
  const home = env("HOME") || env("USERPROFILE");
  return dirname(folder) === folder || (home !== undefined && resolve(home) === folder);
}

/** Work out everything `init` would do. Reads files through `io`; writes nothing. */
export function planInit(options: InitOptions, io: InitIo = DENO_IO): InitPlan {
  const { os, env } = options;
  const { isAbsolute, join, resolve } = _path(os);
  const folders = (options.folders?.length ? options.folders : [options.cwd]).map((f) =>
    isAbsolute(f) ? resolve(f) : resolve(options.cwd, f)
  );
  for (const f of folders) {
    if (_isUnsafeFolder(f, env, os)) {
      throw new InitError(
        `Refusing to let the server read all of ${f}: run init from your project folder, or name the folders to index (codemunch init ~/src/app)`,
      );
    }
    if (resolve(f) === resolve(options.checkout) && options.folders === undefined) {
      throw new InitError(
        `This is the codemunch checkout itself: name the folders your agent should read (deno task init ~/src/app)`,
      );
    }
    if (!io.exists(f)) throw new InitError(`Folder not found: ${f}`);
  }
  const server = serverCommand(options.execPath, options.checkout, os);
  const wanted = new Set(options.clients ?? []);
  const changes: ConfigChange[] = [];
  for (const client of clientConfigs(os, env)) {
    const named = wanted.has(client.id);
    const detected = named || io.exists(client.file) || io.exists(client.marker);
    const change: ConfigChange = { client, detected, status: "skip", kept: [] };
    changes.push(change);
    if (!detected || (wanted.size > 0 && !named)) {
      change.reason = detected ? "not selected (--client)" : "not installed";
      continue;
    }
    const before = io.readText(client.file);
    const parsed = _parseConfig(before);
    if (typeof parsed === "string") {
      change.status = "error";
      change.reason = parsed;
      continue;
    }
    const list = parsed[client.key] ?? {};
    if (typeof list !== "object" || list === null || Array.isArray(list)) {
      change.status = "error";
      change.reason = `its "${client.key}" is not an object; add the entry by hand`;
      continue;
    }
    const servers = list as Record<string, unknown>;
    const entry = serverEntry(client, server, folders, os);
    change.kept = Object.keys(servers).filter((k) => k !== SERVER_NAME);
    const previous = servers[SERVER_NAME];
    if (previous !== undefined && JSON.stringify(previous) === JSON.stringify(entry)) {
      change.status = "unchanged";
      continue;
    }
    change.status = before === null ? "create" : previous === undefined ? "add" : "replace";
    const next = { ...parsed, [client.key]: { ...servers, [SERVER_NAME]: entry } };
    change.text = JSON.stringify(next, null, 2) + "\n";
  }
  const policy: InitPlan["policy"] = [];
  if (options.policy ?? true) {
    const claude = changes.some((c) =>
      (c.client.id === "claude-code" || c.client.id === "claude-desktop") && c.detected
    );
    for (const f of folders) {
      const existing = ["CLAUDE.md", "AGENTS.md"].map((n) => join(f, n)).filter((p) =>
        io.exists(p)
      );
      if (existing.length === 0) {
        policy.push({ file: join(f, claude ? "CLAUDE.md" : "AGENTS.md"), status: "create" });
      }
      for (const file of existing) {
        const has = (io.readText(file) ?? "").includes(POLICY_MARKER);
        policy.push({ file, status: has ? "unchanged" : "append" });
      }
    }
  }
  return {
    os,
    server,
    roots: folders,
    changes,
    index: options.index ?? true ? folders : [],
    policy,
  };
}

/** Quote one command-line word for a POSIX shell when it needs it. */
function _sh(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The `claude mcp add` line equivalent to the Claude Code entry. */
export function claudeMcpAdd(plan: Pick<InitPlan, "server" | "roots">, os: OsName): string {
  const roots = plan.roots.join(os === "windows" ? ";" : ":");
  return [
    "claude mcp add -s user",
    SERVER_NAME,
    "-e",
    _sh(`CODEMUNCH_ALLOWED_ROOTS=${roots}`),
    "--",
    _sh(plan.server.command),
    ...plan.server.args.map(_sh),
  ].join(" ");
}

/** The plan as the lines shown before anything is written. */
export function describePlan(plan: InitPlan, os: OsName): string[] {
  const entry = JSON.stringify(
    { [SERVER_NAME]: serverEntry({ typed: false }, plan.server, plan.roots, os) },
    null,
    2,
  );
  const lines = [
    "The server entry (absolute paths, so it runs even where the client's PATH has no deno;",
    'VS Code\'s adds "type": "stdio"):',
    ...entry.slice(2, -2).split("\n").map((l) => `  ${l.slice(2)}`),
    "",
    "Client config files:",
  ];
  const width = Math.max(...plan.changes.map((c) => c.client.name.length));
  for (const c of plan.changes) {
    const what = {
      create: "create it with the codemunch entry",
      add: `add the codemunch entry${_kept(c.kept)}`,
      replace: `update the codemunch entry${_kept(c.kept)}`,
      unchanged: "already set up, unchanged",
      skip: `skipped: ${c.reason}`,
      error: `cannot change: ${c.reason}`,
    }[c.status];
    lines.push(`  ${c.client.name.padEnd(width)}  ${c.client.file}`);
    lines.push(`  ${"".padEnd(width)}  → ${what}`);
    if (c.client.id === "claude-code" && c.text !== undefined) {
      lines.push(`  ${"".padEnd(width)}    (quit Claude Code first: it rewrites this file)`);
    }
  }
  if (plan.changes.every((c) => c.status === "skip")) {
    lines.push(
      '  No MCP client found: name one with --client (claude-desktop, claude-code, cursor, vscode, windsurf), or add the entry by hand (README, "Connect a client").',
    );
  }
  if (plan.index.length > 0 || plan.policy.length > 0) lines.push("", "Then:");
  for (const f of plan.index) lines.push(`  index ${f}`);
  for (const p of plan.policy) {
    if (p.status === "create") lines.push(`  create ${p.file} with the agent policy`);
    if (p.status === "append") lines.push(`  add the agent policy to ${p.file}`);
  }
  return lines;
}

function _kept(kept: string[]): string {
  return kept.length === 0 ? "" : ` (keeping ${kept.length} other: ${kept.join(", ")})`;
}

/** What {@linkcode applyInit} did. */
export interface InitResult {
  lines: string[];
  /** Files written. */
  written: string[];
  /** Backups made. */
  backups: string[];
  failed: number;
}

/**
 * Carry out a plan: back up and write each changed config file, index the folders, add the
 * policy. `stamp` names the backups (`<file>.codemunch-backup-<stamp>`).
 */
export async function applyInit(
  plan: InitPlan,
  stamp: string,
  indexFolder: ((folder: string) => Promise<string>) | null,
  io: InitIo = DENO_IO,
): Promise<InitResult> {
  const { dirname } = _path(plan.os);
  const result: InitResult = { lines: [], written: [], backups: [], failed: 0 };
  for (const c of plan.changes) {
    if (c.text === undefined) continue;
    try {
      io.mkdirp(dirname(c.client.file));
      if (io.exists(c.client.file)) {
        const backup = `${c.client.file}.codemunch-backup-${stamp}`;
        io.copy(c.client.file, backup);
        result.backups.push(backup);
        result.lines.push(
          `✓ ${c.client.name}: ${
            c.status === "replace" ? "updated" : "added"
          } codemunch in ${c.client.file} (backup: ${backup})`,
        );
      } else {
        result.lines.push(`✓ ${c.client.name}: created ${c.client.file}`);
      }
      io.writeText(c.client.file, c.text);
      result.written.push(c.client.file);
    } catch (e) {
      result.failed++;
      result.lines.push(
        `✗ ${c.client.name}: cannot write ${c.client.file}: ${(e as Error).message}`,
      );
    }
  }
  for (const folder of plan.index) {
    if (indexFolder === null) break;
    try {
      result.lines.push(`✓ ${await indexFolder(folder)}`);
    } catch (e) {
      result.failed++;
      result.lines.push(`✗ indexing ${folder} failed: ${(e as Error).message}`);
    }
  }
  for (const p of plan.policy) {
    if (p.status === "unchanged") continue;
    try {
      const before = io.readText(p.file);
      const text = before === null ? POLICY : `${before.replace(/\n*$/, "\n\n")}${POLICY}`;
      io.writeText(p.file, text);
      result.written.push(p.file);
      result.lines.push(`✓ agent policy ${before === null ? "written to" : "added to"} ${p.file}`);
    } catch (e) {
      result.failed++;
      result.lines.push(`✗ cannot write ${p.file}: ${(e as Error).message}`);
    }
  }
  const configured = plan.changes.filter((c) => c.text !== undefined || c.status === "unchanged");
  if (configured.length > 0) {
    result.lines.push(
      "",
      `Restart ${
        configured.map((c) => c.client.name).join(", ")
      } to load the server, then ask: "Use codemunch to find where <something> is handled".`,
    );
  }
  return result;
}

/** Parse a `--client` value: comma-separated client ids. */
export function parseClients(text: string): ClientId[] {
  const ids = text.split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== "");
  for (const id of ids) {
    if (!(CLIENT_IDS as readonly string[]).includes(id)) {
      throw new InitError(`Unknown client "${id}" (one of ${CLIENT_IDS.join(", ")})`);
    }
  }
  return ids as ClientId[];
}
