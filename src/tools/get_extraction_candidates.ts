/** `get_extraction_candidates`: functions worth splitting, with the reasons (docs/api.md). */
import { z } from "zod";
import { complexityIndexed } from "../query/complexity.ts";
import { extractionCandidates } from "../query/extraction.ts";
import { openRepo, requireFile, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, table } from "./define.ts";
import { graphMeta } from "./graph_args.ts";

const _description =
  "Find functions worth splitting (extract function): complex (cyclomatic ≥ min_complexity, from the complexity stored at index time) and either shared (called from ≥ min_callers other files through the call graph) or deeply nested (depth ≥ 4); long ones (60+ lines) are marked. Each with its metrics, callers, score and reasons, best first. Pass file_path for one file, or none for the whole repo. Check one with get_symbol_complexity or get_call_hierarchy.";

const _args = {
  file_path: z.string().optional().describe("One file's functions (default: the whole repo)"),
  min_complexity: z.number().int().min(1).max(1000).optional().describe(
    "Least cyclomatic complexity (default 5)",
  ),
  min_callers: z.number().int().min(0).max(1000).optional().describe(
    "Least other files calling it to count as shared (default 2)",
  ),
  max_results: z.number().int().min(1).max(1000).optional().describe(
    "Most rows (default 50, 1..1000)",
  ),
};

/** Validated arguments. */
export type GetExtractionCandidatesArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  file_path: z.string().nullable().describe("The file weighed, or null for the repo"),
  min_complexity: z.number().int().describe("Threshold applied"),
  min_callers: z.number().int().describe("Threshold applied"),
  total_measured: z.number().int().describe("Measured functions weighed"),
  candidate_count: z.number().int().describe("Candidates (all of them)"),
  candidates: table("x", {
    symbol_id: z.string().describe("Symbol id"),
    name: z.string().describe("Name"),
    kind: z.string().describe("function or method"),
    file: z.string().describe("File"),
    line: z.number().int().describe("First line"),
    lines: z.number().int().describe("Lines"),
    cyclomatic: z.number().int().describe("Cyclomatic complexity"),
    max_nesting: z.number().int().describe("Deepest nesting"),
    param_count: z.number().int().describe("Parameters"),
    caller_count: z.number().int().describe("Calling symbols"),
    caller_files: z.number().int().describe("Other files calling it"),
    score: z.number().describe("Higher first (docs/api.md)"),
    reasons: z.string().describe("Why, comma-separated"),
  }, { intern: ["kind", "file"] }).describe("Best first"),
  note: z.string().optional().describe("Why nothing could be weighed"),
};

const _meta = { truncated: META.truncated, hint: META.hint };

/** The candidates. */
export function handler(
  ctx: ToolContext,
  args: GetExtractionCandidatesArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const { repo, view } = openRepo(ctx, args.repo);
  const file = args.file_path === undefined ? undefined : requireFile(view, args.file_path).path;
  const minComplexity = args.min_complexity ?? 5;
  const minCallers = args.min_callers ?? 2;
  const max = args.max_results ?? 50;
  const { candidates, measured } = extractionCandidates(view, { file, minComplexity, minCallers });
  const response: ResponseOf<typeof _fields> = {
    repo,
    file_path: file ?? null,
    min_complexity: minComplexity,
    min_callers: minCallers,
    total_measured: measured,
    candidate_count: candidates.length,
    candidates: candidates.slice(0, max).map((c) => ({
      symbol_id: c.symbol.id,
      name: c.symbol.name,
      kind: c.symbol.kind,
      file: c.symbol.file,
      line: c.symbol.line,
      lines: c.symbol.lines,
      cyclomatic: c.symbol.cyclomatic,
      max_nesting: c.symbol.max_nesting,
      param_count: c.symbol.param_count,
      caller_count: c.callers,
      caller_files: c.callerFiles,
      score: c.score,
      reasons: c.reasons.join(", "),
    })),
  };
  if (measured === 0) {
    response.note = complexityIndexed(view)
      ? "No measured function here (its language has no complexity rules, or it has no functions)"
      : "The index was written before complexity was measured: re-index (index_folder)";
  }
  return {
    response,
    repo,
    meta: graphMeta(
      candidates.length > max,
      `Showing ${max} of ${candidates.length}: raise max_results (up to 1000), min_complexity or pass file_path`,
    ),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_extraction_candidates",
  title: "Extraction candidates",
  summary: "functions worth splitting: complex and shared or deeply nested, with reasons and ids",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "ec1" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
