/**
 * Launcher for `deno task start`: runs the MCP server (`main.ts serve`) in a child Deno process
 * with narrow permissions, computed from the environment:
 *
 * - read: the allowed roots (`CODEMUNCH_ALLOWED_ROOTS`, a path list; default: the current
 *   directory), the index directory, and this checkout (source and grammar files);
 * - write: the index directory only (`CODE_INDEX_PATH`, default `~/.code-index`);
 * - net: the GitHub API host (and an AI summarizer host when one is configured);
 * - env: only the variables codemunch reads.
 *
 * The launcher itself needs `--allow-read --allow-env --allow-run`; the server never gets them.
 */
import { delimiter, resolve } from "node:path";
import { defaultIndexDir, expandHome } from "../src/store/index_dir.ts";

// The launcher starts before the server does, so it stays small: node:path and the index
// directory's import-free module only (not src/store/paths.ts, whose node:crypto import alone
// costs ~35 ms of start-up).

/** Environment variables the server may read (trailing `*` matches a prefix). */
export const SERVER_ENV = [
  "HOME",
  "USERPROFILE",
  "CODE_INDEX_PATH",
  "CODEMUNCH_*",
  "JCODEMUNCH_*",
  "GITHUB_TOKEN",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_BASE_URL",
  "ANTHROPIC_MODEL",
  "OPENAI_API_BASE",
  "OPENAI_API_KEY",
  "OPENAI_MODEL",
];

/** What the permission flags are computed from. */
export interface PermissionInputs {
  /** Folders that may be indexed. */
  roots: string[];
  /** The index directory. */
  indexDir: string;
  /** The codemunch checkout (read-only: source and grammar `.wasm` files). */
  checkout: string;
  /** Hosts the server may call. */
  hosts: string[];
}

/** The inputs for the current environment (see the module doc for defaults). */
export function permissionInputs(
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
  cwd: string = Deno.cwd(),
): PermissionInputs {
  const rootsText = env("CODEMUNCH_ALLOWED_ROOTS");
  const roots = rootsText === undefined || rootsText.trim() === ""
    ? [cwd]
    : rootsText.split(delimiter).filter((r) => r.trim() !== "").map((r) =>
      resolve(cwd, expandHome(r.trim(), env))
    );
  const hosts = ["api.github.com"];
  for (const name of ["ANTHROPIC_BASE_URL", "OPENAI_API_BASE"]) {
    const url = env(name);
    if (url) {
      try {
        hosts.push(new URL(url).host);
      } catch { /* not a URL: the summarizer reports it */ }
    }
  }
  return {
    roots,
    indexDir: resolve(cwd, defaultIndexDir(env)),
    checkout: resolve(import.meta.dirname!, ".."),
    hosts,
  };
}

/** The `deno run` permission flags for the server. */
export function permissionFlags(p: PermissionInputs): string[] {
  const list = (items: string[]) => [...new Set(items)].join(",");
  return [
    `--allow-read=${list([...p.roots, p.indexDir, p.checkout])}`,
    `--allow-write=${list([p.indexDir])}`,
    `--allow-net=${list(p.hosts)}`,
    `--allow-env=${list(SERVER_ENV)}`,
    "--no-prompt",
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
  const inputs = permissionInputs();
  const listen = httpListenAddress(Deno.args);
  if (listen !== null) inputs.hosts.push(listen);
  // The launcher runs without write access (see the module doc); the server creates the
  // index directory on its first write, so create it here only when allowed to.
  if (Deno.permissions.querySync({ name: "write", path: inputs.indexDir }).state === "granted") {
    Deno.mkdirSync(inputs.indexDir, { recursive: true });
  }
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...permissionFlags(inputs),
      resolve(inputs.checkout, "main.ts"),
      ...(Deno.args.length ? Deno.args : ["serve"]),
    ],
    env: { CODEMUNCH_ALLOWED_ROOTS: inputs.roots.join(delimiter) },
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
