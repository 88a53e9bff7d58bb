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
 * Running it again with other folders merges them: the allowed folders of every entry it changes
 * become the ones already allowed plus the new ones, and the plan says which is which. With
 * `--hooks` it also adds codemunch's Claude Code hooks to `~/.claude/settings.json` (see
 * hook_settings.ts).
 *
 * Everything it will do is listed first (init_describe.ts); `--dry-run` stops there, otherwise
 * it asks (or takes `--yes`) and carries the plan out (init_apply.ts). Pure of the environment:
 * OS, env, working directory, prompts, output and indexing are parameters.
 *
 * @module
 */
import {
  CLIENT_IDS,
  type ClientConfig,
  clientConfigs,
  type ClientId,
  homeDir,
  type OsName,
} from "./clients.ts";
import {
  CLAUDE_SETTINGS,
  hookCommand,
  type HookSettingsChange,
  mergeHookSettings,
} from "./hook_settings.ts";
import {
  entryRoots,
  pathsOf,
  rootsDelimiter,
  SERVER_NAME,
  type ServerCommand,
  serverCommand,
  serverEntry,
} from "./server_entry.ts";

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

Read a whole file only when you need most of it. \`jcodemunch_guide\` gives the full guide: which tool
answers which question, and every tool in one line.
`;

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
  /** The folders the server may index: those already allowed, then the new ones. */
  roots: string[];
  /** Of `roots`, the folders an entry init changes already allowed. */
  rootsKept: string[];
  /** The folders named now that were not allowed yet (inside a kept one counts as allowed). */
  rootsAdded: string[];
  changes: ConfigChange[];
  /** Folders to index. */
  index: string[];
  /** Policy files to create or extend. */
  policy: { file: string; status: "create" | "append" | "unchanged" }[];
  /** Claude Code's settings file and what `--hooks` does to it (null without `--hooks`). */
  hooks: { file: string; change: HookSettingsChange } | null;
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
  /** Add codemunch's Claude Code hooks to `~/.claude/settings.json`. @default false */
  hooks?: boolean;
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
  const { dirname, resolve } = pathsOf(os);
  const home = env("HOME") || env("USERPROFILE");
  return dirname(folder) === folder || (home !== undefined && resolve(home) === folder);
}

/** Work out everything `init` would do. Reads files through `io`; writes nothing. */
export function planInit(options: InitOptions, io: InitIo = DENO_IO): InitPlan {
  const { os } = options;
  const folders = _folders(options, io);
  const server = serverCommand(options.execPath, options.checkout, os);
  const configs = _readConfigs(options, io);
  const rootsKept = _unique(
    configs.flatMap((c) => c.servers === undefined ? [] : entryRoots(c.servers[SERVER_NAME], os)),
  );
  const { sep } = pathsOf(os);
  const rootsAdded = folders.filter((f) =>
    !rootsKept.some((r) => f === r || f.startsWith(r.endsWith(sep) ? r : r + sep))
  );
  const roots = [...rootsKept, ...rootsAdded];
  const changes = configs.map((c) =>
    _configChange(c, serverEntry(c.change.client, server, roots, os))
  );
  const claudeCode = changes.find((c) => c.client.id === "claude-code");
  return {
    os,
    server,
    roots,
    rootsKept,
    rootsAdded,
    changes,
    index: options.index ?? true ? folders : [],
    policy: options.policy ?? true ? _policyPlan(folders, changes, os, io) : [],
    hooks: options.hooks ? _hooksPlan(options, claudeCode, server, roots, io) : null,
  };
}

/** The folders named (or the working folder), absolute, checked. */
function _folders(options: InitOptions, io: InitIo): string[] {
  const { os, env } = options;
  const { isAbsolute, resolve } = pathsOf(os);
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
  return _unique(folders);
}

function _unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/** A client's config as read: the change so far, and its server list when it can be changed. */
interface _Config {
  change: ConfigChange;
  before: string | null;
  parsed?: Record<string, unknown>;
  servers?: Record<string, unknown>;
}

