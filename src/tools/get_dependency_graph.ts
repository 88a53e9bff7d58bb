/** `get_dependency_graph`: the file-level import graph around one file (API.md §2.4). */
import { z } from "zod";
import { IMPORT_GRAPH, type ImportDirection, neighbourhood } from "../query/import_graph.ts";
import { ToolError } from "../errors.ts";
import { openRepo, requireFile, type ToolContext, type ToolOutput } from "./context.ts";
import { graphMeta, withWarnings } from "./graph_args.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, table } from "./define.ts";

const _description =
  "Get the import graph around a file: what it imports, what imports it, or both, up to depth hops. Edges point from the importing file to the imported one, with the hop they were found at; libraries outside the repo are not edges.";

const _args = {
  file: z.string().describe("Repo-relative path exactly as indexed (see get_file_tree)"),
  direction: z.string().optional().describe("imports (default), importers or both"),
  depth: z.number().int().min(1).max(3).optional().describe(
    "Hops to follow (default 1)",
  ),
  max_nodes: z.number().int().min(1).max(1000).optional().describe(
    "Most files in the answer (default 200)",
  ),
  cross_repo: z.boolean().optional().describe(
    "Accepted for compatibility; other repos are not searched (named in _meta.warnings)",
  ),
};

/** Validated arguments. */
export type GetDependencyGraphArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  file: z.string().describe("The file asked about"),
  direction: z.string().describe("imports, importers or both"),
  depth: z.number().int().describe("Hops asked for"),
  depth_reached: z.number().int().describe("Deepest hop found"),
  node_count: z.number().int().describe("Files reached, the start included"),
  edge_count: z.number().int().describe("Edges listed"),
  nodes: z.array(z.string()).describe("Every file reached, sorted"),
  edges: table("e", {
    from: z.string().describe("The importing file"),
    to: z.string().describe("The imported file"),
    depth: z.number().int().describe("Hop it was found at"),
  }, { intern: ["from", "to"] }).describe("Import edges, by hop"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

/** The neighbourhood of one file. */
export function handler(
  ctx: ToolContext,
  args: GetDependencyGraphArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const warnings: string[] = [];
  const depth = args.depth ?? 1;
  const maxNodes = args.max_nodes ?? 200;
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
      around.truncated,
      `More than ${maxNodes} files: lower depth, pick one direction, or raise max_nodes (up to 1000)`,
    ),
    ...withWarnings(warnings),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_dependency_graph",
  title: "Dependency graph",
  summary: "the import graph around a file (`imports`, `importers` or `both`, 1–3 hops)",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "dg2" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
