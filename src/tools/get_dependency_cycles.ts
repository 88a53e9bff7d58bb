/** `get_dependency_cycles`: every import cycle of a repo (API.md §2.8). */
import { z } from "zod";
import { IMPORT_CYCLES } from "../query/import_graph.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { clampInt, graphMeta } from "./graph_args.ts";

/** Tool name. */
export const name = "get_dependency_cycles";

/** Tool description shown to agents. */
export const description =
  "Find every import cycle among the repo's files: each strongly connected component of the file import graph with more than one file, largest first. `cycles` gives each cycle's number, its size and a shortest cycle path through its first file (a.py -> b.py -> a.py); `cycle_files` lists every member of each cycle. At most max_results cycles (default 100, 1..1000); cycle_count counts them all.";

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (or a bare name that identifies one repo)"),
  max_results: z.number().int().optional().describe(
    "Most cycles listed (default 100, clamped to 1..1000)",
  ),
});

/** Validated arguments. */
export type GetDependencyCyclesArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

/** The import cycles of a repo. */
export function handler(ctx: ToolContext, args: GetDependencyCyclesArgs): ToolOutput {
  const warnings: string[] = [];
  const max = clampInt("max_results", args.max_results, 100, 1, 1000, warnings);
  const { repo, view } = openRepo(ctx, args.repo);
  const all = view.get(IMPORT_CYCLES);
  const shown = all.slice(0, max);
  const cycles = shown.map((c, i) => ({
    cycle: i + 1,
    length: c.files.length,
    path: c.path.join(" -> "),
  }));
  const cycleFiles = shown.flatMap((c, i) => c.files.map((file) => ({ cycle: i + 1, file })));
  return {
    response: { repo, cycle_count: all.length, cycles, cycle_files: cycleFiles },
    repo,
    meta: graphMeta(
      warnings,
      all.length > shown.length,
      `Showing ${shown.length} of ${all.length} cycles: raise max_results (up to 1000)`,
    ),
  };
}
