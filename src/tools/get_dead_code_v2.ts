/** `get_dead_code_v2`: dead functions and methods with the signals behind each (docs/api.md). */
import { z } from "zod";
import { globMatcher } from "../query/glob.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { analyseDeadCode, ENTRY_POINT_PATTERNS, unmatchedWarning } from "./dead_code_args.ts";
import { graphMeta } from "./graph_args.ts";
import { type ArgsOf, defineTool, META, type MetaOf, type ResponseOf, table } from "./define.ts";

const _description =
  "Find likely-dead functions and methods with their confidence and the signals that fired (no_mentions, no_callers, callers_dead, not_exported / exported_in_repo / public_api, file_not_imported, not_a_convention_root, no_reflection): find_dead_code's analysis for functions and methods, default threshold 0.5 (unused public API included).";

const _args = {
  min_confidence: z.number().min(0).max(1).optional().describe(
    "Least confidence listed (default 0.5; 0.8 keeps only unreferenced and repo-internal ones)",
  ),
  include_tests: z.boolean().optional().describe(
    "Weigh the functions of test files too (default false: tests are roots, their uses count)",
  ),
  max_results: z.number().int().min(0).max(5000).optional().describe(
    "Most rows (default 100; 0 means the most, 5000)",
  ),
  file_pattern: z.string().optional().describe(
    'Only list symbols of files matching this fnmatch glob ("src/*", "*.py"); the analysis still covers the whole repo',
  ),
  entry_point_patterns: ENTRY_POINT_PATTERNS,
};

/** Validated arguments. */
export type GetDeadCodeV2Args = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  min_confidence: z.number().describe("The threshold applied"),
  total_analysed: z.number().int().describe("Functions and methods weighed"),
  total_matches: z.number().int().describe("Dead ones at or above min_confidence (all of them)"),
  dead_symbols: table("d", {
    id: z.string().describe("Symbol id"),
    name: z.string().describe("Its name"),
    kind: z.string().describe("function or method"),
    file: z.string().describe("Its file"),
    line: z.number().int().describe("Its first line"),
    confidence: z.number().describe("1.0, 0.9, 0.7, 0.5 or 0.3 (find_dead_code's tiers)"),
    signals: z.string().describe("The signals that fired, comma-separated"),
  }, { intern: ["kind", "file", "signals"] }).describe(
    "Dead functions and methods, most confident first, then by file and line",
  ),
};

const _meta = { truncated: META.truncated, hint: META.hint };

const _FUNCTIONS = new Set(["function", "method"]);

/** The dead functions and methods of a repo. */
export function handler(
  ctx: ToolContext,
  args: GetDeadCodeV2Args,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const min = args.min_confidence ?? 0.5;
  const max = args.max_results === 0 ? 5000 : args.max_results ?? 100;
  const inPattern = args.file_pattern === undefined ? null : globMatcher(args.file_pattern);
  const { repo, view } = openRepo(ctx, args.repo);
  const { dead, unmatched } = analyseDeadCode(view, {
    includeTests: args.include_tests ?? false,
    withGraph: min <= 0.7,
    patterns: args.entry_point_patterns,
  });
  const found = dead.symbols.filter((d) =>
    _FUNCTIONS.has(d.symbol.kind) && d.confidence >= min &&
    (inPattern === null || inPattern(d.symbol.file))
  );
  const rows = found.slice(0, max).map((d) => ({
    id: d.symbol.id,
    name: d.symbol.name,
    kind: d.symbol.kind,
    file: d.symbol.file,
    line: d.symbol.line,
    confidence: d.confidence,
    signals: d.evidence.join(","),
  }));
  return {
    response: {
      repo,
      min_confidence: min,
      total_analysed: dead.functions,
      total_matches: found.length,
      dead_symbols: rows,
    },
    repo,
    meta: graphMeta(
      found.length > rows.length,
      `Showing ${rows.length} of ${found.length}: raise max_results (up to 5000), raise min_confidence or narrow with file_pattern`,
    ),
    warnings: unmatchedWarning(unmatched),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_dead_code_v2",
  title: "Dead functions (signals)",
  summary: "dead functions and methods with the signals that fired for each",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "dv1" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
