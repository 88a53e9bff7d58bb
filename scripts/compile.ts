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

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Files and folders the binary must embed (loaded at run time, not imported). */
export async function compileIncludes(root = ROOT): Promise<string[]> {
  const includes = [
    "node_modules/tree-sitter-wasms/out",
    "node_modules/web-tree-sitter",
    "src/parser/worker.ts",
    "src/query/text_search_worker.ts",
  ];
  // Grammars published outside tree-sitter-wasms (see src/parser/LANGUAGES.md).
  try {
    for await (const e of Deno.readDir(`${root}/node_modules/@tree-sitter-grammars`)) {
      if (e.isDirectory || e.isSymlink) {
        includes.push(`node_modules/@tree-sitter-grammars/${e.name}`);
      }
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
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
