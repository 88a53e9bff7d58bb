/**
 * Running README commands as a user would: through `sh`, with a PATH that has Node.js but no Deno
 * (the Quick start's machine), in a temporary home.
 */
import { delimiter, join } from "node:path";

/** The output of a command. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run a command with exactly this environment (and `stdin` as its input, if given). */
export async function run(
  args: string[],
  options: { env: Record<string, string>; cwd: string; stdin?: string },
): Promise<Ran> {
  const child = new Deno.Command(args[0]!, {
    args: args.slice(1),
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/**
 * Start a long-running command (a server), wait for `ready` on its stderr, then stop it with
 * SIGTERM. Returns what it printed.
 */
export async function runUntil(
  args: string[],
  ready: RegExp,
  options: { env: Record<string, string>; cwd: string },
): Promise<{ seen: boolean; stderr: string }> {
  const child = new Deno.Command(args[0]!, {
    args: args.slice(1),
    cwd: options.cwd,
    env: options.env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let stderr = "";
  let seen = false;
  const deadline = setTimeout(() => child.kill("SIGTERM"), 60_000);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      stderr += value;
      if (!seen && ready.test(stderr)) {
        seen = true;
        child.kill("SIGTERM");
      }
    }
  } finally {
    clearTimeout(deadline);
    await child.status;
  }
  return { seen, stderr };
}

function _isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * This machine's PATH without Deno: every folder holding a `deno` is left out, and `node`,
 * `npm` and `npx` (when they were only in such a folder) are linked into `bin`.
 */
export function pathWithoutDeno(bin: string): string {
  const dirs = (Deno.env.get("PATH") ?? "").split(delimiter).filter((d) => d !== "");
  const kept = dirs.filter((d) => !_isFile(join(d, "deno")) && !_isFile(join(d, "deno.exe")));
  Deno.mkdirSync(bin, { recursive: true });
  for (const tool of ["node", "npm", "npx"]) {
    if (kept.some((d) => _isFile(join(d, tool)))) continue;
    const found = dirs.map((d) => join(d, tool)).find(_isFile);
    if (found !== undefined) Deno.symlinkSync(found, join(bin, tool));
  }
  return [bin, ...kept].join(delimiter);
}

/** Whether a PATH has a `deno`. */
export function hasDeno(path: string): boolean {
  return path.split(delimiter).some((d) => _isFile(join(d, "deno")));
}

/** Whether `npx` runs with this PATH. */
export function npxWorks(path: string): boolean {
  try {
    return new Deno.Command("sh", {
      args: ["-c", "npx --version"],
      env: { PATH: path },
      clearEnv: true,
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

/** npm's cache folder of this machine (kept for the temporary home: npx finds its Deno there). */
export function npmCache(): string | null {
  try {
    const out = new Deno.Command("npm", { args: ["config", "get", "cache"], stderr: "null" })
      .outputSync();
    const dir = new TextDecoder().decode(out.stdout).trim();
    return out.success && dir !== "" ? dir : null;
  } catch {
    return null;
  }
}

/** Whether npm's npx cache holds a package at this version (so `npx` can run it offline). */
export function inNpxCache(cache: string | null, name: string, version: string): boolean {
  if (cache === null) return false;
  try {
    for (const e of Deno.readDirSync(join(cache, "_npx"))) {
      const manifest = join(cache, "_npx", e.name, "node_modules", name, "package.json");
      if (_isFile(manifest) && JSON.parse(Deno.readTextFileSync(manifest)).version === version) {
        return true;
      }
    }
  } catch { /* no npx cache */ }
  return false;
}

/** One word for `sh`, quoted unless plain; a leading `~/` stays unquoted so the shell expands it. */
export function shWord(word: string): string {
  if (word.startsWith("~/")) return `~/${shWord(word.slice(2))}`;
  return /^[\w@%+=:,./-]*$/.test(word) && word !== "" ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
