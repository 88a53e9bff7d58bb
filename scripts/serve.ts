/**
 * Launcher for `deno task start` and `deno task cli`: runs `main.ts` (the MCP server, or a CLI
 * command) in a child Deno process with narrow permissions, computed from the environment:
 *
 * - read: the allowed roots (`CODEMUNCH_ALLOWED_ROOTS`, a path list; unset: the folder it was
 *   started in, or none when that is a filesystem root or the home directory — see
 *   src/ingest/allowed_roots.ts), the index directory, and this checkout (source, grammars);
 * - write: the index directory only (`CODE_INDEX_PATH`, default `~/.code-index`);
 * - net: the GitHub API host (`GITHUB_API_URL`, default `api.github.com`) and the host it
 *   redirects archive downloads to (`codeload.github.com`; an Enterprise server serves them
 *   itself), plus the AI summarizer's host when one is configured (see `netHosts`);
 * - env: only the variables codemunch reads.
 *
 * `codemunch init` and `codemunch install-command` are the exceptions ({@linkcode WRITING_COMMANDS}):
 * they write client configs or a script on PATH, so they run with read, write and env access
 * (they show what they will write first).
 *
 * Once the npm packages are installed (`node_modules/.deno` newer than `deno.lock`), the child
 * runs `--cached-only`: start-up never touches the network (Deno would otherwise re-fetch npm
 * metadata it does not keep, printing "Download …" on every launch).
 *
 * Under `deno task` (which runs tasks in the checkout), the folder the user typed the command in
 * (`INIT_CWD`) is the working directory: `deno task --config ~/codemunch/deno.json cli index .`
 * indexes the user's folder, not the checkout.
 *
 * The launcher itself needs `--allow-read --allow-env --allow-run`; the server never gets them.
 */
import { delimiter, join, resolve } from "node:path";
import { defaultIndexDir } from "../src/store/index_dir.ts";
import { allowedRoots } from "../src/ingest/allowed_roots.ts";
import { githubHosts } from "../src/ingest/github_config.ts";
import { summarizerHost, summarizerSettingsFromEnv } from "../src/summarize/config.ts";
import { embeddingHost, embeddingModelDir, embeddingSettingsFromEnv } from "../src/embed/config.ts";

// The launcher starts before the server does, so it stays small: node:path and two import-free
// modules only (not src/store/paths.ts, whose node:crypto import alone
// costs ~35 ms of start-up).

/** Environment variables the server may read (trailing `*` matches a prefix). */
export const SERVER_ENV = [
  "HOME",
  "USERPROFILE",
  "CODE_INDEX_PATH",
  "CODEMUNCH_*",
  "JCODEMUNCH_*",
  "GITHUB_TOKEN",
  "GITHUB_API_URL",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_BASE_URL",
  "ANTHROPIC_MODEL",
  "GOOGLE_API_KEY",
  "GOOGLE_MODEL",
  "GOOGLE_BASE_URL",
  "OPENAI_API_BASE",
  "OPENAI_API_KEY",
  "OPENAI_MODEL",
  "OPENAI_BASE_URL",
  "OPENAI_EMBED_MODEL",
  "GOOGLE_EMBED_MODEL",
  "GEMINI_EMBED_TASK_AWARE",
];

/**
 * The hosts the server may call: the GitHub API host and its archive host
 * (`api.github.com,codeload.github.com` by default; the Enterprise host alone when
 * `GITHUB_API_URL` points at one), and the configured AI summarizer's and embedding provider's
 * hosts, if any.
 */
export function netHosts(env: (name: string) => string | undefined): string[] {
  let api = "https://api.github.com";
  const configured = env("GITHUB_API_URL")?.trim();
  if (configured) {
    try {
      new URL(configured);
      api = configured;
    } catch { /* not a URL: the server reports it when index_repo runs */ }
  }
  const hosts = githubHosts(api);
  try {
    const host = summarizerHost(summarizerSettingsFromEnv(env));
    if (host !== null) hosts.push(host);
  } catch { /* bad summarizer settings: the server reports them */ }
  try {
    const host = embeddingHost(embeddingSettingsFromEnv(env, defaultIndexDir(env)));
    if (host !== null) hosts.push(host);
  } catch { /* bad embedding settings: the server reports them */ }
  return [...new Set(hosts)];
}

