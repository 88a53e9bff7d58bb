/** `find_dead_code`: definitions and files nothing reaches, each with a confidence and evidence (docs/api.md). */
import { z } from "zod";
import type { DeadFile, DeadSymbol } from "../query/dead_code.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { analyseDeadCode, ENTRY_POINT_PATTERNS, unmatchedWarning } from "./dead_code_args.ts";
import { graphMeta } from "./graph_args.ts";
import {
  type ArgsOf,
  defineTool,
  META,
  type MetaOf,
  type ResponseOf,
  type RowOf,
  table,
} from "./define.ts";

const _description =
  "Find dead code: functions, methods, classes, types nothing reaches and files nothing imports, each with a confidence and its evidence. The language's conventions keep entry points, runtime hooks, discovered tests, registering decorators, overrides, reflection targets and exports alive. Confidence: 1.0 nothing names it; 0.9 exported only inside the repo; 0.7 used only by dead code; 0.5 public API the repo never uses; 0.3 its name is written elsewhere but nothing resolves to it. Use it before deleting code; confirm with check_references.";

const _args = {
  granularity: z.enum(["symbol", "file"]).optional().describe(
    "symbol (default): dead definitions and dead files; file: dead files only",
  ),
  min_confidence: z.number().min(0).max(1).optional().describe(
    "Least confidence listed (default 0.8: unreferenced, and exported inside the repo only; 0.5 adds unused public API; 0 lists everything)",
  ),
  include_tests: z.boolean().optional().describe(
    "Weigh the definitions of test files too (default false: tests are roots, their uses count)",
  ),
  entry_point_patterns: ENTRY_POINT_PATTERNS,
  max_results: z.number().int().min(1).max(5000).optional().describe(
    "Most rows of each list (default 200); the counts count them all",
  ),
};

/** Validated arguments. */
export type FindDeadCodeArgs = ArgsOf<typeof _args, "required">;

const _fields = {
  repo: z.string().describe("Repo id"),
  granularity: z.enum(["symbol", "file"]).describe("What was asked for"),
  min_confidence: z.number().describe("The threshold applied"),
  dead_symbol_count: z.number().int().describe("Dead definitions at or above min_confidence"),
  dead_file_count: z.number().int().describe("Dead files at or above min_confidence"),
  candidates: z.number().int().describe("Definitions weighed"),
  live_root_count: z.number().int().describe(
    "Files that are roots: entry points, programs, examples, docs, benchmarks and declared entries",
  ),
  dead_symbols: table("d", {
    symbol_id: z.string().describe("Symbol id"),
    name: z.string().describe("Its name"),
    kind: z.string().describe("function, method, class or type"),
    file: z.string().describe("Its file"),
    line: z.number().int().describe("Its first line"),
    confidence: z.number().describe("1.0, 0.9, 0.7, 0.5 or 0.3 (see the description)"),
    reason: z.enum([
      "unreferenced",
      "unreferenced_export",
      "used_only_by_dead_code",
      "unreferenced_public",
      "mentioned_only",
    ]).describe("Why it is dead"),
    exported: z.enum(["none", "internal", "public"]).describe(
      "How far it is exported: not at all, inside the repo only, or as the repo's API",
    ),
    mentions: z.number().int().describe("Times its name is written outside its definition"),
    evidence: z.string().describe(
      "The facts checked, comma-separated: no_mentions, no_callers, callers_dead, not_exported | exported_in_repo | public_api, file_not_imported, not_a_convention_root, no_reflection",
    ),
  }, { intern: ["kind", "file", "reason", "exported", "evidence"] }).describe(
    "Dead definitions, most confident first, then by file and line (empty with granularity file)",
  ),
  dead_files: table("f", {
    file: z.string().describe("The file"),
    confidence: z.number().describe("1.0, 0.7, 0.5 or 0.4"),
    reason: z.enum([
      "no_importer_all_dead",
      "all_dead",
      "no_importer",
      "no_importer_public",
      "no_importer_name_mentioned",
    ]).describe("Why it is dead"),
    importer_count: z.number().int().describe("Files importing it (0)"),
    symbols: z.number().int().describe("Its definitions"),
    dead_symbols: z.number().int().describe("Of those, dead at confidence ≥ 0.9"),
  }, { intern: ["reason"] }).describe("Dead files, most confident first, then by path"),
  kept_alive: table("k", {
    reason: z.string().describe(
      "mentioned, runtime (hook), test, decorator, entry (point), override, reflection, or a root file's kind",
    ),
    count: z.number().int().describe("Candidates it kept alive"),
  }).describe("Why the other candidates are live, by kind of evidence"),
  unweighed_languages: z.array(z.string()).describe(
    "Languages with definitions that declare no liveness rules: not weighed",
  ),
};

const _meta = { truncated: META.truncated, hint: META.hint };

type _SymbolRow = RowOf<typeof _fields.dead_symbols>;
type _FileRow = RowOf<typeof _fields.dead_files>;

/** A dead definition as a row. */
export function deadSymbolRow(d: DeadSymbol): _SymbolRow {
  const s = d.symbol;
  return {
    symbol_id: s.id,
    name: s.name,
    kind: s.kind,
    file: s.file,
    line: s.line,
    confidence: d.confidence,
    reason: d.reason,
    exported: d.exported,
    mentions: d.mentions,
    evidence: d.evidence.join(","),
  };
}

function _fileRow(f: DeadFile): _FileRow {
  return {
    file: f.file,
    confidence: f.confidence,
    reason: f.reason,
    importer_count: f.importers,
    symbols: f.symbols,
    dead_symbols: f.deadSymbols,
  };
}

/** The dead code of a repo. */
export function handler(
  ctx: ToolContext,
  args: FindDeadCodeArgs,
): ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>> {
  const granularity = args.granularity ?? "symbol";
  const min = args.min_confidence ?? 0.8;
  const max = args.max_results ?? 200;
  const { repo, view } = openRepo(ctx, args.repo);
  const { dead, unmatched } = analyseDeadCode(view, {
    includeTests: args.include_tests ?? false,
    withGraph: min <= 0.7,
    patterns: args.entry_point_patterns,
  });
  const symbols = granularity === "file" ? [] : dead.symbols.filter((d) => d.confidence >= min);
  const files = dead.files.filter((f) => f.confidence >= min);
  const truncated = symbols.length > max || files.length > max;
  return {
    response: {
      repo,
      granularity,
      min_confidence: min,
      dead_symbol_count: symbols.length,
      dead_file_count: files.length,
      candidates: dead.candidates,
      live_root_count: dead.roots,
      dead_symbols: symbols.slice(0, max).map(deadSymbolRow),
      dead_files: files.slice(0, max).map(_fileRow),
      kept_alive: Object.entries(dead.live).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .map(([reason, count]) => ({ reason, count })),
      unweighed_languages: dead.unweighedLanguages,
    },
    repo,
    meta: graphMeta(
      truncated,
      `Showing at most ${max} of ${symbols.length} symbols and ${files.length} files: raise max_results (up to 5000) or min_confidence`,
    ),
    warnings: unmatchedWarning(unmatched),
  };
}

/** The declaration. */
export const tool = defineTool({
  name: "find_dead_code",
  title: "Dead code",
  summary:
    "definitions and files nothing reaches, with a confidence and the evidence (language conventions as data)",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "dd1" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
