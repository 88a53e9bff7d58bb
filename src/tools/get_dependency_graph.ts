/** `get_dependency_graph`: the file-level import graph around one file (API.md §2.4). */
import { z } from "zod";
import { IMPORT_GRAPH, type ImportDirection, neighbourhood } from "../query/import_graph.ts";
import { ToolError } from "../errors.ts";
import { openRepo, requireFile, type ToolContext, type ToolOutput } from "./context.ts";
import { clampInt, graphMeta } from "./graph_args.ts";

/** Tool name. */
export const name = "get_dependency_graph";

/** Tool description shown to agents. */
export const description =
  "Get the import graph around a file: the files it imports (direction imports, the default), the files importing it (importers), or both, up to depth hops (default 1, 1..3). Edges always point from the importing file to the imported one, each with the hop it was found at; nodes lists every file reached, the start included. Imports of libraries outside the repo are not edges. At most max_nodes files (default 200, 1..1000); then truncated with a hint.";

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (or a bare name that identifies one repo)"),
  file: z.string().describe("Repo-relative path exactly as indexed (see get_file_tree)"),
  direction: z.string().optional().describe("imports (default), importers or both"),
  depth: z.number().int().optional().describe("Hops to follow (default 1, clamped to 1..3)"),
  max_nodes: z.number().int().optional().describe(
    "Most files in the answer (default 200, clamped to 1..1000)",
  ),
  cross_repo: z.boolean().optional().describe(
    "Accepted for compatibility; other repos are not searched (named in _meta.warnings)",
  ),
});

/** Validated arguments. */
export type GetDependencyGraphArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

/** The neighbourhood of one file. */
export function handler(ctx: ToolContext, args: GetDependencyGraphArgs): ToolOutput {
  const warnings: string[] = [];
  const depth = clampInt("depth", args.depth, 1, 1, 3, warnings);
  const maxNodes = clampInt("max_nodes", args.max_nodes, 200, 1, 1000, warnings);
  const direction = (args.direction ?? "imports") as ImportDirection;
  if (!["imports", "importers", "both"].includes(direction)) {
    throw new ToolError(
      "invalid_argument",
      `Invalid argument "direction": expected imports, importers or both, got "${direction}"`,
    );
  }
  if (args.cross_repo === true) warnings.push("cross_repo is not supported: this repo only");
  const { repo, view } = openRepo(ctx, args.repo);
  requireFile(view, args.file);
  const around = neighbourhood(view.get(IMPORT_GRAPH), args.file, direction, depth, maxNodes);
  return {
    response: {
      repo,
      file: args.file,
      direction,
      depth,
      depth_reached: around.depthReached,
      node_count: around.nodes.length,
      edge_count: around.edges.length,
      nodes: around.nodes,
      edges: around.edges,
    },
    repo,
    meta: graphMeta(
      warnings,
      around.truncated,
      `More than ${maxNodes} files: lower depth, pick one direction, or raise max_nodes (up to 1000)`,
    ),
  };
}
