/**
 * `deno task compile [--target TRIPLE] [--output PATH]`: build the self-contained `codemunch`
 * binary with `deno compile`, grammars and the parser worker embedded.
 *
 * Permissions are fixed at compile time: read (the folders a user indexes are chosen at run time;
 * `CODEMUNCH_ALLOWED_ROOTS` limits them inside the server), write (the index directory is chosen
 * at run time), env, and net to the GitHub API only — no subprocesses, FFI or system info.
 *
 * `deno compile` needs Deno's `denort` runtime for the target. It downloads it from Deno's
 * servers, or takes it from `DENORT_BIN` (a path to a `denort` binary of the same Deno version),
 * which is how it runs where those servers cannot be reached.
 */
import { fileURLToPath } from "node:url";
import { parseFlags } from "./bench_util.ts";
import { grammarModules } from "../src/parser/registry.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Files and folders the binary must embed (loaded at run time, not imported). */
export function compileIncludes(root = ROOT): string[] {
  const includes = ["node_modules/web-tree-sitter", "src/parser/worker.ts"];
  // Each grammar the registry names, and only those (see src/parser/LANGUAGES.md): a bare
  // specifier `pkg/path.wasm` is the file `node_modules/pkg/path.wasm`.
  for (const specifier of grammarModules()) {
    const path = `node_modules/${specifier}`;
    Deno.statSync(`${root}/${path}`);
    includes.push(path);
  }
  return includes.sort();
}

/** The `deno compile` arguments for one build. */
export async function compileArgs(output: string, target?: string): Promise<string[]> {
  const args = [
    "compile",
    "--frozen",
    "--no-prompt",
    "--allow-read",
    "--allow-write",
    "--allow-env",
    "--allow-net=api.github.com",
    "--output",
    output,
  ];
  for (const inc of await compileIncludes()) args.push("--include", inc);
  if (target) args.push("--target", target);
  args.push("main.ts");
  return args;
}

export async function main(args: string[]): Promise<number> {
  const flags = parseFlags(args);
  const output = flags.get("output") ?? "dist/codemunch";
  const cmdArgs = await compileArgs(output, flags.get("target"));
  console.error(`compile: deno ${cmdArgs.join(" ")}`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: cmdArgs,
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) {
    console.error(
      "compile: deno compile failed. It needs the denort runtime: set DENORT_BIN to a denort " +
        `binary of Deno ${Deno.version.deno} when Deno's download servers cannot be reached.`,
    );
  }
  return code;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
