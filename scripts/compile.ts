/**
 * `deno task compile [--target TRIPLE|native] [--output PATH]`: build the self-contained
 * `codemunch` binary with `deno compile`, grammars and the parser worker embedded. Without
 * `--target`, it builds all five {@linkcode TARGETS} into `dist/codemunch-<target>[.exe]`;
 * `--target native` builds for this machine into `dist/codemunch`.
 *
 * Permissions are fixed at compile time: read (the folders a user indexes are chosen at run time;
 * `CODEMUNCH_ALLOWED_ROOTS` limits them inside the server), write (the index directory is chosen
 * at run time), env, and net only to the hosts `netHosts` (scripts/serve.ts) computes from the
 * build's environment: the GitHub API host and its archive host (`api.github.com` and
 * `codeload.github.com`, or the `GITHUB_API_URL` Enterprise host), and the AI summarizer's host
 * when one is configured — no subprocesses, FFI or system info.
 *
 * `deno compile` needs Deno's `denort` runtime for the target. It downloads it from Deno's
 * servers, or takes it from `DENORT_BIN` (a path to a `denort` binary of the same Deno version),
 * which is how it runs where those servers cannot be reached.
 */
import { fileURLToPath } from "node:url";
import { parseFlags } from "./bench_util.ts";
import { netHosts, SERVER_V8_FLAGS } from "./serve.ts";
import { grammarModules } from "../src/parser/registry.ts";
import { EXTRACTOR_MODULES } from "../src/parser/extractors/mod.ts";
import { LAZY_MODULES } from "../main.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The import-map prefix of the grammars we build (`deno.json`: `"codemunch-grammars/"`). */
const VENDORED_GRAMMARS = "codemunch-grammars/";

/**
 * Files and folders the binary must embed (loaded at run time, not imported): the workers, the
 * modules main.ts loads by a computed specifier ({@linkcode LAZY_MODULES}), the grammars.
 */
export function compileIncludes(root = ROOT): string[] {
  const includes = [
    "node_modules/web-tree-sitter",
    "src/parser/worker.ts",
    "src/query/text_search_worker.ts",
    "src/query/ast_worker.ts",
    "src/server/watch_worker.ts",
    ...LAZY_MODULES,
    // The extractors the parser loads by a computed specifier, with their npm parsers.
    ...EXTRACTOR_MODULES,
  ];
  // Each grammar the registry names, and only those (see src/parser/LANGUAGES.md): a bare
  // specifier `pkg/path.wasm` is the file `node_modules/pkg/path.wasm`, and one of ours
  // (`codemunch-grammars/x.wasm`, built by scripts/build_grammars.sh) is `grammars/x.wasm`.
  for (const specifier of grammarModules()) {
    const path = specifier.startsWith(VENDORED_GRAMMARS)
      ? `grammars/${specifier.slice(VENDORED_GRAMMARS.length)}`
      : `node_modules/${specifier}`;
    Deno.statSync(`${root}/${path}`);
    includes.push(path);
  }
  return includes.sort();
}

/** The `deno compile` arguments for one build. */
export async function compileArgs(
  output: string,
  target?: string,
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
): Promise<string[]> {
  const args = [
    "compile",
    "--frozen",
    "--no-prompt",
    "--allow-read",
    "--allow-write",
    "--allow-env",
    `--allow-net=${netHosts(env).join(",")}`,
    SERVER_V8_FLAGS,
    "--output",
    output,
  ];
  for (const inc of await compileIncludes()) args.push("--include", inc);
  if (target) args.push("--target", target);
  args.push("main.ts");
  return args;
}

/** The release targets. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/** The default output path of a target's binary. */
export function outputFor(target: string): string {
  return `dist/codemunch-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/** The builds `main` runs for these flags: [output, target or undefined for native]. */
export function builds(flags: Map<string, string>): [string, string | undefined][] {
  const target = flags.get("target");
  if (target === "native") return [[flags.get("output") ?? "dist/codemunch", undefined]];
  if (target !== undefined) return [[flags.get("output") ?? outputFor(target), target]];
  if (flags.has("output")) throw new Error("--output needs --target (one binary per target)");
  return TARGETS.map((t) => [outputFor(t), t]);
}

export async function main(args: string[]): Promise<number> {
  const flags = parseFlags(args);
  let plan: [string, string | undefined][];
  try {
    plan = builds(flags);
  } catch (e) {
    console.error(`compile: ${(e as Error).message}`);
    return 2;
  }
  for (const [output, target] of plan) {
    const cmdArgs = await compileArgs(output, target);
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
          `binary of Deno ${Deno.version.deno} when Deno's download servers cannot be reached ` +
          "(DENORT_BIN serves only the target of that binary).",
      );
      return code;
    }
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
