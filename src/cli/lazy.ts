/**
 * The modules the command line loads when a command needs them. Their specifiers are computed on
 * purpose: before the first line runs, `deno run` walks every import it can read in the source, a
 * dynamic `import("./x.ts")` included, and walking the server's whole graph (~350 modules) took
 * 100 of the 150 ms a client waited for the tool list. `deno compile` embeds them with `--include`
 * (`scripts/compile.ts` reads {@linkcode LAZY_MODULES}); `tests/arch/startup_graph_test.ts`
 * checks that none of them is in the start-up graph.
 *
 * @module
 */

/** Paths from the checkout of the modules loaded by {@linkcode load}. */
export const LAZY_MODULES = [
  "src/cli/banner.ts",
  "src/cli/command_shim.ts",
  "src/cli/download_model.ts",
  "src/cli/hooks.ts",
  "src/cli/init_command.ts",
  "src/cli/serve_commands.ts",
  "src/cli/tool_commands.ts",
  "src/query/names.ts",
  "src/server/compose.ts",
  "src/server/runner.ts",
] as const satisfies readonly (keyof _Lazy)[];

/** One of {@linkcode LAZY_MODULES}. */
export type LazyModule = (typeof LAZY_MODULES)[number];

/** The type of each lazy module (types only: nothing is walked for them). */
interface _Lazy {
  "src/cli/banner.ts": typeof import("./banner.ts");
  "src/cli/command_shim.ts": typeof import("./command_shim.ts");
  "src/cli/download_model.ts": typeof import("./download_model.ts");
  "src/cli/hooks.ts": typeof import("./hooks.ts");
  "src/cli/init_command.ts": typeof import("./init_command.ts");
  "src/cli/serve_commands.ts": typeof import("./serve_commands.ts");
  "src/cli/tool_commands.ts": typeof import("./tool_commands.ts");
  "src/query/names.ts": typeof import("../query/names.ts");
  "src/server/compose.ts": typeof import("../server/compose.ts");
  "src/server/runner.ts": typeof import("../server/runner.ts");
}

/**
 * Import one of {@linkcode LAZY_MODULES} by a computed specifier (only a listed module
 * type-checks: what is loaded is what the binary embeds).
 */
export function load<P extends LazyModule>(path: P): Promise<_Lazy[P]> {
  return import(new URL(`../../${path}`, import.meta.url).href);
}
