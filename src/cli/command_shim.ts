/**
 * `codemunch install-command`: a `codemunch` command on the user's PATH that works where no
 * `deno` is on PATH (the npx path of the Quick start). It is a small script that runs this
 * checkout's launcher with the absolute path of the Deno running now — the same command the client
 * configs hold — or the compiled binary. `deno install` cannot do this: the script it writes runs
 * `deno` from PATH, which fails with `exec: deno: not found` after `npx -y deno@… task …`.
 *
 * Pure apart from {@linkcode installCommand}'s file writes: the script text, where it goes and
 * what is said are computed from the environment.
 *
 * @module
 */
import { posix, win32 } from "node:path";
import type { Environment } from "../server/compose.ts";
import { expectPositional, type Invocation, UsageError } from "./args.ts";
import { type ServerCommand, serverCommand } from "./server_entry.ts";

/** Marks a script as ours, so that running install-command again may replace it. */
export const SHIM_MARKER = "written by `codemunch install-command`";

/** Where the script goes by default: `~/.local/bin` (the XDG user bin folder). */
export function defaultCommandDir(environment: Environment): string {
  const home = environment.env("HOME") || environment.env("USERPROFILE");
  if (!home) throw new UsageError("Cannot find your home folder: pass --dir <folder>");
  const { join } = environment.os === "windows" ? win32 : posix;
  return join(home, ".local", "bin");
}

/** The script's file name and text for this server command. */
export function commandScript(
  server: ServerCommand,
  os: Environment["os"],
): { name: string; text: string } {
  const args = server.args.at(-1) === "serve" ? server.args.slice(0, -1) : server.args;
  if (os === "windows") {
    const words = [server.command, ...args].map((w) => `"${w}"`).join(" ");
    return {
      name: "codemunch.cmd",
      text: `@echo off\r\nrem The codemunch command, ${SHIM_MARKER}.\r\n${words} %*\r\n`,
    };
  }
  const quote = (w: string) => `'${w.replaceAll("'", `'\\''`)}'`;
  return {
    name: "codemunch",
    text: [
      "#!/bin/sh",
      `# The codemunch command, ${SHIM_MARKER}: it runs with this Deno`,
      "# and checkout even where no deno is on PATH. Run install-command again after moving them.",
      `exec ${[server.command, ...args].map(quote).join(" ")} "$@"`,
      "",
    ].join("\n"),
  };
}

/** Whether `dir` is one of the folders of a PATH value. */
export function onPath(dir: string, path: string | undefined, os: Environment["os"]): boolean {
  const { resolve } = os === "windows" ? win32 : posix;
  const sep = os === "windows" ? ";" : ":";
  return (path ?? "").split(sep).filter((p) => p !== "").some((p) => resolve(p) === resolve(dir));
}

/** `install-command [--dir D] [--force] [--dry-run]`. */
export function installCommand(inv: Invocation, environment: Environment): number {
  expectPositional(inv, 0, "no arguments (the folder is --dir)");
  const { join } = environment.os === "windows" ? win32 : posix;
  const dir = inv.flags.get("dir") ?? defaultCommandDir(environment);
  const server = serverCommand(environment.execPath, environment.checkout, environment.os);
  const script = commandScript(server, environment.os);
  const file = join(dir, script.name);
  let existing: string | null = null;
  try {
    existing = Deno.readTextFileSync(file);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const ours = existing === null || existing.includes(SHIM_MARKER);
  if (!ours && !inv.flags.has("force")) {
    throw new UsageError(
      `${file} exists and is not one codemunch wrote: pass --force to replace it`,
    );
  }
  console.log(`${file} runs: ${[server.command, ...server.args.slice(0, -1)].join(" ")}`);
  if (inv.flags.has("dry-run")) {
    console.log("Dry run: nothing was written.");
    return 0;
  }
  if (existing === script.text) console.log("Already up to date.");
  else {
    Deno.mkdirSync(dir, { recursive: true });
    Deno.writeTextFileSync(`${file}.codemunch-tmp`, script.text, { mode: 0o755 });
    Deno.renameSync(`${file}.codemunch-tmp`, file);
    console.log(existing === null ? `Wrote ${file}.` : `Updated ${file}.`);
  }
  if (onPath(dir, environment.env("PATH"), environment.os)) {
    console.log("Try: codemunch --help");
  } else {
    console.log(
      environment.os === "windows"
        ? `${dir} is not on your PATH: add it (Settings → Environment variables), then open a new terminal.`
        : `${dir} is not on your PATH: add  export PATH="${dir}:$PATH"  to your shell's profile, then open a new terminal.`,
    );
  }
  return 0;
}