/** What the permission flags are computed from. */
export interface PermissionInputs {
  /** Folders that may be indexed (empty: none). */
  roots: string[];
  /** The index directory. */
  indexDir: string;
  /** The codemunch checkout (read-only: source and grammar `.wasm` files). */
  checkout: string;
  /** Hosts the server may call. */
  hosts: string[];
  /** A local embedding model's folder (read-only), when configured. */
  models?: string[];
}

/** The inputs for the current environment (see the module doc for defaults). */
export function permissionInputs(
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
  cwd: string = Deno.cwd(),
): PermissionInputs {
  const roots = allowedRoots(env, cwd).roots;
  const hosts = netHosts(env);
  // A local embedding model outside the index directory is read too.
  let model: string | null = null;
  try {
    model = embeddingModelDir(embeddingSettingsFromEnv(env, defaultIndexDir(env)));
  } catch { /* bad embedding settings: the server reports them */ }
  return {
    roots,
    ...(model === null ? {} : { models: [resolve(cwd, model)] }),
    indexDir: resolve(cwd, defaultIndexDir(env)),
    checkout: resolve(import.meta.dirname!, ".."),
    hosts,
  };
}

/**
 * V8 flags the server runs with (the launcher's child, and the compiled binary, which bakes them
 * in). The main thread's young generation is capped at 8 MB semi-spaces: left alone V8 grows it
 * to 32 MB semi-spaces while a large index is built and keeps it. `deno task bench index` on the
 * Go standard library, two runs of 2 rounds each, in turns: VmHWM at the end of the index 530-537
 * MB with 16 MB semi-spaces, 483-498 MB with 8 MB, the same CPU time (21.4-21.7 s); V8's defaults
 * gave 523-535 MB in an earlier comparison. It can only be set before the process starts
 * (`node:v8`'s `setFlagsFromString` comes too late); the parser workers get theirs through
 * `resourceLimits` (src/parser/pool.ts).
 */
export const SERVER_V8_FLAGS = "--v8-flags=--max-semi-space-size=8,--expose-gc";

/**
 * Environment the server's process starts with besides its own variables: glibc's malloc keeps
 * at most two arenas (`MALLOC_ARENA_MAX=2`; a variable the user set wins). By default each
 * thread that allocates gets its own arena — the main thread, each parser worker, SQLite's — and
 * memory freed in an arena stays mapped: after a full index of the Go standard library the
 * stopped parser workers' arenas still held ~110 MB. `deno task bench memory --breakdown`, one
 * run each: RSS with the parser pool closed 246 -> 137 MB, idle after the first queries 303 ->
 * 249 MB, peak 498 -> 424 MB. Like the V8 flags, it only works when set before the process
 * starts (the compiled binary cannot carry it; other C libraries ignore it).
 */
export const SERVER_PROCESS_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: "2" };

/** The environment the launcher adds for its child: the resolved roots, `SERVER_PROCESS_ENV`. */
export function childEnv(
  inputs: PermissionInputs,
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
): Record<string, string> {
  const out: Record<string, string> = {};
  // The roots are passed on resolved (the child computes the same empty list when none).
  if (inputs.roots.length > 0) out.CODEMUNCH_ALLOWED_ROOTS = inputs.roots.join(delimiter);
  for (const [name, value] of Object.entries(SERVER_PROCESS_ENV)) {
    if (env(name) === undefined) out[name] = value;
  }
  return out;
}

