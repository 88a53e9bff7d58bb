/** `find_importers`: the files that import a file, following re-exports (API.md §2.2). */
import { z } from "zod";
import { IMPORT_GRAPH, type ImportGraph } from "../query/import_graph.ts";
import { ToolError } from "../errors.ts";
import { openRepo, requireFile, type ToolContext, type ToolOutput } from "./context.ts";
import { squareRows } from "./rows.ts";
import type { RepoView } from "../query/view.ts";
import { clampInt, graphMeta, oneOf } from "./graph_args.ts";

/** Tool name. */
export const name = "find_importers";

/** Tool description shown to agents. */
export const description =
  "Find the files that import a file: one row per importing file with the specifier it wrote, the names it imports, and how it reaches the file — directly (hops 1) or through re-exports (an index.ts barrel, an __init__.py, `export … from`; `via` names the re-exporting file). A Go import names a package, so every file importing the package counts. `has_importers` says whether the importer is itself imported. Sorted by hops then path; max_results (default 50, 1..200) rows per file, importer_count counts them all. Pass file_paths for several files: one row per file with its count, and one table of importers with a file_path column.";

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (or a bare name that identifies one repo)"),
  file_path: z.string().optional().describe(
    "Repo-relative path of the imported file, exactly as indexed (see get_file_tree)",
  ),
  file_paths: z.array(z.string()).optional().describe(
    "Several repo-relative paths (batch); use instead of file_path",
  ),
  max_results: z.number().int().optional().describe(
    "Most importers listed per file (default 50, clamped to 1..200)",
  ),
  cross_repo: z.boolean().optional().describe(
    "Accepted for compatibility; other repos are not searched (named in _meta.warnings)",
  ),
});

/** Validated arguments. */
export type FindImportersArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

function _importers(graph: ImportGraph, file: string, max: number) {
  const all = graph.importers(file);
  const rows = all.slice(0, max).map((i) => ({
    file: i.file,
    specifier: i.specifier,
    names: i.names.join(", "),
    line: i.line,
    hops: i.hops,
    via: i.via,
    has_importers: graph.directImporters(i.file).length > 0,
  }));
  return { count: all.length, rows };
}

function _one(view: RepoView, path: string, max: number) {
  requireFile(view, path);
  return _importers(view.get(IMPORT_GRAPH), path, max);
}

/**
 * The importers of `file_path`, or for `file_paths` `{repo, files, importers}`: one row per file
 * (its count, or its error), and one table of all importers with a `file_path` column.
 */
export function handler(ctx: ToolContext, args: FindImportersArgs): ToolOutput {
  const which = oneOf("file_path", args.file_path, "file_paths", args.file_paths, "file");
  const warnings: string[] = [];
  const max = clampInt("max_results", args.max_results, 50, 1, 200, warnings);
  if (args.cross_repo === true) warnings.push("cross_repo is not supported: this repo only");
  const { repo, view } = openRepo(ctx, args.repo);
  if ("single" in which) {
    const { count, rows } = _one(view, which.single, max);
    const truncated = count > rows.length;
    return {
      response: { repo, file_path: which.single, importer_count: count, importers: rows },
      repo,
      meta: graphMeta(
        warnings,
        truncated,
        `Showing ${rows.length} of ${count}: raise max_results (up to 200)`,
      ),
    };
  }
  // Two tables: one row per file asked about, and every importer row naming that file.
  let truncated = false;
  const files: Record<string, unknown>[] = [];
  const importers: Record<string, unknown>[] = [];
  for (const path of which.batch) {
    try {
      const { count, rows } = _one(view, path, max);
      if (count > rows.length) truncated = true;
      files.push({ file_path: path, importer_count: count });
      for (const row of rows) importers.push({ file_path: path, ...row });
    } catch (e) {
      if (!(e instanceof ToolError)) throw e;
      files.push({ file_path: path, importer_count: 0, error: e.message });
    }
  }
  return {
    response: { repo, files: squareRows(files), importers },
    repo,
    meta: graphMeta(warnings, truncated, "Some lists are cut: raise max_results (up to 200)"),
  };
}
