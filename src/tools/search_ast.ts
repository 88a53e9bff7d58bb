/**
 * `search_ast`: structural anti-pattern and mini-DSL search over tree-sitter syntax trees
 * (API.md §2.10), every match attributed to its enclosing symbol.
 */
import { z } from "zod";
import { checkLanguage } from "./graph_args.ts";
import { type AstPattern, resolvePatterns } from "../query/ast_patterns.ts";
import { AST_BUDGET_MS, type AstResult, type AstScan, scanAst } from "../query/ast_search.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { squareRows } from "./rows.ts";
import { oneLine } from "../query/one_line.ts";
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
  "Find code by structure in every indexed language: a preset (empty_catch, bare_except, deeply_nested, nested_loops, god_function, eval_exec, hardcoded_secret, todo_fixme, magic_number, reassigned_param), a category (security, error_handling, complexity, performance, maintenance, all), or a pattern: call:<dotted glob>, string:/regex/, comment:/regex/, nesting:N+, loops:N+, lines:N+. Each match names its enclosing symbol. Use it to review risky code or find every call of an API.";

const _args = {
  pattern: z.string().optional().describe(
    "A preset name or a custom pattern (call:<glob>, string:/re/i, comment:/re/i, nesting:N+, loops:N+, lines:N+)",
  ),
  category: z.string().optional().describe(
    "Run every preset of a category: security, error_handling, complexity, performance, maintenance or all (wins over pattern)",
  ),
  language: z.string().optional().describe('Only files of this language id, e.g. "python"'),
  file_pattern: z.string().optional().describe(
    'Only files matching this glob ("*" also crosses "/"), e.g. "src/*.ts"',
  ),
  max_results: z.number().int().min(1).max(1000).optional().describe(
    "Most matches returned (1-1000, default 50); total_matches counts them all",
  ),
};

/** Validated arguments. */
export type SearchAstArgs = ArgsOf<typeof _args, "required">;

/** A detector's extra column (null in the rows of other detectors: one table). */
const _extra = (what: string) =>
  z.union([z.string(), z.number()]).nullable().optional().describe(what);

const _fields = {
  repo: z.string().describe("Repo id"),
  total_matches: z.number().int().describe("Matches found (all of them)"),
  severity_counts: z.record(z.string(), z.number().int()).describe("Matches per severity"),
  matches: table("a", {
    file: z.string().describe("File"),
    line: z.number().int().describe("First line"),
    end_line: z.number().int().describe("Last line"),
    column: z.number().int().describe("Column (0-based)"),
    severity: z.enum(["error", "warning", "info"]).describe("error, warning or info"),
    pattern: z.string().describe("The preset or pattern that matched"),
    snippet: z.string().describe("The matched code, one line (secrets redacted)"),
    language: z.string().describe("Language id"),
    enclosing_symbol: z.string().nullable().describe("Id of the enclosing symbol"),
    symbol_kind: z.string().nullable().describe("Its kind"),
    name: _extra("hardcoded_secret: the variable"),
    callee: _extra("call: and eval_exec: the callee"),
    value: _extra("magic_number: the number"),
    parameter: _extra("reassigned_param: the parameter"),
    function_name: _extra("nesting, loops, lines, god_function: the function"),
    nesting_depth: _extra("deeply_nested, nested_loops: the depth"),
    line_count: _extra("god_function, lines: the function's lines"),
    complexity: _extra("god_function: its decision count"),
  }, {
    order: [
      "file",
      "line",
      "end_line",
      "column",
      "severity",
      "pattern",
      "snippet",
      "language",
      "enclosing_symbol",
      "symbol_kind",
    ],
    intern: ["file", "enclosing_symbol", "pattern", "language"],
  }).describe("Most severe first, then by file and line"),
  truncated: z.boolean().describe("Whether matches were left out (see total_matches)"),
  pattern: z.string().optional().describe("The pattern run"),
  category: z.string().optional().describe("The category run"),
  patterns_run: z.array(z.string()).optional().describe("Its presets (category)"),
  description: z.string().optional().describe("What the pattern finds"),
};

const _meta = {
  files_scanned: z.number().int().describe("Files parsed"),
  files_total: z.number().int().describe("Files of the languages searched"),
  files_with_matches: z.number().int().describe("Files with a match"),
  languages_scanned: z.string().describe("Languages searched, comma-separated"),
  elapsed_ms: z.number().int().describe("Scan time"),
  files_skipped: z.number().int().describe("Files that could not be parsed"),
  timed_out: z.boolean().describe("The scan stopped at its time budget"),
  hint: META.hint,
};

type _Match = RowOf<typeof _fields.matches>;

const _SEVERITY_ORDER: Record<string, number> = { error: 0, warning: 1, info: 2 };

