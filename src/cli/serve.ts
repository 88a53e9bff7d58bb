/**
 * `codemunch serve` over stdio, the default command. It is on the start-up path (a client waits
 * for the tool list), so it loads only the stdio server, which answers `initialize` and
 * `tools/list` from data; the composition root, the runner and the banner's helpers load by a
 * computed specifier while the client's first messages are answered.
 *
 * @module
 */
import type { Environment } from "../server/compose.ts";
import { SERVER_INFO, serveStdio } from "../server/stdio.ts";
import { readConfigFile, toolVisibilityFrom } from "../server/tool_profile.ts";
import { defaultIndexDir } from "../store/index_dir.ts";
import { type Invocation, UsageError } from "./args.ts";
import { load } from "./lazy.ts";

/** `serve` (stdio), or `serve --http` (loaded when asked for). */
export async function serveCommand(inv: Invocation, environment: Environment): Promise<number> {
  if (inv.positional.length > 0) throw new UsageError(`"serve" takes no arguments`);
  if (inv.flags.has("http")) {
    return (await load("src/cli/serve_commands.ts")).serveHttpCommand(inv, environment);
  }
  if (inv.flags.has("host") || inv.flags.has("port")) {
    throw new UsageError(`"--host" and "--port" go with "serve --http"`);
  }
  // The tool list is filtered before the runner (and the composition root) is loaded.
  const env = (name: string) => environment.env(name);
  const tools = toolVisibilityFrom(env, readConfigFile(defaultIndexDir(env)));
  const serving = serveStdio({
    tools,
    deps: async () => {
      const compose = await load("src/server/compose.ts");
      const settings = compose.readSettings(environment);
      return compose.runnerDeps(settings, environment, { watch: true });
    },
  });
  const shown = load("src/cli/banner.ts").then(({ banner }) => {
    console.error(banner({
      version: SERVER_INFO.version,
      env: (n) => environment.env(n),
      cwd: environment.cwd,
      interactive: environment.interactive,
    }));
  }).catch(() => {/* the banner is a courtesy */});
  await Promise.all([serving, shown]);
  return 0;
}