/** Every client's config file: skipped, unreadable, or read with its server list. */
function _readConfigs(options: InitOptions, io: InitIo): _Config[] {
  const wanted = new Set(options.clients ?? []);
  return clientConfigs(options.os, options.env).map((client) => {
    const named = wanted.has(client.id);
    const detected = named || io.exists(client.file) || io.exists(client.marker);
    const change: ConfigChange = { client, detected, status: "skip", kept: [] };
    if (!detected || (wanted.size > 0 && !named)) {
      change.reason = detected ? "not selected (--client)" : "not installed";
      return { change, before: null };
    }
    const before = io.readText(client.file);
    const parsed = _parseConfig(before);
    if (typeof parsed === "string") {
      return { change: { ...change, status: "error", reason: parsed }, before };
    }
    const list = parsed[client.key] ?? {};
    if (typeof list !== "object" || list === null || Array.isArray(list)) {
      change.status = "error";
      change.reason = `its "${client.key}" is not an object; add the entry by hand`;
      return { change, before };
    }
    return { change, before, parsed, servers: list as Record<string, unknown> };
  });
}

/** The change to one config: the codemunch entry added or brought up to date. */
function _configChange(c: _Config, entry: Record<string, unknown>): ConfigChange {
  const { change, servers, parsed } = c;
  if (servers === undefined || parsed === undefined) return change;
  change.kept = Object.keys(servers).filter((k) => k !== SERVER_NAME);
  const previous = servers[SERVER_NAME];
  if (previous !== undefined && JSON.stringify(previous) === JSON.stringify(entry)) {
    return { ...change, status: "unchanged" };
  }
  const key = change.client.key;
  const next = { ...parsed, [key]: { ...servers, [SERVER_NAME]: entry } };
  return {
    ...change,
    status: c.before === null ? "create" : previous === undefined ? "add" : "replace",
    text: JSON.stringify(next, null, 2) + "\n",
  };
}

/** The agent policy for each folder: CLAUDE.md when a Claude client is set up, else AGENTS.md. */
function _policyPlan(
  folders: readonly string[],
  changes: readonly ConfigChange[],
  os: OsName,
  io: InitIo,
): InitPlan["policy"] {
  const { join } = pathsOf(os);
  const claude = changes.some((c) =>
    (c.client.id === "claude-code" || c.client.id === "claude-desktop") && c.detected
  );
  const policy: InitPlan["policy"] = [];
  for (const f of folders) {
    const existing = ["CLAUDE.md", "AGENTS.md"].map((n) => join(f, n)).filter((p) => io.exists(p));
    if (existing.length === 0) {
      policy.push({ file: join(f, claude ? "CLAUDE.md" : "AGENTS.md"), status: "create" });
    }
    for (const file of existing) {
      const has = (io.readText(file) ?? "").includes(POLICY_MARKER);
      policy.push({ file, status: has ? "unchanged" : "append" });
    }
  }
  return policy;
}

/** `--hooks`: Claude Code's user settings with codemunch's hooks (Claude Code must be set up). */
function _hooksPlan(
  options: InitOptions,
  claudeCode: ConfigChange | undefined,
  server: ServerCommand,
  roots: readonly string[],
  io: InitIo,
): InitPlan["hooks"] {
  if (claudeCode === undefined || claudeCode.status === "skip") {
    throw new InitError(
      `--hooks adds Claude Code hooks, but Claude Code is ${
        claudeCode?.reason ?? "not known"
      }: add --client claude-code (or leave out --hooks)`,
    );
  }
  const { join } = pathsOf(options.os);
  const file = join(homeDir(options.env), ...CLAUDE_SETTINGS);
  const delimiter = rootsDelimiter(options.os);
  const change = mergeHookSettings(io.readText(file), {
    PreToolUse: hookCommand(server, roots, "PreToolUse", delimiter),
    PostToolUse: hookCommand(server, roots, "PostToolUse", delimiter),
  });
  return { file, change };
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
