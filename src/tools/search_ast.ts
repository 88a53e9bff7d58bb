/**
 * `search_ast`: structural anti-pattern and mini-DSL search over tree-sitter syntax trees
 * (API.md §2.10), every match attributed to its enclosing symbol.
 */
import { z } from "zod";
import { checkLanguage } from "./graph_args.ts";
import { type AstPattern, resolvePatterns } from "../query/ast_patterns.ts";
import { AST_BUDGET_MS, type AstResult, scanAst } from "../query/ast_search.ts";
import { openRepo, type ToolContext, type ToolOutput } from "./context.ts";
import { squareRows } from "./rows.ts";
import { oneLine } from "../query/one_line.ts";

/** Tool name. */
export const name = "search_ast";

/** Tool description shown to agents. */
export const description =
  "Find code by structure across every indexed language: presets (empty_catch, bare_except, deeply_nested, nested_loops, god_function, eval_exec, hardcoded_secret, todo_fixme, magic_number, reassigned_param), a category of them (security, error_handling, complexity, performance, maintenance, all), or a custom pattern: call:<dotted glob>, string:/regex/i or string:literal, comment:/regex/i, nesting:N+, loops:N+, lines:N+. Each match names its enclosing symbol id. Use it to review code for risky patterns or to find every call of an API. Files are re-parsed in a worker within a 10 s budget (only files that can match: pre-filtered by text and symbol spans); a cut scan says so with a hint to narrow it by language or file_pattern.";

/** Input schema. */
export const inputSchema = z.object({
  repo: z.string().describe("Repo id from list_repos (or a bare name that identifies one repo)"),
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
});

/** Validated arguments. */
export type SearchAstArgs = z.infer<typeof inputSchema>;

/** Annotations for MCP clients. */
export const annotations = { readOnlyHint: true, openWorldHint: false } as const;

const _SEVERITY_ORDER: Record<string, number> = { error: 0, warning: 1, info: 2 };

/** Matches of the pattern(s), most severe first, then by file and line. */
export async function handler(ctx: ToolContext, args: SearchAstArgs): Promise<ToolOutput> {
  const patterns: AstPattern[] = resolvePatterns(args.pattern, args.category);
  checkLanguage(args.language);
  const { repo, view } = openRepo(ctx, args.repo);
  const maxResults = args.max_results ?? 50;
  const started = performance.now();
  const scan = await scanAst(view, patterns, {
    ...(args.language !== undefined ? { language: args.language } : {}),
    ...(args.file_pattern !== undefined ? { filePattern: args.file_pattern } : {}),
  });
  const sorted = [...scan.matches].sort((a, b) =>
    _SEVERITY_ORDER[a.severity]! - _SEVERITY_ORDER[b.severity]! ||
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column ||
    (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0)
  );
  const severityCounts: Record<string, number> = {};
  for (const m of sorted) severityCounts[m.severity] = (severityCounts[m.severity] ?? 0) + 1;
  // One table: a pattern's extra field (`name`, `depth`, …) is null in the other patterns' rows.
  const matches = squareRows(sorted.slice(0, maxResults).map(_row));
  const truncated = sorted.length > maxResults || scan.timedOut;
  const response: Record<string, unknown> = {
    repo,
    total_matches: sorted.length,
    severity_counts: severityCounts,
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
  const meta: Record<string, unknown> = {
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

function _row(m: AstResult): Record<string, unknown> {
  const row: Record<string, unknown> = {
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
  for (const [k, v] of Object.entries(m.extra)) row[k] = v;
  return row;
}
