/**
 * The lines `codemunch serve` prints on stderr at start: where the index lives, which folders
 * may be indexed, and how to connect a client. MCP clients show stderr in their logs, so this is
 * also what a user finds there when something does not work.
 *
 * @module
 */
import { allowedRoots, describeAllowedRoots } from "../ingest/allowed_roots.ts";
import { defaultIndexDir } from "../store/index_dir.ts";

/** What the banner describes. */
export interface BannerInputs {
  version: string;
  env: (name: string) => string | undefined;
  cwd: string;
  /** stdin is a terminal: a person started the server by hand. */
  interactive: boolean;
}

/**
 * The banner text.
 *
 * @example
 * ```ts
 * import { match } from "node:assert/strict";
 * import { banner } from "./banner.ts";
 * const text = banner({
 *   version: "1.0.0",
 *   env: (n) => ({ HOME: "/home/u" })[n],
 *   cwd: "/",
 *   interactive: false,
 * });
 * match(text, /index: {3}\/home\/u\/\.code-index/);
 * match(text, /folders: none/);
 * ```
 */
export function banner(b: BannerInputs): string {
  let index: string;
  try {
    index = defaultIndexDir(b.env);
  } catch (e) {
    index = `unknown (${(e as Error).message})`;
  }
  const lines = [
    `codemunch ${b.version}: MCP server on stdio`,
    `  index:   ${index}`,
    `  folders: ${describeAllowedRoots(allowedRoots(b.env, b.cwd), b.cwd)}`,
    `  connect: \`codemunch init\` (from a checkout: \`deno task init\`) adds this server to Claude, Cursor, VS Code, Windsurf; README "Connect a client"`,
  ];
  if (b.interactive) {
    lines.push(
      "  This is an MCP server: it talks JSON-RPC on stdin/stdout to an MCP client, not to you. Press Ctrl-C to stop; try `codemunch --help` for the command line.",
    );
  }
  return lines.join("\n");
}
