/** `get_symbol_complexity`: a function's stored complexity metrics (docs/api.md). */
import { z } from "zod";
import {
  complexityAssessment,
  complexityIndexed,
  languageMeasured,
  symbolComplexity,
} from "../query/complexity.ts";
import { findSymbol } from "../query/symbol_lookup.ts";
import type { RepoView } from "../query/view.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { type ArgsOf, defineTool, type ResponseOf } from "./define.ts";

const _args = {
  symbol_id: z.string().describe(
    "Symbol id from search_symbols or get_file_outline (or a unique qualified or plain name)",
  ),
};

/** Validated arguments. */
export type GetSymbolComplexityArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  symbol_id: z.string().describe("The symbol's id"),
  name: z.string().describe("Name"),
  kind: z.string().describe("Kind"),
  file: z.string().describe("File"),
  line: z.number().int().describe("First line"),
  measured: z.boolean().describe("Whether the index holds its metrics (note says why not)"),
  cyclomatic: z.number().int().nullable().describe(
    "1 + its decision points (branches, loops, cases, catches, short-circuit operators)",
  ),
  max_nesting: z.number().int().nullable().describe("Deepest nesting of control structures"),
  param_count: z.number().int().nullable().describe("Declared parameters"),
  lines: z.number().int().describe("Source lines (end_line - line + 1)"),
  assessment: z.enum(["low", "medium", "high"]).nullable().describe(
    "low (cyclomatic 1-4), medium (5-10) or high (11+)",
  ),
  note: z.string().optional().describe("Why it has no metrics"),
};

/** Why a symbol has no metrics. */
function _why(view: RepoView, kind: string, language: string): string {
  if (kind !== "function" && kind !== "method") {
    return `Only functions and methods are measured; this is a ${kind}`;
  }
  if (!languageMeasured(language)) {
    return `Functions of ${language} are not measured (its language has no complexity rules)`;
  }
  if (!complexityIndexed(view)) {
    return "The index was written before complexity was measured: re-index the repo (index_folder) to measure it";
  }
  return "Not measured: the function's tree gave no metrics";
}

/** The metrics of one symbol. */
export function handler(
  ctx: ToolContext,
  args: GetSymbolComplexityArgs,
): ToolOutput<ResponseOf<typeof _fields>> {
  const { repo, view } = openRepo(ctx, args.repo);
  const symbol = findSymbol(view, args.symbol_id);
  const m = symbolComplexity(view, symbol.id);
  const response: ResponseOf<typeof _fields> = {
    repo,
    symbol_id: symbol.id,
    name: symbol.name,
    kind: symbol.kind,
    file: symbol.file,
    line: symbol.line,
    measured: m !== undefined,
    cyclomatic: m?.cyclomatic ?? null,
    max_nesting: m?.max_nesting ?? null,
    param_count: m?.param_count ?? null,
    lines: symbol.end_line - symbol.line + 1,
    assessment: m === undefined ? null : complexityAssessment(m.cyclomatic),
  };
  if (m === undefined) response.note = _why(view, symbol.kind, symbol.language);
  return { response, repo };
}

/** The declaration. */
export const tool = defineTool({
  name: "get_symbol_complexity",
  title: "Symbol complexity",
  summary:
    "a function's cyclomatic complexity, nesting depth, parameter count and lines, measured from its tree at index time",
  description:
    "Get a function's or method's cyclomatic complexity, deepest nesting, parameter count and lines, with an assessment (low 1-4, medium 5-10, high 11+), measured at index time. Use it before refactoring or reviewing a function; get_hotspots ranks a whole repo.",
  repo: "optional",
  args: _args,
  output: { fields: _fields },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
