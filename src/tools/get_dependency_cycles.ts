/** `get_dependency_cycles`: every import cycle of a repo (API.md §2.8). */
import { z } from "zod";
import { IMPORT_CYCLES } from "../query/import_graph.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { graphMeta } from "./graph_args.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, table } from "./define.ts";

const _description =
  "Find the import cycles among the repo's files (strongly connected components of the import graph), largest first, each with its files and a shortest cycle path (a.py -> b.py -> a.py).";

const _args = {
  max_results: z.number().int().min(1).max(1000).optional().describe(
    "Most cycles listed (default 100)",
  ),
};

/** Validated arguments. */
export type GetDependencyCyclesArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  cycle_count: z.number().int().describe("Import cycles found (all of them)"),
  cycles: table("y", {
    cycle: z.number().int().describe("Cycle number, largest first"),
    length: z.number().int().describe("Files in it"),
    path: z.string().describe("A shortest cycle through its first file: a.py -> b.py -> a.py"),
  }).describe("One row per cycle"),
  cycle_files: table("f", {
    cycle: z.number().int().describe("Cycle number"),
    file: z.string().describe("A member file"),
  }, { intern: ["file"] }).describe("Every member of each cycle listed"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

/** The import cycles of a repo. */
export function handler(
  ctx: ToolContext,
  args: GetDependencyCyclesArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const max = args.max_results ?? 100;
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
      all.length > shown.length,
      `Showing ${shown.length} of ${all.length} cycles: raise max_results (up to 1000)`,
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_dependency_cycles",
  title: "Import cycles",
  summary: "every import cycle (strongly connected components) with a shortest cycle path",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "dc3" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