/** The `deno run` permission flags for the server. */
export function permissionFlags(p: PermissionInputs): string[] {
  const list = (items: string[]) => [...new Set(items)].join(",");
  return [
    `--allow-read=${list([...p.roots, p.indexDir, p.checkout, ...(p.models ?? [])])}`,
    `--allow-write=${list([p.indexDir])}`,
    `--allow-net=${list(p.hosts)}`,
    `--allow-env=${list(SERVER_ENV)}`,
    "--no-prompt",
  ];
}

/** True when the npm packages are installed and current: the child may run `--cached-only`. */
export function packagesInstalled(checkout: string): boolean {
  try {
    const installed = Deno.statSync(join(checkout, "node_modules", ".deno")).mtime;
    const lock = Deno.statSync(join(checkout, "deno.lock")).mtime;
    return installed !== null && lock !== null && installed >= lock;
  } catch {
    return false;
  }
}

/**
 * The commands that write outside the index, after showing what they will write: `init` (client
 * configs, Claude Code's settings, agent policies) and `install-command` (the `codemunch` script).
 */
export const WRITING_COMMANDS: readonly string[] = ["init", "install-command"];

/**
 * `codemunch download-model` fetches a model from its public host, which redirects to content
 * hosts of its own choosing (Hugging Face: a CDN per region and storage backend): it may reach any
 * host, and writes only into the index directory (`<index>/models/`).
 */
export const DOWNLOAD_COMMAND = "download-model";

/** The permission flags of {@linkcode DOWNLOAD_COMMAND}. */
export function downloadFlags(p: PermissionInputs): string[] {
  return [
    `--allow-read=${[p.indexDir, p.checkout].join(",")}`,
    `--allow-write=${p.indexDir}`,
    "--allow-net",
    `--allow-env=${SERVER_ENV.join(",")}`,
    "--no-prompt",
  ];
}

/** The `deno run` arguments of the child for these command-line arguments. */
export function childArgs(inputs: PermissionInputs, args: readonly string[]): string[] {
  const command = args.find((a) => !a.startsWith("-"));
  const flags = WRITING_COMMANDS.includes(command ?? "")
    ? ["--allow-read", "--allow-write", "--allow-env", "--no-prompt"]
    : command === DOWNLOAD_COMMAND
    ? downloadFlags(inputs)
    : permissionFlags(inputs);
  if (packagesInstalled(inputs.checkout)) flags.push("--cached-only");
  return [
    "run",
    ...flags,
    SERVER_V8_FLAGS,
    resolve(inputs.checkout, "main.ts"),
    ...(args.length ? args : ["serve"]),
  ];
}

/**
 * The address `serve --http [--host H] [--port P]` listens on (for `--allow-net`), or null for
 * the stdio server.
 */
export function httpListenAddress(args: readonly string[]): string | null {
  if (!args.includes("--http")) return null;
  const value = (name: string) => {
    const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (i === -1) return undefined;
    const a = args[i]!;
    return a.includes("=") ? a.slice(a.indexOf("=") + 1) : args[i + 1];
  };
  const host = value("host") ?? "127.0.0.1";
  const port = value("port") ?? "8901";
  const name = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return port === "0" ? name : `${name}:${port}`;
}

if (import.meta.main) {
  const cwd = Deno.env.get("INIT_CWD") || Deno.cwd();
  const inputs = permissionInputs((n) => Deno.env.get(n), cwd);
  const listen = httpListenAddress(Deno.args);
  if (listen !== null) inputs.hosts.push(listen);
  // The launcher runs without write access (see the module doc); the server creates the
  // index directory on its first write, so create it here only when allowed to.
  if (Deno.permissions.querySync({ name: "write", path: inputs.indexDir }).state === "granted") {
    Deno.mkdirSync(inputs.indexDir, { recursive: true });
  }
  const child = new Deno.Command(Deno.execPath(), {
    args: childArgs(inputs, Deno.args),
    env: childEnv(inputs),
    cwd,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  // Stopping the launcher stops the server (a service manager or a test signals the launcher).
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => {
      try {
        child.kill(signal);
      } catch { /* already gone */ }
    });
  }
  const status = await child.status;
  Deno.exit(status.code);
}