/** Matches of the pattern(s), most severe first, then by file and line. */
export async function handler(
  ctx: ToolContext,
  args: SearchAstArgs,
): Promise<ToolOutput<ResponseOf<typeof _fields>, MetaOf<typeof _meta>>> {
  const patterns: AstPattern[] = resolvePatterns(args.pattern, args.category);
  const language = checkLanguage(args.language);
  const { repo, view } = openRepo(ctx, args.repo);
  const maxResults = args.max_results ?? 50;
  const started = performance.now();
  const scan = await scanAst(view, patterns, {
    ...(language !== undefined ? { language } : {}),
    ...(args.file_pattern !== undefined ? { filePattern: args.file_pattern } : {}),
  });
  const { sorted, severityCounts } = _ordered(scan);
  // One table: a pattern's extra field (`name`, `depth`, …) is null in the other patterns' rows.
  const matches = squareRows(sorted.slice(0, maxResults).map(_row));
  const truncated = sorted.length > maxResults || scan.timedOut;
  const response: ResponseOf<typeof _fields> = {
    repo,
    total_matches: sorted.length,
    severity_counts: { ...severityCounts },
    matches,
    truncated,
  };
  if (args.category !== undefined) {
    response.category = args.category.trim().toLowerCase();
    response.patterns_run = patterns.map((p) => p.name);
  } else {
    response.pattern = patterns[0]!.name;
    response.description = patterns[0]!.description;
  }
  const meta: MetaOf<typeof _meta> = {
    files_scanned: scan.filesScanned,
    files_total: scan.filesTotal,
    files_with_matches: scan.filesWithMatches,
    languages_scanned: scan.languages.join(","),
    elapsed_ms: Math.round(performance.now() - started),
  };
  if (scan.filesSkipped > 0) meta.files_skipped = scan.filesSkipped;
  if (scan.timedOut) {
    meta.timed_out = true;
    meta.hint = `The scan stopped at its ${
      AST_BUDGET_MS / 1000
    } s budget after ${scan.filesScanned} of ${scan.filesTotal} files: narrow it with language or file_pattern (e.g. file_pattern "src/*")`;
  } else if (sorted.length > maxResults) {
    meta.hint =
      `${sorted.length} matches, ${maxResults} shown: raise max_results (up to 1000) or narrow with file_pattern`;
  }
  return { response, repo, meta, rawBytes: 0 };
}

/** A scan's matches in answer order, and their counts by severity (once per scan). */
const _ORDERED = new WeakMap<
  AstScan,
  { sorted: AstResult[]; severityCounts: Record<string, number> }
>();

/**
 * The matches most severe first, then by file, line, column and pattern. Computed once per scan:
 * identical calls share one scan and resume together, and each sorting its 12,000 matches by
 * string comparisons held the main thread for 0.5 s (ten `call:*.get` at once; `ping` waited).
 * Files are ranked once, so most comparisons are of numbers.
 */
function _ordered(scan: AstScan): { sorted: AstResult[]; severityCounts: Record<string, number> } {
  const known = _ORDERED.get(scan);
  if (known !== undefined) return known;
  const files = [...new Set(scan.matches.map((m) => m.file))].sort();
  const fileRank = new Map(files.map((f, i) => [f, i]));
  const keyed = scan.matches.map((m) => ({
    m,
    severity: _SEVERITY_ORDER[m.severity]!,
    file: fileRank.get(m.file)!,
  }));
  keyed.sort((a, b) =>
    a.severity - b.severity || a.file - b.file || a.m.line - b.m.line ||
    a.m.column - b.m.column || (a.m.pattern < b.m.pattern ? -1 : a.m.pattern > b.m.pattern ? 1 : 0)
  );
  const sorted = keyed.map((k) => k.m);
  const severityCounts: Record<string, number> = {};
  for (const m of sorted) severityCounts[m.severity] = (severityCounts[m.severity] ?? 0) + 1;
  const out = { sorted, severityCounts };
  _ORDERED.set(scan, out);
  return out;
}

function _row(m: AstResult): _Match {
  const row: _Match = {
    file: m.file,
    line: m.line,
    end_line: m.end_line,
    column: m.column,
    severity: m.severity,
    pattern: m.pattern,
    snippet: oneLine(m.snippet),
    language: m.language,
    enclosing_symbol: m.enclosing_symbol ?? null,
    symbol_kind: m.symbol_kind ?? null,
  };
  return Object.assign(row, m.extra);
}

/** The declaration. */
export const tool = defineTool({
  name: "search_ast",
  title: "Structural search",
  summary:
    "structural search in every language: presets (`empty_catch`, `eval_exec`, `hardcoded_secret`, `deeply_nested`, …), categories, or `call:`/`string:`/`comment:`/`nesting:`/`loops:`/`lines:` patterns, each match with its enclosing symbol",
  description: _description,
  repo: "optional",
  args: _args,
  output: { fields: _fields, meta: _meta, encoding: { id: "sa2" } },
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: handler,
});
