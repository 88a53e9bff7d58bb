/** `find_importers`: the files that import a file, following re-exports (API.md §2.2). */
import { z } from "zod";
import { IMPORT_GRAPH, type ImportGraph } from "../query/import_graph.ts";
import { ToolError } from "../errors.ts";
import { openRepo, requireFile, type ToolContext, type ToolOutput } from "./context.ts";
import { squareRows } from "./rows.ts";
import type { RepoView } from "../query/view.ts";
import { graphMeta, oneOf, withWarnings } from "./graph_args.ts";
import {
  type ArgsOf,
  defineTool,
  META,
  type MetaOf,
  type ResponseOf,
  type RowOf,
  rows,
  table,
} from "./define.ts";

const _description =
  "Find the files that import a file, directly or through re-exports (barrels, __init__.py), with the names they import; file_paths for several files.";

const _args = {
  file_path: z.string().optional().describe(
    "Repo-relative path of the imported file",
  ),
  file_paths: z.array(z.string()).optional().describe(
    "Several file paths",
  ),
  max_results: z.number().int().min(1).max(200).optional().describe(
    "Most importers per file (default 50)",
  ),
  cross_repo: z.boolean().optional().describe(
    "Accepted for compatibility; other repos are not searched (named in _meta.warnings)",
  ),
};

/** Validated arguments. */
export type FindImportersArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  file_path: z.string().optional().describe("The imported file (file_path)"),
  importer_count: z.number().int().optional().describe("Importers found (all of them)"),
  files: rows({
    file_path: z.string().describe("A file asked about"),
    importer_count: z.number().int().describe("Its importers"),
    error: z.string().nullable().optional().describe("Why it could not be looked up"),
  }).optional().describe("file_paths: one row per file"),
  importers: table("i", {
    file_path: z.string().optional().describe("The imported file (file_paths only)"),
    file: z.string().describe("The importing file"),
    specifier: z.string().describe("The import as written"),
    names: z.string().describe("Names it imports, comma-separated"),
    line: z.number().int().describe("Line of the import"),
    hops: z.number().int().describe("1 direct, more through re-exports"),
    via: z.string().nullable().describe("The re-exporting file, if any"),
    has_importers: z.boolean().describe("Whether the importer is itself imported"),
  }, { intern: ["file_path", "file", "specifier", "via"] }).describe(
    "Sorted by hops then path, at most max_results per file",
  ),
};

const _meta = { truncated: META.truncated, hint: META.hint };

type _Importer = RowOf<typeof _fields.importers>;

function _importers(graph: ImportGraph, file: string, max: number) {
  const all = graph.importers(file);
  const rows = all.slice(0, max).map((i): _Importer => ({
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
export function handler(
  ctx: ToolContext,
  args: FindImportersArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const which = oneOf("file_path", args.file_path, "file_paths", args.file_paths, "file");
  const warnings: string[] = [];
  const max = args.max_results ?? 50;
  if (args.cross_repo === true) warnings.push("cross_repo is not supported: this repo only");
  const { repo, view } = openRepo(ctx, args.repo);
  if ("single" in which) {
    const { count, rows } = _one(view, which.single, max);
    const truncated = count > rows.length;
    return {
      response: { repo, file_path: which.single, importer_count: count, importers: rows },
      repo,
      meta: graphMeta(
        truncated,
        `Showing ${rows.length} of ${count}: raise max_results (up to 200)`,
      ),
      ...withWarnings(warnings),
    };
  }
  // Two tables: one row per file asked about, and every importer row naming that file.
  let truncated = false;
  const files: NonNullable<ResponseOf<typeof _fields>["files"]> = [];
  const importers: _Importer[] = [];
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
    meta: graphMeta(truncated, "Some lists are cut: raise max_results (up to 200)"),
    ...withWarnings(warnings),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "find_importers",
  title: "Find importers",
  summary:
    "files importing a file, through re-exports (`index.ts` barrels, `__init__.py`; `via` says which) and Go packages",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "fi3" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
